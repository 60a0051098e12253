package io.jdm.common.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How the sync unit applies the binlog (an entry of {@code syncers:}).
 *
 * @param queueSize slots of the ring between the binlog reader and the writers; a power of two
 * @param safeModeDuration how long rows are written idempotently (REPLACE / DELETE+REPLACE) after
 *     a start whose position may not be exact (the task's {@code meta}, another tool's dump, a
 *     {@code consistency: none} dump); a restart from the sync's own checkpoint needs none
 * @param compact merge several changes of one row within a batch into one
 * @param multipleRows write a batch as multi-row statements
 * @param enableGtid follow the source by GTID rather than by file and position
 */
public record SyncerConfig(int workerCount, int batch, int queueSize, boolean safeMode, Duration safeModeDuration,
                           Duration checkpointFlushInterval, boolean compact, boolean multipleRows,
                           boolean enableGtid, Duration heartbeatInterval) {
    public static final int DEFAULT_WORKER_COUNT = 16;
    public static final int MAX_WORKER_COUNT = UnitReaders.MAX_THREADS;
    /**
     * Ten times DM's 100: with a writer's batch waiting up to 50 ms for more of the stream, fuller
     * transactions cost the target far less per row (bounded in bytes by the target's limits).
     */
    public static final int DEFAULT_BATCH = 1000;
    public static final int MAX_BATCH = 10_000;
    /**
     * Eight times DM's 1024: a full ring hands each writer larger batches. DM's smaller default is
     * there to bound memory; here the sync's byte budget bounds it whatever the slot count.
     */
    public static final int DEFAULT_QUEUE_SIZE = 8192;
    public static final int MIN_QUEUE_SIZE = 64;
    public static final int MAX_QUEUE_SIZE = 1 << 20;

    public SyncerConfig {
        Objects.requireNonNull(safeModeDuration, "safeModeDuration");
        Objects.requireNonNull(checkpointFlushInterval, "checkpointFlushInterval");
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    }

    public static SyncerConfig defaults() {
        return new SyncerConfig(DEFAULT_WORKER_COUNT, DEFAULT_BATCH, DEFAULT_QUEUE_SIZE, false, Duration.ofSeconds(60),
                Duration.ofSeconds(30), true, true, true, Duration.ofSeconds(10));
    }

    public SyncerConfig withWorkerCount(int newWorkerCount) {
        return new SyncerConfig(newWorkerCount, batch, queueSize, safeMode, safeModeDuration,
                checkpointFlushInterval, compact, multipleRows, enableGtid, heartbeatInterval);
    }

    public SyncerConfig withBatch(int newBatch) {
        return new SyncerConfig(workerCount, newBatch, queueSize, safeMode, safeModeDuration,
                checkpointFlushInterval, compact, multipleRows, enableGtid, heartbeatInterval);
    }

    public SyncerConfig withEnableGtid(boolean newEnableGtid) {
        return new SyncerConfig(workerCount, batch, queueSize, safeMode, safeModeDuration,
                checkpointFlushInterval, compact, multipleRows, newEnableGtid, heartbeatInterval);
    }
}
