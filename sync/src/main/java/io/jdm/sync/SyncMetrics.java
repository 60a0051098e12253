package io.jdm.sync;

import io.jdm.common.metrics.MetricSource;
import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.metrics.ProcessMetrics;
import io.jdm.common.position.BinaryLogs;
import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.ring.PipelineCounters;
import io.jdm.sync.ring.WriterProgress;
import io.jdm.sync.shard.ShardCoordinator;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The sync unit's numbers: events/s, rows/s, transactions/s, replication lag, queue depth per
 * writer, batch sizes and transaction latency percentiles; on {@code /metrics} under DM's syncer
 * names, with the remaining time to catch up and the shard DDL locks this source waits on.
 */
public final class SyncMetrics implements MetricSource {
    private final String task;
    private final String sourceId;
    private final PipelineCounters c;
    private final WriterProgress progress;
    private final LongSupplier cursor;
    private final Supplier<BinlogPosition> checkpoint;
    private final Supplier<BinlogPosition> readPosition;
    private final LongSupplier reconnects;
    private final BooleanSupplier held;
    private final Supplier<List<ShardCoordinator.Group>> shardGroups;
    private final RemainingTime remaining = new RemainingTime();
    private final io.jdm.sync.validator.Validator validator;
    /** Target tables of shard groups seen waiting, by {@code `db`.`table`}: shown until the unit ends, 0 once run. */
    private final Map<String, Integer> unsyncedTables = new ConcurrentHashMap<>();
    private final long startNanos = System.nanoTime();

    /**
     * @param reconnects how often the binlog stream was reopened
     * @param held whether {@code jdm verify --snapshot} holds the reader right now
     * @param shardGroups the group DDLs this source's shards wait on (shard modes)
     */
    SyncMetrics(String task, String sourceId, PipelineCounters counters, WriterProgress progress, LongSupplier cursor,
                Supplier<BinlogPosition> checkpoint, Supplier<BinlogPosition> readPosition, LongSupplier reconnects,
                BooleanSupplier held, Supplier<List<ShardCoordinator.Group>> shardGroups,
                io.jdm.sync.validator.Validator validator) {
        this.validator = validator;
        this.task = task;
        this.sourceId = sourceId;
        this.c = counters;
        this.progress = progress;
        this.cursor = cursor;
        this.checkpoint = checkpoint;
        this.readPosition = readPosition;
        this.reconnects = reconnects;
        this.held = held;
        this.shardGroups = shardGroups;
    }

    /**
     * The source's binary logs as just read (with its position, for {@code /status} and
     * {@code /metrics}): a sample of {@code dm_syncer_remaining_time}.
     */
    public void sourceLogs(BinaryLogs logs) {
        remaining.sample(logs, checkpoint.get(), System.nanoTime());
    }

    /** How often the reader reopened the binlog stream (lost connections, a source that gave up on it). */
    public long reconnects() {
        return reconnects.getAsLong();
    }

    public long rowsApplied() {
        return c.rows.total();
    }

    /** Rows committed per second since the unit started. */
    public double rowsPerSecond() {
        return c.rows.overallRate();
    }

    /** Rows committed per second lately (since the previous sample). */
    public double recentRowsPerSecond() {
        return c.rows.sampleRate();
    }

    public long eventsRead() {
        return c.events.total();
    }

    /** Bytes of binlog events received from the source since the process started. */
    public long binlogBytes() {
        return c.binlogBytes.sum();
    }

    public long transactions() {
        return c.txns.total();
    }

    public long drains() {
        return c.drains.sum();
    }

    public long skipped() {
        return c.skipped.sum();
    }

    /** Writer retries for one reason: the target's error code ({@code "9007"}), {@code io} or {@code other}. */
    public long retries(String reason) {
        return c.retries.count(reason);
    }

    public long retries() {
        return c.retries.total();
    }

    /** Writer retries by reason, for messages. */
    public java.util.Map<String, Long> retriesByCode() {
        return c.retries.byReason();
    }

    /** Source event time to now for the oldest change not yet committed; 0 when caught up. */
    public double lagSeconds() {
        long cur = cursor.getAsLong();
        if (progress.minSequence() >= cur) {
            return 0;
        }
        long committed = c.lastCommittedEventMillis.get();
        long ref = committed > 0 ? committed : c.lastReadEventMillis.get();
        return ref <= 0 ? 0 : Math.max(0, (System.currentTimeMillis() - ref) / 1000.0);
    }

    /** Slots each writer has not yet passed: its share of the ring's backlog. */
    public List<Long> queueDepths() {
        long cur = cursor.getAsLong();
        return IntStream.range(0, progress.writers()).mapToObj(w -> Math.max(0, cur - progress.sequence(w))).toList();
    }

    @Override
    public String progressLine() {
        return String.format("events %d (%.0f/s) rows %d (%.0f/s) txn %d (%.0f/s) lag %.1fs queue max %d "
                        + "batch p50 %.0f txn %s checkpoint %s", c.events.total(), c.events.sampleRate(),
                c.rows.total(), c.rows.sampleRate(), c.txns.total(), c.txns.sampleRate(), lagSeconds(),
                queueDepths().stream().mapToLong(Long::longValue).max().orElse(0),
                c.batchSize.percentileMillis(50) * 1_000_000, c.txnLatency.summary(), checkpoint.get());
    }

    @Override
    public String summaryLine() {
        double secs = (System.nanoTime() - startNanos) / 1e9;
        return String.format("sync %s: %d events, %d rows, %d transactions in %.1fs (%.0f rows/s), %d drains, "
                        + "%d skipped as already applied, %d retries, txn %s, checkpoint %s", task, c.events.total(),
                c.rows.total(), c.txns.total(), secs, secs > 0 ? c.rows.total() / secs : 0, c.drains.sum(),
                c.skipped.sum(), c.retries.total(), c.txnLatency.summary(), checkpoint.get());
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("unit", "sync");
        m.put("events", c.events.total());
        m.put("binlogBytes", c.binlogBytes.sum());
        m.put("rows", c.rows.total());
        m.put("transactions", c.txns.total());
        m.put("eventsPerSecond", c.events.sampleRate());
        m.put("rowsPerSecond", c.rows.sampleRate());
        m.put("transactionsPerSecond", c.txns.sampleRate());
        m.put("lagSeconds", lagSeconds());
        m.put("queueDepths", queueDepths());
        m.put("drains", c.drains.sum());
        m.put("retries", c.retries.total());
        m.put("readerReconnects", reconnects());
        m.put("heldForVerify", held.getAsBoolean());
        m.put("txnP95Millis", c.txnLatency.percentileMillis(95));
        m.put("txnP99Millis", c.txnLatency.percentileMillis(99));
        m.put("checkpoint", String.valueOf(checkpoint.get()));
        m.put("readPosition", String.valueOf(readPosition.get()));
        return m;
    }

    @Override
    public void collect(MetricFamilies f) {
        Labels l = ProcessMetrics.unitLabels(task, sourceId);
        Labels w = l.add("worker", ProcessMetrics.worker());
        f.counter("jdm_sync_events_total", "binlog row events read", l, c.events.total());
        f.counter("jdm_sync_rows_total", "row changes committed to the target", l, c.rows.total());
        f.counter("jdm_sync_drains_total", "causality drains", l, c.drains.sum());
        c.retries.byReason().forEach((code, n) -> f.counter("jdm_sync_retries_total",
                "writer retries by the target's error code", l.add("code", code), n));
        f.counter("jdm_sync_reader_reconnects_total", "binlog stream reopened", l, reconnects());
        validator.collect(f, l);
        f.gauge("jdm_sync_held_for_verify", "1 while verify --snapshot holds the reader", l, held.getAsBoolean() ? 1 : 0);
        f.counter("dm_syncer_finished_jobs_total", "total number of finished jobs", w.add("type", "dml"),
                c.rows.total());
        f.counter("dm_syncer_finished_jobs_total", "total number of finished jobs", w.add("type", "ddl"), c.ddl.sum());
        f.counter("dm_syncer_finished_transaction_total", "total number of finished transaction", w, c.txns.total());
        f.gauge("jdm_sync_lag_seconds", "source event time to now for the oldest uncommitted change", l, lagSeconds());
        f.gauge("dm_syncer_replication_lag_gauge", "replication lag gauge in second between mysql and syncer", w,
                lagSeconds());
        f.histogram("dm_syncer_replication_lag", "replication lag histogram in second between mysql and syncer", w,
                c.replicationLag);
        f.counter("jdm_sync_binlog_bytes_total", "bytes of binlog events received from the source", l,
                c.binlogBytes.sum());
        f.histogram("dm_syncer_binlog_event_size", "size of a binlog event", w, c.binlogEventSize);
        f.histogram("dm_syncer_txn_duration_time", "Bucketed histogram of processing time (s) of a txn.", w,
                c.txnLatency);
        f.histogram("dm_syncer_replication_transaction_batch",
                "number of sql's contained in a transaction that executed to downstream", w.add("type", "rows"),
                c.transactionRows);
        f.histogram("dm_syncer_flush_checkpoints_time_interval", "checkpoint flushed time interval in seconds", w,
                c.checkpointFlushIntervals);
        f.gauge("dm_syncer_remaining_time", "the remaining time in second to catch up master", w, remaining.seconds());
        List<Long> depths = queueDepths();
        for (int i = 0; i < depths.size(); i++) {
            f.gauge("dm_syncer_queue_size", "remain size of the DML queue", l.add("queue_id", "q_" + i),
                    depths.get(i));
        }
        binlogPosition(f, "syncer", l, checkpoint.get());
        shardLocks(f, l);
    }

    /**
     * DM's {@code dm_syncer_shard_lock_resolving} (1 while a shard of this source waits for a group
     * DDL to run on the target; the reader goes on meanwhile, see {@link ShardCoordinator}) and
     * {@code dm_syncer_unsynced_table_number} per target table: this source's shards that have not
     * reached the DDL its group waits on.
     */
    private void shardLocks(MetricFamilies f, Labels l) {
        List<ShardCoordinator.Group> groups = shardGroups.get();
        f.gauge("dm_syncer_shard_lock_resolving", "waiting shard DDL lock to be resolved", l, groups.isEmpty() ? 0 : 1);
        Map<String, Integer> now = new HashMap<>();
        groups.stream().sorted(Comparator.comparingInt(ShardCoordinator.Group::seq))
                .forEach(g -> now.putIfAbsent(g.target().quoted(), g.unsyncedHere()));
        unsyncedTables.replaceAll((t, n) -> now.getOrDefault(t, 0));
        unsyncedTables.putAll(now);
        unsyncedTables.forEach((t, n) -> f.gauge("dm_syncer_unsynced_table_number",
                "number of unsynced tables in the subtask", l.add("table", t), n));
    }

    /**
     * DM's {@code dm_syncer_binlog_file} (the file's index) and {@code dm_syncer_binlog_pos} for
     * {@code node} {@code master} (the source's position) or {@code syncer} (the checkpoint).
     */
    public static void binlogPosition(MetricFamilies f, String node, Labels unit, BinlogPosition p) {
        if (p == null) {
            return;
        }
        Labels l = unit.add("node", node);
        f.gauge("dm_syncer_binlog_file", "current binlog file index", l, p.fileIndex());
        f.gauge("dm_syncer_binlog_pos", "current binlog pos", l, p.pos());
    }
}
