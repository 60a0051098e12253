package io.jdm.load;

import io.jdm.common.position.BinlogPosition;
import java.time.Duration;

/**
 * What a finished (or stopped) load did.
 *
 * @param files data files loaded by this run
 * @param skippedFiles data files a previous run had already finished
 * @param bytes bytes of dump files read by this run (as stored, compressed or not)
 * @param position the dump's binlog position from its {@code metadata}; null when the source had none
 * @param completed false when {@link LoadUnit#stop()} ended the run early
 */
public record LoadResult(int files, int skippedFiles, long rows, long bytes, Duration elapsed,
                         BinlogPosition position, boolean completed) {
}
