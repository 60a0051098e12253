package io.jdm.sync;

import io.jdm.common.config.OnlineDdlConfig;
import io.jdm.common.meta.MetaTable;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.config.SyncerKeys;
import io.jdm.common.config.TaskKey;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.ValidatorConfig;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.filter.ExpressionFilter;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.checkpoint.OnlineDdlStore;
import io.jdm.sync.operator.OperatorStore;
import io.jdm.sync.reader.EventDecider;
import io.jdm.sync.ring.ChangePos;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Everything the sync unit needs. Build one with {@link #builder}, which starts from the task file's
 * defaults, and {@link Builder#syncer} for a task file's {@code syncers:} entry. Defaults and limits a
 * user can set are the task file's ({@link SyncerKeys}, {@link TaskConfig}); this record checks only
 * what the unit itself relies on, so a config built in code cannot break it.
 *
 * @param sourceId names this source in the checkpoint table (several sources may share a target)
 * @param start where to begin when no checkpoint exists; null means "resume, or fail"
 * @param syncer the task file's {@code syncers:} entry as read: workers, batch, ring size, safe mode,
 *        intervals. Its {@code safeModeDuration} is how long safe mode stays on after a start that is
 *        not exact, when {@code safeMode} is false (zero: never); a start from a checkpoint needs none,
 *        the per-writer positions make replays exact
 * @param safeModeUntil safe mode stays on for every change whose transaction starts before this
 *        position (null: none): a lock-free dump's highest HIGH, up to which its chunks' images and the
 *        binlog overlap
 * @param startExact {@code start} is a consistent dump's position: the target holds every change
 *        before it and none after it, so the first start needs no safe mode either
 * @param retryBudget how long a writer keeps retrying a retriable failure before the unit fails
 * @param eventFilter DM's {@code filters}: decides per row event and per DDL statement (default: apply all)
 * @param onlineDdl follow gh-ost / pt-online-schema-change shadow tables as DM's {@code online-ddl} does,
 *        knowing them by {@code shadow-table-rules} and {@code trash-table-rules}
 * @param shardSources shard-mode pessimistic: every source id of the task (a group DDL waits for the
 *        shards of all of them); empty without it
 * @param shardOptimistic shard-mode optimistic rather than pessimistic (see {@code io.jdm.sync.shard})
 * @param extraColumns the columns a source table's route adds to its target table (none by default)
 * @param validator continuous validation of the rows the writers commit (DM's {@code validators:}; mode none by default)
 */
public record SyncConfig(String task, String sourceId, ConnectionSpec source, ConnectionSpec target,
                         long serverId, BinlogPosition start, SyncerConfig syncer, String metaSchema,
                         BiPredicate<String, String> tableFilter,
                         UnaryOperator<TableName> router, Duration retryBudget, Duration retryMaxBackoff,
                         EventDecider eventFilter, OnlineDdlConfig onlineDdl, BinlogPosition safeModeUntil,
                         boolean startExact, List<String> shardSources, boolean shardOptimistic,
                         Function<TableName, ExtraColumns> extraColumns, ExpressionFilter rowFilter,
                         ValidatorConfig validator) {

    public SyncConfig {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(syncer, "syncer");
        sourceId = sourceId == null || sourceId.isBlank() ? "source" : sourceId;
        metaSchema = metaSchema == null || metaSchema.isBlank() ? TaskConfig.DEFAULT_META_SCHEMA : metaSchema;
        tableFilter = tableFilter == null ? (d, t) -> true : tableFilter;
        router = router == null ? UnaryOperator.identity() : router;
        extraColumns = extraColumns == null ? t -> ExtraColumns.NONE : extraColumns;
        eventFilter = eventFilter == null ? EventDecider.ALWAYS_DO : eventFilter;
        onlineDdl = onlineDdl == null ? OnlineDdlConfig.DEFAULT : onlineDdl;
        rowFilter = rowFilter == null ? ExpressionFilter.NONE : rowFilter;
        validator = validator == null ? ValidatorConfig.defaults() : validator;
        shardSources = shardSources == null ? List.of() : List.copyOf(shardSources);
        check(task.matches("[A-Za-z0-9_-]+"), "task", task, "must be letters, digits, _ and - only (it names tables)");
        check(sourceId.length() <= 128, "sourceId", sourceId, "must be at most 128 characters (the checkpoint's "
                + "source_id column)");
        check(serverId > 0 && serverId <= 0xFFFFFFFFL, "serverId", serverId, "must be 1..4294967295");
        check(syncer.workerCount() >= 1, "workerCount", syncer.workerCount(), "must be at least 1");
        check(syncer.batch() >= 1, "batch", syncer.batch(), "must be at least 1");
        check(syncer.queueSize() >= 1 && Integer.bitCount(syncer.queueSize()) == 1, "queueSize", syncer.queueSize(),
                "must be a power of two (the ring's size)");
        check(positive(syncer.checkpointFlushInterval()), "checkpointFlushInterval", syncer.checkpointFlushInterval(),
                "must be > 0");
        check(positive(syncer.heartbeatInterval()), "heartbeatInterval", syncer.heartbeatInterval(), "must be > 0");
        check(positive(retryBudget), "retryBudget", retryBudget, "must be > 0");
        check(positive(retryMaxBackoff), "retryMaxBackoff", retryMaxBackoff, "must be > 0");
        check(!syncer.safeModeDuration().isNegative(), "safeModeDuration", syncer.safeModeDuration(), "must be >= 0");
    }

    private static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero();
    }

    private static void check(boolean ok, String field, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("SyncConfig." + field + " " + rule + ", got " + value);
        }
    }

    /** The checkpoint table, {@code meta-schema.task_syncer_checkpoint}. */
    public TableName checkpointTable() {
        return MetaTable.SYNCER_CHECKPOINT.of(metaSchema, task);
    }

    /** The table of the DDL in progress, {@code meta-schema.task_syncer_ddl}. */
    public TableName ddlMarkerTable() {
        return DdlMarkers.table(metaSchema, task);
    }

    /** The online DDL table, {@code meta-schema.task_onlineddl}. */
    public TableName onlineDdlTable() {
        return OnlineDdlStore.table(metaSchema, task);
    }

    /** The binlog operators' table, {@code meta-schema.task_syncer_operator}. */
    public TableName operatorTable() {
        return OperatorStore.table(metaSchema, task);
    }

    public static Builder builder(String task, ConnectionSpec source, ConnectionSpec target) {
        return new Builder(task, source, target);
    }

    @Override
    public String toString() {
        return "SyncConfig[task=" + task + " source-id=" + sourceId + " source=" + source + " target=" + target
                + " server-id=" + serverId + " start=" + start + " worker-count=" + syncer.workerCount()
                + " batch=" + syncer.batch() + " queue-size=" + syncer.queueSize() + " safe-mode=" + syncer.safeMode()
                + " compact=" + syncer.compact() + " multiple-rows=" + syncer.multipleRows()
                + " meta-schema=" + metaSchema + " enable-gtid=" + syncer.enableGtid()
                + " online-ddl=" + onlineDdl.enabled()
                + (safeModeUntil == null ? "" : " safe-mode-until=" + safeModeUntil)
                + "]";
    }

    /**
     * Starts from the task file's defaults ({@link SyncerConfig#defaults()}, {@link TaskConfig}), with
     * every field settable.
     */
    public static final class Builder {
        private final String task;
        private final ConnectionSpec source;
        private final ConnectionSpec target;
        private String sourceId = "source";
        private long serverId = 429_496_7L;
        private BinlogPosition start;
        private SyncerConfig syncer = SyncerConfig.defaults();
        private String metaSchema = TaskConfig.DEFAULT_META_SCHEMA;
        private BiPredicate<String, String> tableFilter = (d, t) -> true;
        private UnaryOperator<TableName> router = UnaryOperator.identity();
        private Duration retryBudget = Duration.ofMinutes(2);
        private Duration retryMaxBackoff = Duration.ofSeconds(5);
        private EventDecider eventFilter = EventDecider.ALWAYS_DO;
        private OnlineDdlConfig onlineDdl = OnlineDdlConfig.DEFAULT;
        private ExpressionFilter rowFilter = ExpressionFilter.NONE;
        private BinlogPosition safeModeUntil;
        private boolean startExact;
        private List<String> shardSources;
        private boolean shardOptimistic;
        private Function<TableName, ExtraColumns> extraColumns;
        private ValidatorConfig validator = ValidatorConfig.defaults();

        private Builder(String task, ConnectionSpec source, ConnectionSpec target) {
            this.task = task;
            this.source = source;
            this.target = target;
        }

        /** Every setting of a task file's {@code syncers:} entry; the setters below change one of them. */
        public Builder syncer(SyncerConfig s) {
            syncer = Objects.requireNonNull(s, "syncer");
            return this;
        }

        /** One setting of the {@code syncers:} entry (a {@link SyncerKeys} constant). */
        public <T> Builder syncer(TaskKey<T> key, T value) {
            syncer = syncer.with(key, value);
            return this;
        }

        public Builder sourceId(String v) { sourceId = v; return this; }
        public Builder serverId(long v) { serverId = v; return this; }
        public Builder start(BinlogPosition v) { start = v; return this; }
        public Builder workerCount(int v) { return syncer(SyncerKeys.WORKER_COUNT, v); }
        public Builder batch(int v) { return syncer(SyncerKeys.BATCH, v); }
        public Builder queueSize(int v) { return syncer(SyncerKeys.QUEUE_SIZE, v); }
        public Builder safeMode(boolean v) { return syncer(SyncerKeys.SAFE_MODE, v); }
        /** Null is zero: no safe mode after a start that is not exact. */
        public Builder safeModeDuration(Duration v) {
            return syncer(SyncerKeys.SAFE_MODE_DURATION, v == null ? Duration.ZERO : v);
        }
        public Builder compact(boolean v) { return syncer(SyncerKeys.COMPACT, v); }
        public Builder multipleRows(boolean v) { return syncer(SyncerKeys.MULTIPLE_ROWS, v); }
        public Builder checkpointFlushInterval(Duration v) {
            return syncer(SyncerKeys.CHECKPOINT_FLUSH_INTERVAL, v);
        }
        public Builder metaSchema(String v) { metaSchema = v; return this; }
        public Builder enableGtid(boolean v) { return syncer(SyncerKeys.ENABLE_GTID, v); }
        public Builder heartbeatInterval(Duration v) { return syncer(SyncerKeys.HEARTBEAT_INTERVAL, v); }
        public Builder tableFilter(BiPredicate<String, String> v) { tableFilter = v; return this; }
        public Builder router(UnaryOperator<TableName> v) { router = v; return this; }
        public Builder retryBudget(Duration v) { retryBudget = v; return this; }
        public Builder retryMaxBackoff(Duration v) { retryMaxBackoff = v; return this; }
        public Builder eventFilter(EventDecider v) { eventFilter = v; return this; }
        public Builder onlineDdl(OnlineDdlConfig v) { onlineDdl = v; return this; }
        public Builder rowFilter(ExpressionFilter v) { rowFilter = v; return this; }
        public Builder safeModeUntil(BinlogPosition v) { safeModeUntil = v; return this; }
        public Builder startExact(boolean v) { startExact = v; return this; }
        public Builder shardSources(List<String> v) { shardSources = v; return this; }
        public Builder shardOptimistic(boolean v) { shardOptimistic = v; return this; }
        public Builder extraColumns(Function<TableName, ExtraColumns> v) { extraColumns = v; return this; }
        public Builder validator(ValidatorConfig v) { validator = v; return this; }

        public SyncConfig build() {
            return new SyncConfig(task, sourceId, source, target, serverId, start, syncer, metaSchema, tableFilter,
                    router, retryBudget, retryMaxBackoff, eventFilter, onlineDdl, safeModeUntil, startExact, shardSources, shardOptimistic, extraColumns, rowFilter,
                    validator);
        }
    }
}
