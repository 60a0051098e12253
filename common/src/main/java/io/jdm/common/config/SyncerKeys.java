package io.jdm.common.config;

import java.time.Duration;
import java.util.List;

/** The keys of a {@code syncers:} entry ({@link SyncerConfig}), in the order they are read. */
public final class SyncerKeys {
    private static final TaskKey.Declarer K = TaskKey.in("syncers");

    public static final TaskKey<Integer> WORKER_COUNT = K.threads("worker-count", 16, TaskKey.MAX_THREADS, "16",
            "Parallel writers; the changes of one row always go to the same writer.");
    /**
     * Ten times DM's 100: with a writer's batch waiting up to 50 ms for more of the stream, fuller
     * transactions cost the target far less per row (bounded in bytes by the target's limits).
     */
    public static final TaskKey<Integer> BATCH = K.integer("batch", 1000, 1, 10_000, "100",
            "Changes per target transaction at most (also bounded in bytes by the target's limits).");
    /**
     * Eight times DM's 1024: a full ring hands each writer larger batches. DM's smaller default is
     * there to bound memory; here the sync's byte budget bounds it whatever the slot count.
     */
    public static final TaskKey<Integer> QUEUE_SIZE = K.powerOfTwo("queue-size", 8192, 64, 1 << 20, "1024",
            "Slots of the ring between the binlog reader and the writers.");
    public static final TaskKey<Boolean> SAFE_MODE = K.bool("safe-mode", false, "false",
            "Write every change idempotently (REPLACE, DELETE + REPLACE) for the whole run.");
    /** DM writes {@code ""} for "the default", so blank keeps it. */
    public static final TaskKey<Duration> SAFE_MODE_DURATION = K.duration("safe-mode-duration",
            Duration.ofSeconds(60), "0 turns it off; \"\" is the default", "60s",
            "How long changes are written idempotently after a first start whose position may not be exact "
                    + "(meta, another tool's dump, a consistency: none dump); a restart from the sync's own "
                    + "checkpoint and a consistent dump need none.",
            (s, k) -> s.optionalText(k.name()).isEmpty() ? k.def() : s.duration(k.name(), k.def()));
    public static final TaskKey<Duration> CHECKPOINT_FLUSH_INTERVAL = K.seconds("checkpoint-flush-interval", 30,
            1, 3600, "30", "Seconds between saves of the checkpoint in the target.");
    public static final TaskKey<Boolean> COMPACT = K.bool("compact", true, "false",
            "Merge several changes of one row within a batch into one.");
    public static final TaskKey<Boolean> MULTIPLE_ROWS = K.bool("multiple-rows", true, "false",
            "Write a batch as multi-row statements, one per table and kind of change.");
    public static final TaskKey<Boolean> ENABLE_GTID = K.bool("enable-gtid", true, "false",
            "Follow the source by GTID (gtid_mode on, or MariaDB's GTID) rather than by binlog file and position.");
    public static final TaskKey<Duration> HEARTBEAT_INTERVAL = K.seconds("heartbeat-interval", 10, 1, 3600,
            TaskKey.Declarer.NOT_IN_DM, "Seconds within which the binlog reader expects the source to speak.");

    public static final TaskKey<Void> MAX_RETRY = K.ignored("max-retry", "a DM setting jdm does not use; ignored");
    public static final TaskKey<Void> AUTO_FIX_GTID = K.ignored("auto-fix-gtid",
            "a DM setting jdm does not use; ignored");
    public static final TaskKey<Void> DISABLE_DETECT = K.ignored("disable-detect",
            "a DM setting jdm does not use; ignored");
    public static final TaskKey<Void> ENABLE_ANSI_QUOTES = K.ignored("enable-ansi-quotes", DmKeys.ANSI_QUOTES);
    public static final TaskKey<Void> META_FILE = K.ignored("meta-file",
            "DM's syncer meta file; jdm keeps its checkpoint in the target; ignored");

    /** Every key of the section, in reading order. */
    public static final List<TaskKey<?>> ALL = K.declared();

    private SyncerKeys() {
    }
}
