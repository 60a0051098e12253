package io.jdm.sync.writer;

import io.jdm.common.config.SyncerConfig;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.sync.ring.ByteBudget;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.CommitListener;
import io.jdm.sync.ring.StoppedAt;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * What every writer shares.
 *
 * @param syncer the task file's {@code syncers:} entry: the writers, their batch, compact, multiple-rows
 *        and how often a writer that commits nothing of its own still saves its position
 * @param generation the checkpoint generation this run writes
 * @param safeMode asked per batch with the position of its first change: true while safe mode is on
 *        for it
 * @param aborted true once the unit failed or halts: retries and drains give up
 * @param disowned true once another process may own the task: a halting writer then commits
 *        nothing more (otherwise it commits the batch it holds, a prefix of its changes)
 * @param budget the bytes of row images in flight; a writer gives back those of the changes it committed
 * @param batchBytes a batch is committed once its row images hold this many bytes
 * @param stoppedAt where a writer tells which statement it retries, or the target refused, for the status
 * @param committed told of each change once its batch is committed (the continuous validator)
 */
public record WriterSettings(String task, ConnectionSpec target, SyncerConfig syncer, int generation,
                             Predicate<ChangePos> safeMode, Duration retryBudget, Duration maxBackoff,
                             BooleanSupplier aborted, BooleanSupplier disowned, ByteBudget budget,
                             long batchBytes, StoppedAt stoppedAt, CommitListener committed) {
}
