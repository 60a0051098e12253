package io.jdm.common.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How the sync unit applies the binlog (an entry of {@code syncers:}); its keys, with their defaults and limits,
 * are declared in {@link SyncerKeys}.
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
    public static final int DEFAULT_WORKER_COUNT = SyncerKeys.WORKER_COUNT.def();
    public static final int DEFAULT_BATCH = SyncerKeys.BATCH.def();

    public SyncerConfig {
        Objects.requireNonNull(safeModeDuration, "safeModeDuration");
        Objects.requireNonNull(checkpointFlushInterval, "checkpointFlushInterval");
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    }

    public static SyncerConfig defaults() {
        return new SyncerConfig(SyncerKeys.WORKER_COUNT.def(), SyncerKeys.BATCH.def(), SyncerKeys.QUEUE_SIZE.def(),
                SyncerKeys.SAFE_MODE.def(), SyncerKeys.SAFE_MODE_DURATION.def(),
                SyncerKeys.CHECKPOINT_FLUSH_INTERVAL.def(), SyncerKeys.COMPACT.def(), SyncerKeys.MULTIPLE_ROWS.def(),
                SyncerKeys.ENABLE_GTID.def(), SyncerKeys.HEARTBEAT_INTERVAL.def());
    }

    /** This config with the setting of {@code key} (one of {@link SyncerKeys}) replaced by {@code value}. */
    public <T> SyncerConfig with(TaskKey<T> key, T value) {
        return KeyedRecords.with(this, key, value);
    }
}
