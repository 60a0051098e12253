package io.jdm.dump;

import io.jdm.common.position.BinlogPosition;
import java.time.Duration;

/**
 * What a finished dump produced.
 *
 * @param position the source's binlog position the data is consistent with; null when the source
 *                 has no binlog
 * @param bytes SQL text written to data files, before compression
 * @param opening the part of {@code elapsed} spent opening the consistent snapshot (connections, lock, position)
 */
public record DumpResult(BinlogPosition position, int tables, long rows, long bytes, Duration elapsed,
                         Duration opening) {
}
