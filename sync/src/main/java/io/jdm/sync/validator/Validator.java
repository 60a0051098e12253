package io.jdm.sync.validator;

import com.github.shyiko.mysql.binlog.GtidSet;
import com.github.shyiko.mysql.binlog.MariadbGtidSet;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jdm.common.config.ValidatorConfig;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.CanonicalValues;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.JsonDocument;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.common.sql.ValueEncoder;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.ring.CommitListener;
import io.jdm.sync.ring.RowChange;
import io.jdm.sync.ring.TableInfo;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One source's continuous validator (see the package): told of every row change the writers
 * committed, it keeps the latest change per table and key, reads those rows back from the target
 * every {@code validate-interval} and compares them; a row that still differs after
 * {@code row-error-delay} becomes an error row. It never stops the sync: a validator that cannot go on
 * (more pending rows than {@code max-pending-row-count} or {@code -size}) stops itself, saying why in
 * its status, as DM's does.
 */
public final class Validator implements CommitListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Validator.class);
    private static final int INSERT = 0;
    private static final int UPDATE = 1;
    private static final int DELETE = 2;

    private final String task;
    private final String source;
    private final ConnectionSpec target;
    private final ValidatorConfig cfg;
    private final ValidatorStore store;
    private final Supplier<BinlogPosition> checkpoint;
    /** Where validation is to be complete (jdm validation update), as saved; null when none. */
    /** jdm validation start --start-time: changes the source logged before it are not compared. */
    private volatile long startMillis = Long.MIN_VALUE;
    private volatile String cutoverPos;
    private volatile String cutoverGtid;
    private final ConcurrentHashMap<String, Entry> pending = new ConcurrentHashMap<>();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final LongAdder[] processed = {new LongAdder(), new LongAdder(), new LongAdder()};
    private final LongAdder errorRows = new LongAdder();
    /** The validated form of each table, rebuilt when the sync's TableInfo for it changes (a DDL). */
    private final Map<TableName, Cached> tables = new ConcurrentHashMap<>();
    private volatile boolean running;
    private volatile ValidatorConfig.Mode mode = ValidatorConfig.Mode.NONE;
    /** Whether a stage was saved for this source: a validator that ever ran (DM shows none otherwise). */
    private volatile boolean known;
    /** Why it stopped on its own, or empty. */
    private volatile String stopReason = "";
    /** Error rows new, ignored, resolved, as last read from the target (at each check-interval). */
    private volatile long[] errorCounts = new long[3];
    private ScheduledExecutorService timer;
    private ExecutorService workers;

    private record Cached(TableInfo info, ValidatedTable table) {
    }

    /**
     * The latest change of one row: what the target must hold ({@code values}, null when the row must be
     * absent), and since when it differs ({@code failedSince} 0 while it has not).
     */
    private record Entry(ValidatedTable table, int kind, Object[] values, Object[] key, String keyText, long bytes,
                         long failedSince, int failType, String dstData) {
        Entry failing(long now, int type, String dst) {
            return new Entry(table, kind, values, key, keyText, bytes, now, type, dst);
        }
    }

    /**
     * @param checkpoint where the sync's checkpoint is: for the status, and to tell when a cutover is passed
     */
    public Validator(String task, String source, ConnectionSpec target, String metaSchema, ValidatorConfig cfg,
                     Supplier<BinlogPosition> checkpoint) {
        this.task = task;
        this.source = source;
        this.target = target;
        this.cfg = cfg;
        this.store = new ValidatorStore(metaSchema, task);
        this.checkpoint = checkpoint;
    }

    /** Reads the saved stage (a task file that turns validation on starts it), the pending rows, and starts the timers. */
    public void start() throws SQLException {
        try (Connection c = DataSources.connect(target)) {
            ValidatorStore.State s = store.state(c, source);
            if (s == null && cfg.enabled()) {
                store.ensure(c);
                store.setStage(c, source, cfg.mode().yamlName(), ValidatorStore.RUNNING, "");
                s = store.state(c, source);
            } else if (s != null) {
                store.ensure(c);
            }
            if (s != null) {
                known = true;
                stopReason = s.message() == null ? "" : s.message();
                errorCounts = store.errorCounts(c).getOrDefault(source, new long[3]);
                for (int i = 0; i < 3; i++) {
                    processed[i].add(s.processed()[i]); // the counts go on from the last run's, as DM's do
                }
            }
            if (s != null && ValidatorStore.RUNNING.equals(s.stage())) {
                run(modeOf(s.mode()));
                Map<String, ValidatedTable> seen = new java.util.HashMap<>();
                for (String data : store.pending(c, source)) {
                    restore(RowCodec.parse(data), seen);
                }
                if (!pending.isEmpty()) {
                    LOG.info("validator: task {} source {}: {} pending row(s) from the last run", task, source,
                            pending.size());
                }
            }
        }
        timer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(task, "validator", "timer", true));
        workers = Executors.newFixedThreadPool(cfg.workerCount(), new NamedThreadFactory(task, "validator", "worker",
                true));
        every(this::checkStage, cfg.checkInterval());
        every(this::round, cfg.validateInterval());
        every(this::flush, cfg.metaFlushInterval());
    }

    /** At most ten times a second, whatever the task file says (DM's tests flush meta every nanosecond). */
    private void every(Runnable r, java.time.Duration d) {
        long ms = Math.max(100, d.toMillis());
        timer.scheduleWithFixedDelay(r, ms, ms, TimeUnit.MILLISECONDS);
    }

    private void run(ValidatorConfig.Mode m) {
        mode = m;
        running = m != ValidatorConfig.Mode.NONE;
        LOG.info("validator: task {} source {}: {} ({} mode)", task, source, running ? "running" : "stopped",
                m.yamlName());
    }

    private static ValidatorConfig.Mode modeOf(String name) {
        for (ValidatorConfig.Mode m : ValidatorConfig.Mode.values()) {
            if (m.yamlName().equalsIgnoreCase(name)) {
                return m;
            }
        }
        return ValidatorConfig.Mode.FULL;
    }

    public boolean running() {
        return running;
    }

    /** Rows waiting to be compared or still differing. */
    public int pendingRows() {
        return pending.size();
    }

    /** Rows recorded as errors by this process. */
    public long errorRows() {
        return errorRows.sum();
    }

    /** DM's validator error gauge and jdm's validator counters, labelled as the sync's. */
    public void collect(io.jdm.common.metrics.MetricFamilies f, io.prometheus.metrics.model.snapshots.Labels l) {
        f.gauge("dm_validator_validator_error_count", "total number of validator errors", l, errorRows.sum());
        f.gauge("jdm_validator_running", "1 while continuous validation runs", l, running ? 1 : 0);
        f.gauge("jdm_validator_pending_rows", "row changes committed and not yet found on the target as written", l,
                pending.size());
        String[] types = {"insert", "update", "delete"};
        for (int i = 0; i < 3; i++) {
            f.counter("jdm_validator_processed_rows_total", "row changes the validator took", l.add("type", types[i]),
                    processed[i].sum());
        }
    }

    /**
     * DM's ValidationStatus of this source, as query-status shows it under {@code validation}; null
     * when validation never ran for the source.
     */
    public java.util.Map<String, Object> status() {
        if (!known) {
            return null;
        }
        long[] kinds = new long[3];
        for (Entry e : pending.values()) {
            kinds[e.kind()]++;
        }
        long[] errors = errorCounts;
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("task", task);
        m.put("source", source);
        m.put("mode", mode.yamlName());
        m.put("stage", running ? ValidatorStore.RUNNING : ValidatorStore.STOPPED);
        BinlogPosition p = checkpoint.get();
        m.put("validatorBinlog", p == null ? "" : p.dmText());
        m.put("validatorBinlogGtid", p == null ? "" : p.gtidSet());
        m.put("result", running || stopReason.isEmpty() ? null
                : java.util.Map.of("isCanceled", false, "errors", List.of(java.util.Map.of("message", stopReason))));
        m.put("processedRowsStatus", "insert/update/delete: " + processed[0].sum() + "/" + processed[1].sum() + "/"
                + processed[2].sum());
        m.put("pendingRowsStatus", "insert/update/delete: " + kinds[0] + "/" + kinds[1] + "/" + kinds[2]);
        m.put("errorRowsStatus", "new/ignored/resolved: " + errors[0] + "/" + errors[1] + "/" + errors[2]);
        m.put("cutoverBinlogPos", cutoverPos == null ? "" : cutoverPos);
        m.put("cutoverBinlogGtid", cutoverGtid == null ? "" : cutoverGtid);
        return m;
    }

    @Override
    public void committed(RowChange.Kind kind, TableInfo info, Object[] before, Object[] after, long eventMillis) {
        if (!running || eventMillis < startMillis) {
            return;
        }
        ValidatedTable t = table(info);
        if (t.refusal() != null) {
            return;
        }
        switch (kind) {
            case INSERT -> put(t, INSERT, t.values(after));
            case DELETE -> put(t, DELETE, t.values(before));
            case UPDATE -> {
                Object[] a = t.values(after);
                if (!java.util.Arrays.deepEquals(t.keyOf(before, true), t.keyOf(after, true))) {
                    put(t, DELETE, t.values(before)); // the row moved to another key: the old one must be gone
                }
                put(t, UPDATE, a);
            }
        }
        processed[kind == RowChange.Kind.INSERT ? INSERT : kind == RowChange.Kind.UPDATE ? UPDATE : DELETE]
                .increment();
    }

    private ValidatedTable table(TableInfo info) {
        Cached c = tables.get(info.source());
        if (c == null || c.info() != info) {
            c = new Cached(info, ValidatedTable.of(info));
            tables.put(info.source(), c);
            ValidatedTable t = c.table();
            timer.execute(() -> saveTable(t)); // not on the writer's thread
        }
        return c.table();
    }

    private void saveTable(ValidatedTable t) {
        try (Connection c = DataSources.connect(target)) {
            store.table(c, source, t);
        } catch (SQLException e) {
            LOG.debug("validator: could not save the status of {}: {}", t.source(), e.getMessage());
        }
    }

    private void put(ValidatedTable t, int kind, Object[] values) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] instanceof JsonDocument j) {
                values[i] = j.text(); // compared by value (as text parsed), not by MySQL's JSON types
            }
        }
        Object[] key = t.keyOf(values);
        for (Object k : key) {
            if (k == null) {
                return; // a unique key with a NULL finds no one row
            }
        }
        String keyText = RowCodec.key(key);
        Entry e = new Entry(t, kind, kind == DELETE ? null : values, key, keyText, bytes(values), 0, 0, null);
        Entry old = pending.put(t.source() + "\u0000" + keyText, e);
        long total = pendingBytes.addAndGet(e.bytes() - (old == null ? 0 : old.bytes()));
        if (pending.size() > cfg.maxPendingRowCount() || total > cfg.maxPendingRowSize()) {
            stopOnOwn("more pending rows than max-pending-row-count (" + cfg.maxPendingRowCount()
                    + ") or max-pending-row-size (" + cfg.maxPendingRowSize() + " bytes) allow: " + pending.size()
                    + " rows, " + total + " bytes; raise them, or lower validate-interval, and start it again with "
                    + "jdm validation start");
        }
    }

    private static long bytes(Object[] values) {
        long n = 64;
        for (Object v : values) {
            n += v instanceof String s ? 40 + 2L * s.length() : v instanceof byte[] b ? 16 + b.length : 16;
        }
        return n;
    }

    private void stopOnOwn(String why) {
        if (!running) {
            return;
        }
        running = false;
        stopReason = why;
        LOG.warn("validator: task {} source {}: stopped: {}", task, source, why);
        pending.clear();
        pendingBytes.set(0);
        new Thread(() -> {
            try (Connection c = DataSources.connect(target)) {
                store.setStage(c, source, mode.yamlName(), ValidatorStore.STOPPED, why);
                store.savePending(c, source, List.of());
            } catch (SQLException e) {
                LOG.warn("validator: could not save that it stopped: {}", e.getMessage());
            }
        }, task + "-validator-stop").start();
    }

    /** Follows {@code jdm validation start|stop}, and reads the error rows' counts for the status. */
    private void checkStage() {
        try (Connection c = DataSources.connect(target)) {
            ValidatorStore.State s = store.state(c, source);
            if (s != null) {
                known = true;
                stopReason = s.message() == null ? "" : s.message();
                errorCounts = store.errorCounts(c).getOrDefault(source, new long[3]);
                cutoverPos = s.cutoverPos();
                cutoverGtid = s.cutoverGtid();
                startMillis = s.startMillis() == null ? Long.MIN_VALUE : s.startMillis();
            }
            boolean wanted = s != null && ValidatorStore.RUNNING.equals(s.stage());
            if (wanted && !running) {
                run(modeOf(s.mode()));
            } else if (wanted && modeOf(s.mode()) != mode) {
                run(modeOf(s.mode()));
            } else if (!wanted && running) {
                running = false;
                pending.clear();
                pendingBytes.set(0);
                store.savePending(c, source, List.of());
                LOG.info("validator: task {} source {}: stopped (jdm validation stop)", task, source);
            }
            if (running && cutoverPassed()) {
                flush(); // the pending rows and counters as they are at the cutover, as DM saves them there
                store.setCutover(c, source, null, null);
                LOG.info("validator: task {} source {}: the sync passed the cutover {}; pending rows and counters "
                        + "saved at {}", task, source, cutoverGtid != null && !cutoverGtid.isEmpty() ? cutoverGtid
                        : cutoverPos, checkpoint.get());
                cutoverPos = null;
                cutoverGtid = null;
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("validator: could not read its stage: {}", e.getMessage());
        }
    }

    /** Whether the sync's checkpoint is at or past the saved cutover (a position, or a GTID set it contains). */
    private boolean cutoverPassed() {
        BinlogPosition at = checkpoint.get();
        if (at == null) {
            return false;
        }
        if (cutoverGtid != null && !cutoverGtid.isEmpty()) {
            if (!at.hasGtid()) {
                return false;
            }
            boolean mariadb = MariadbGtidSet.isMariaGtidSet(cutoverGtid);
            GtidSet want = mariadb ? new MariadbGtidSet(cutoverGtid) : new GtidSet(cutoverGtid);
            return want.isContainedWithin(mariadb ? new MariadbGtidSet(at.gtidSet()) : new GtidSet(at.gtidSet()));
        }
        if (cutoverPos != null && !cutoverPos.isEmpty()) {
            try {
                return at.compareTo(BinlogPosition.parseDmText(cutoverPos)) >= 0;
            } catch (IllegalArgumentException e) {
                return false; // written by hand into the table: jdm validation update refuses such text
            }
        }
        return false;
    }

    /** One comparison of every pending row, in batches of batch-query-size on worker-count connections. */
    void round() {
        if (!running) {
            return;
        }
        try {
            Map<ValidatedTable, List<Entry>> byTable = new IdentityHashMap<>();
            for (Entry e : pending.values()) {
                byTable.computeIfAbsent(e.table(), k -> new ArrayList<>()).add(e);
            }
            List<List<Entry>> batches = new ArrayList<>();
            for (List<Entry> rows : byTable.values()) {
                for (int i = 0; i < rows.size(); i += cfg.batchQuerySize()) {
                    batches.add(rows.subList(i, Math.min(rows.size(), i + cfg.batchQuerySize())));
                }
            }
            int n = Math.min(cfg.workerCount(), batches.size());
            List<Callable<Void>> work = new ArrayList<>();
            for (int w = 0; w < n; w++) {
                int from = w;
                work.add(() -> {
                    try (Connection c = DataSources.connect(target)) {
                        for (int b = from; b < batches.size(); b += n) {
                            try {
                                compare(c, batches.get(b));
                            } catch (SQLException e) {
                                LOG.warn("validator: task {} source {}: cannot read {} rows of {} back (tried again "
                                        + "in {}): {}", task, source, batches.get(b).size(),
                                        batches.get(b).get(0).table().target(), cfg.validateInterval(),
                                        e.getMessage());
                            }
                        }
                    }
                    return null;
                });
            }
            for (Future<Void> f : workers.invokeAll(work)) {
                f.get();
            }
            saveCounters();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("validator: task {} source {}: comparing rows failed (tried again in {}): {}", task, source,
                    cfg.validateInterval(), e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
        }
    }

    private void compare(Connection c, List<Entry> batch) throws SQLException {
        ValidatedTable t = batch.get(0).table();
        List<Column> cols = t.columns();
        StringBuilder sql = new StringBuilder("SELECT ").append(ResultSetValues.selectList(cols)).append(" FROM ")
                .append(t.target().quoted()).append(" WHERE ");
        boolean one = t.key().length == 1;
        sql.append(one ? "" : "(");
        for (int k = 0; k < t.key().length; k++) {
            sql.append(k > 0 ? ", " : "").append(Identifiers.quote(t.keyColumn(k).name()));
        }
        sql.append(one ? " IN (" : ") IN (");
        for (int r = 0; r < batch.size(); r++) {
            sql.append(r > 0 ? ", " : "").append(one ? "" : "(");
            for (int k = 0; k < t.key().length; k++) {
                sql.append(k > 0 ? ", " : "");
                ValueEncoder.append(sql, t.keyColumn(k), batch.get(r).key()[k]);
            }
            sql.append(one ? "" : ")");
        }
        sql.append(')');
        t.extra().appendConditions(sql); // the shard's rows of a merged table
        Object[][] found = new Object[batch.size()][];
        // a row read back is matched by its key's text (the same Java values), else by comparing values
        // (a key the target gives in another form), so a batch is not compared row against row
        Map<String, Integer> byKey = new java.util.HashMap<>(batch.size() * 2);
        for (int r = 0; r < batch.size(); r++) {
            byKey.putIfAbsent(batch.get(r).keyText(), r);
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) {
                Object[] row = new Object[cols.size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = ResultSetValues.read(rs, i + 1, cols.get(i));
                }
                Integer same = byKey.get(RowCodec.key(t.keyOf(row)));
                if (same != null && found[same] == null) {
                    found[same] = row;
                    continue;
                }
                for (int r = 0; r < batch.size(); r++) {
                    if (found[r] == null && sameKey(t, batch.get(r).key(), row)) {
                        found[r] = row;
                        break;
                    }
                }
            }
        }
        long now = System.currentTimeMillis();
        for (int r = 0; r < batch.size(); r++) {
            Entry e = batch.get(r);
            int failure = failure(t, e, found[r]);
            String mapKey = t.source() + "\u0000" + e.keyText();
            if (failure == 0) {
                if (pending.remove(mapKey, e)) {
                    pendingBytes.addAndGet(-e.bytes());
                }
            } else if (e.failedSince() == 0) {
                pending.replace(mapKey, e, e.failing(now, failure,
                        found[r] == null ? "[]" : RowCodec.shown(cols, found[r])));
            } else if (now - e.failedSince() >= cfg.rowErrorDelay().toMillis()) {
                store.error(c, source, t, e.keyText(),
                        e.values() == null ? RowCodec.shown(t.keyColumns(), e.key()) : RowCodec.shown(cols, e.values()),
                        found[r] == null ? "[]" : RowCodec.shown(cols, found[r]), failure);
                if (pending.remove(mapKey, e)) {
                    pendingBytes.addAndGet(-e.bytes());
                }
                errorRows.increment();
                LOG.warn("validator: task {} source {}: {} row {} on the target: {} for {} (jdm validation show-error)",
                        task, source, t.target(), RowCodec.shown(t.keyColumns(), e.key()),
                        ValidatorStore.ERROR_TYPES.get(failure),
                        cfg.rowErrorDelay());
            }
        }
    }

    private static boolean sameKey(ValidatedTable t, Object[] key, Object[] row) {
        for (int k = 0; k < key.length; k++) {
            Column col = t.keyColumn(k);
            if (!CanonicalValues.same(col, key[k], row[t.key()[k]], false)) {
                return false;
            }
        }
        return true;
    }

    /** 0 when the target holds what the change wrote, else the error type. */
    private int failure(ValidatedTable t, Entry e, Object[] row) {
        if (e.values() == null) {
            return row == null ? 0 : ValidatorStore.DELETED_ROW_EXISTS;
        }
        if (row == null) {
            return ValidatorStore.ROW_NOT_EXIST;
        }
        if (mode == ValidatorConfig.Mode.FULL) {
            for (int i = 0; i < row.length; i++) {
                Column col = t.columns().get(i);
                if (!CanonicalValues.same(col, e.values()[i], row[i], col.isJson() || "json".equals(col.dataType()))) {
                    return ValidatorStore.ROW_DIFFERENT;
                }
            }
        }
        return 0;
    }

    private void saveCounters() {
        long[] kinds = new long[3];
        for (Entry e : pending.values()) {
            kinds[e.kind()]++;
        }
        try (Connection c = DataSources.connect(target)) {
            BinlogPosition p = checkpoint.get();
            store.saveCounters(c, source, p == null ? "" : p.dmText(),
                    new long[] {processed[0].sum(), processed[1].sum(), processed[2].sum()}, kinds);
        } catch (SQLException e) {
            LOG.debug("validator: could not save its counters: {}", e.getMessage());
        }
    }

    /** Saves the pending rows, so a restart compares them still. */
    void flush() {
        if (!running) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        for (Entry e : pending.values()) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.set("table", RowCodec.table(e.table()));
            o.put("kind", e.kind());
            o.set("key", RowCodec.values(e.key()));
            if (e.values() != null) {
                o.set("values", RowCodec.values(e.values()));
            }
            o.put("failedSince", e.failedSince());
            o.put("failType", e.failType());
            o.put("dstData", e.dstData());
            rows.add(new String[] {e.table().source().schema(), e.table().source().table(), e.keyText(),
                o.toString()});
        }
        try (Connection c = DataSources.connect(target)) {
            store.savePending(c, source, rows);
        } catch (SQLException e) {
            LOG.warn("validator: task {} source {}: could not save its pending rows: {}", task, source,
                    e.getMessage());
        }
        saveCounters();
    }

    private void restore(JsonNode o, Map<String, ValidatedTable> seen) {
        ValidatedTable t = seen.computeIfAbsent(o.get("table").toString(), k -> RowCodec.table(o.get("table")));
        Object[] key = RowCodec.values(o.get("key"));
        Object[] values = o.has("values") ? RowCodec.values(o.get("values")) : null;
        String keyText = RowCodec.key(key);
        JsonNode dst = o.get("dstData");
        Entry e = new Entry(t, o.get("kind").intValue(), values, key, keyText, bytes(values == null ? key : values),
                o.get("failedSince").longValue(), o.get("failType").intValue(), dst == null || dst.isNull() ? null
                        : dst.textValue());
        pending.put(t.source() + "\u0000" + keyText, e);
        pendingBytes.addAndGet(e.bytes());
    }

    /** Stops the timers and saves the pending rows and counters. */
    @Override
    public void close() {
        if (timer == null) {
            return;
        }
        timer.shutdownNow();
        workers.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush();
    }
}
