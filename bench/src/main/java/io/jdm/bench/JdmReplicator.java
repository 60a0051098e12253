package io.jdm.bench;

import io.jdm.common.meta.MetaTable;

import io.jdm.bench.result.Sample;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.config.SyncerKeys;
import io.jdm.common.config.ValidatorConfig;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.sync.SyncConfig;
import io.jdm.sync.SyncUnit;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * jdm's SyncUnit from a position, under a task name of its own and, when given, a meta schema of
 * its own that is dropped before and after, so no earlier checkpoint applies. Every syncer setting
 * the sweep does not vary is the task file's default, mapped as a task file's is, so the figures
 * are those of a task a user writes.
 */
final class JdmReplicator implements Replicator {
    private final ConnectionSpec source;
    private final ConnectionSpec target;
    private final String db;
    private final String task;
    private final int workers;
    private final int batch;
    private final String metaSchema;
    private SyncUnit unit;
    private ValidatorConfig.Mode validation = ValidatorConfig.Mode.NONE;

    /** Samples the sync with continuous validation in this mode. */
    JdmReplicator validation(ValidatorConfig.Mode mode) {
        this.validation = mode;
        return this;
    }

    JdmReplicator(ConnectionSpec source, ConnectionSpec target, String db, String task, int workers, int batch) {
        this(source, target, db, task, workers, batch, null);
    }

    /** {@code metaSchema} null keeps the default meta schema and drops only this task's checkpoint table. */
    JdmReplicator(ConnectionSpec source, ConnectionSpec target, String db, String task, int workers, int batch,
                  String metaSchema) {
        this.metaSchema = metaSchema;
        this.source = source;
        this.target = target;
        this.db = db;
        this.task = task;
        this.workers = workers;
        this.batch = batch;
    }

    @Override
    public void start(BinlogPosition from) throws Exception {
        dropCheckpoint();
        unit = new SyncUnit(config(from));
        unit.start();
    }

    /** The task file's syncer defaults with the swept worker-count and batch. */
    SyncConfig config(BinlogPosition from) {
        return SyncConfig.builder(task, source, target)
                .syncer(SyncerConfig.defaults().with(SyncerKeys.WORKER_COUNT, workers).with(SyncerKeys.BATCH, batch))
                .start(from).metaSchema(metaSchema).tableFilter((d, t) -> d.equals(db))
                .validator(ValidatorConfig.defaults().withMode(validation)).build();
    }

    @Override
    public boolean caughtUp(BinlogPosition end, long waitMillis) throws Exception {
        if (unit.failure().isPresent()) {
            throw unit.failure().get();
        }
        return unit.awaitCaughtUp(end, Duration.ofMillis(waitMillis));
    }

    @Override
    public Map<String, Double> extra(double seconds) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(Sample.EVENTS_PER_S, unit.metrics().eventsRead() / seconds);
        Object p95 = unit.metrics().status().get("txnP95Millis");
        Object p99 = unit.metrics().status().get("txnP99Millis");
        if (p95 instanceof Number n) {
            m.put(Sample.TXN_P95_MS, n.doubleValue());
        }
        if (p99 instanceof Number n) {
            m.put(Sample.TXN_P99_MS, n.doubleValue());
        }
        return m;
    }

    @Override
    public void close() throws Exception {
        if (unit != null) {
            unit.stop();
            unit.awaitTermination();
            unit = null;
        }
        dropCheckpoint();
    }

    private void dropCheckpoint() throws Exception {
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
            st.execute(metaSchema != null ? "DROP DATABASE IF EXISTS " + Identifiers.quote(metaSchema)
                    : "DROP TABLE IF EXISTS " + MetaTable.SYNCER_CHECKPOINT.of(TaskConfig.DEFAULT_META_SCHEMA, task)
                    .quoted());
        }
    }
}
