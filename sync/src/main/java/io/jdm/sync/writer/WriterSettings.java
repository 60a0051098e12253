package io.jdm.sync.writer;

import io.jdm.common.jdbc.ConnectionSpec;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * What every writer shares.
 *
 * @param generation the checkpoint generation this run writes
 * @param safeMode asked per batch: true while safe mode is on
 * @param aborted true once the unit failed or halts: retries and drains give up
 */
public record WriterSettings(String task, ConnectionSpec target, int writers, int batch, boolean compact,
                             boolean multipleRows, int generation, BooleanSupplier safeMode,
                             Duration retryBudget, Duration maxBackoff, Duration checkpointInterval,
                             BooleanSupplier aborted) {
}
