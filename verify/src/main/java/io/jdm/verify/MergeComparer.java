package io.jdm.verify;

import io.jdm.common.sql.CanonicalValues;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.TableName;
import io.jdm.verify.ChecksumSql.Side;
import io.jdm.verify.VerifyReport.ColumnDiff;
import io.jdm.verify.VerifyReport.DiffKind;
import io.jdm.verify.VerifyReport.RowDiff;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares a target table with the union of the shards merged into it ({@link MergedTable}).
 *
 * <p>The key space is cut into ranges (from the shards' overall MIN/MAX for a single integer key,
 * else from the largest shard's keys); one range selects the same key values on every shard and on
 * the target, whatever shard a key came from. Per range, the shards' checksums (row count and sum
 * of row CRCs, both additive) are summed and compared with the target's; a range whose sums differ
 * is merged row by row: every shard streams its rows in key order, the smallest shard row is
 * compared with the target's next row, so one row per shard and one of the target are held. A key
 * that two shards' streams hold at once is a collision. When the target has no unique key within
 * the shards' key, it could hold both rows of a collision with equal sums, so every range is then
 * merged row by row. A table without a key is compared as a multiset, like a plain table.
 *
 * <p>Ranges are compared one after the other, each shard on a connection of its own (a shard's
 * rows stream while the others are read).
 */
final class MergeComparer {
    private static final Logger LOG = LoggerFactory.getLogger(MergeComparer.class);

    private final VerifyConfig config;
    private final VerifyMetrics metrics;
    private final FixSql fix;

    MergeComparer(VerifyConfig config, VerifyMetrics metrics, FixSql fix) {
        this.config = config;
        this.metrics = metrics;
        this.fix = fix;
    }

    /** The tally a merged table's result is collected in; {@code source} is its first shard. */
    TableTally tally(MergedTable m) {
        return new TableTally(new TablePair(m.shards().get(0).table(), m.target()), config.maxReportedRowsPerTable(),
                m.shards().stream().map(MergedTable.Shard::label).toList());
    }

    /** Compares one merged table into {@code tally}; an unreachable server is thrown, a table's own failure is tallied. */
    void compare(MergedTable m, TableTally tally) throws InterruptedException {
        if (config.snapshot().enabled()) {
            tally.fail("a table merged from several shards cannot be compared at a snapshot (one snapshot and "
                    + "held position per source); compare it without --snapshot while the sync is stopped or "
                    + "caught up and the sources are not written");
            return;
        }
        int n = m.shards().size();
        Connection[] shards = new Connection[n];
        Connection target = null;
        try {
            target = open(config.target(), "target " + config.target().address());
            for (int i = 0; i < n; i++) {
                MergedTable.Shard s = m.shards().get(i);
                shards[i] = open(s.spec(), "source " + s.spec().address() + " of shard " + s.label());
            }
            TablePlan[] plans = new TablePlan[n];
            for (int i = 0; i < n; i++) {
                MergedTable.Shard s = m.shards().get(i);
                // a merge compares JSON by text (JsonTyping)
                plans[i] = TablePlan.prepare(shards[i], target, new TablePair(s.table(), m.target()), s.where(),
                        JsonTyping.TEXT);
            }
            String mismatch = mismatch(m, plans);
            if (mismatch != null) {
                tally.fail(mismatch);
                return;
            }
            boolean sumsSuffice = !plans[0].hasKey() || targetUniqueWithinKey(target, plans[0]);
            List<Object[]> bounds = bounds(m, shards, plans);
            tally.planned(bounds.size() + 1);
            metrics.planned(bounds.size() + 1);
            Object[] lower = null;
            for (int c = 0; c <= bounds.size(); c++) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("verify: interrupted");
                }
                Object[] upper = c < bounds.size() ? bounds.get(c) : null;
                compareRange(m, shards, target, plans, c, lower, upper, sumsSuffice, tally);
                lower = upper;
            }
        } catch (TablePlan.PlanException e) {
            tally.fail(e.getMessage());
        } catch (SQLException e) {
            tally.fail(m.target() + ": " + ErrorClassifier.oneLine(e));
        } finally {
            closeQuietly(target);
            for (Connection c : shards) {
                closeQuietly(c);
            }
        }
    }

    private void compareRange(MergedTable m, Connection[] shards, Connection target, TablePlan[] plans, int index,
                              Object[] lower, Object[] upper, boolean sumsSuffice, TableTally tally)
            throws SQLException {
        int n = shards.length;
        KeyRangeChunk[] chunks = new KeyRangeChunk[n];
        long sourceRows = 0;
        long filtered = 0;
        BigDecimal sourceSum = null;
        for (int i = 0; i < n; i++) {
            chunks[i] = new KeyRangeChunk(plans[i], index, lower, upper);
            ChunkComparer.Sums s = sums(shards[i], Side.SOURCE, chunks[i]);
            sourceRows += s.rows();
            filtered += s.filtered();
            sourceSum = s.sum() == null ? sourceSum : sourceSum == null ? s.sum() : sourceSum.add(s.sum());
        }
        KeyRangeChunk targetChunk = new KeyRangeChunk(plans[0], index, lower, upper);
        ChunkComparer.Sums t = sums(target, Side.TARGET, targetChunk);
        boolean same = new ChunkComparer.Sums(sourceRows, sourceSum).sameAs(t);
        long diffs = 0;
        if (!same || !sumsSuffice) {
            diffs = merge(m, shards, target, plans, chunks, targetChunk, tally);
        }
        tally.chunkDone(sourceRows, t.rows(), filtered, !same);
        metrics.chunkDone(sourceRows, !same, diffs);
    }

    /** The k-way merge of one range's shard rows against its target rows; returns the differing rows. */
    private long merge(MergedTable m, Connection[] shards, Connection target, TablePlan[] plans,
                       KeyRangeChunk[] chunks, KeyRangeChunk targetChunk, TableTally tally) throws SQLException {
        int n = shards.length;
        TablePlan p = plans[0];
        RowMerger rows = new RowMerger(p);
        FixSql.TableFix f = fix == null ? null : fix.table(p, "the union of " + String.join(", ", labels(m)));
        PreparedStatement[] statements = new PreparedStatement[n + 1];
        ResultSet[] results = new ResultSet[n + 1];
        long diffs = 0;
        try {
            for (int i = 0; i < n; i++) {
                List<Object> params = new ArrayList<>();
                String sql = ChecksumSql.rows(plans[i], Side.SOURCE, chunks[i], params);
                statements[i] = streaming(shards[i], sql, params);
                results[i] = statements[i].executeQuery();
            }
            List<Object> tp = new ArrayList<>();
            statements[n] = streaming(target, ChecksumSql.rows(p, Side.TARGET, targetChunk, tp), tp);
            results[n] = statements[n].executeQuery();
            ResultSet tr = results[n];

            Object[][] head = new Object[n][];
            for (int i = 0; i < n; i++) {
                head[i] = RowMerger.next(results[i], plans[i].sourceColumns);
            }
            Object[] t = RowMerger.next(tr, p.targetColumns);
            while (true) {
                int min = -1;
                for (int i = 0; i < n; i++) {
                    if (head[i] != null && (min < 0 || compareOrder(p, head[i], head[min]) < 0)) {
                        min = i;
                    }
                }
                if (min < 0 && t == null) {
                    return diffs;
                }
                int c = min < 0 ? 1 : t == null ? -1 : compareOrder(p, head[min], t);
                if (c > 0) {
                    extra(p, t, tally, f);
                    diffs++;
                    t = RowMerger.next(tr, p.targetColumns);
                    continue;
                }
                List<Integer> holders = new ArrayList<>();
                holders.add(min);
                if (p.hasKey()) {
                    for (int i = min + 1; i < n; i++) {
                        if (head[i] != null && compareOrder(p, head[i], head[min]) == 0) {
                            holders.add(i);
                        }
                    }
                }
                if (holders.size() > 1) {
                    collision(m, p, head[min], holders, tally, f);
                    diffs++;
                    while (t != null && compareOrder(p, head[min], t) == 0) {
                        t = RowMerger.next(tr, p.targetColumns);
                    }
                    for (int i : holders) {
                        head[i] = RowMerger.next(results[i], plans[i].sourceColumns);
                    }
                    continue;
                }
                String from = "from shard " + m.shards().get(min).label();
                if (c < 0) {
                    tally.diff(new RowDiff(DiffKind.MISSING, DiffRecorder.key(p, p.sourceColumns, head[min]),
                            List.of(), from));
                    if (f != null) {
                        f.put(head[min]);
                    }
                    diffs++;
                } else {
                    List<Integer> changed = rows.changedColumns(head[min], t);
                    if (!changed.isEmpty()) {
                        List<ColumnDiff> cols = new ArrayList<>();
                        for (int i : changed) {
                            cols.add(new ColumnDiff(p.sourceColumns.get(i).name(),
                                    Values.show(p.sourceColumns.get(i), head[min][i]),
                                    Values.show(p.targetColumns.get(i), t[i])));
                        }
                        tally.diff(new RowDiff(DiffKind.CHANGED, DiffRecorder.key(p, p.sourceColumns, head[min]), cols,
                                from));
                        if (f != null) {
                            f.put(head[min]);
                        }
                        diffs++;
                    }
                    t = RowMerger.next(tr, p.targetColumns);
                }
                head[min] = RowMerger.next(results[min], plans[min].sourceColumns);
            }
        } finally {
            for (int i = 0; i <= n; i++) {
                closeQuietly(results[i]);
                closeQuietly(statements[i]);
            }
        }
    }

    private static void extra(TablePlan p, Object[] t, TableTally tally, FixSql.TableFix f) {
        tally.diff(new RowDiff(DiffKind.EXTRA, DiffRecorder.key(p, p.targetColumns, t), List.of(), "in no shard"));
        if (f != null) {
            f.delete(t);
        }
    }

    private static void collision(MergedTable m, TablePlan p, Object[] row, List<Integer> holders, TableTally tally,
                                  FixSql.TableFix f) {
        List<String> names = new ArrayList<>();
        for (int i : holders) {
            names.add(m.shards().get(i).label());
        }
        String key = DiffRecorder.key(p, p.sourceColumns, row);
        String detail = "key held by shards " + String.join(" and ", names);
        tally.diff(new RowDiff(DiffKind.COLLISION, key, List.of(), detail));
        if (f != null) {
            f.comment("not repaired: " + key + " is held by shards " + String.join(" and ", names) + "; make the key "
                    + "unique across the shards (or part of a composite key with a shard column) and migrate again");
        }
    }

    /** Shards must have the same compared columns, in the same order, and the same key to be merged. */
    private static String mismatch(MergedTable m, TablePlan[] plans) {
        List<String> first = names(plans[0].sourceColumns);
        for (int i = 1; i < plans.length; i++) {
            List<String> other = names(plans[i].sourceColumns);
            if (!other.equals(first) || !Arrays.equals(plans[i].key, plans[0].key)) {
                return "shard " + m.shards().get(i).label() + " has columns " + other + " and key " + keyNames(plans[i])
                        + " but shard " + m.shards().get(0).label() + " has " + first + " and key "
                        + keyNames(plans[0]) + "; shards merged into " + m.target() + " must have the same columns "
                        + "and key to be compared";
            }
        }
        return null;
    }

    private static List<String> names(List<Column> columns) {
        return columns.stream().map(c -> c.name().toLowerCase(Locale.ROOT)).toList();
    }

    private static List<String> keyNames(TablePlan p) {
        List<String> out = new ArrayList<>();
        for (int k : p.key) {
            out.add(p.sourceColumns.get(k).name());
        }
        return out;
    }

    /** The target cannot hold two rows with one shard key when one of its own unique keys lies within it. */
    private static boolean targetUniqueWithinKey(Connection target, TablePlan p) throws SQLException {
        TableSchema t = SchemaReader.read(target, p.pair.target());
        List<String> key = keyNames(p).stream().map(k -> k.toLowerCase(Locale.ROOT)).toList();
        List<List<String>> unique = new ArrayList<>(t.uniqueKeys());
        if (!t.primaryKey().isEmpty()) {
            unique.add(t.primaryKey());
        }
        for (List<String> u : unique) {
            if (!u.isEmpty() && key.containsAll(u.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Interior range boundaries: a single integer key is split between the shards' overall MIN and
     * MAX by their summed row estimates; another key by every k-th key of the largest shard, k being
     * the chunk size over the number of shards, so a range holds about a chunk of all shards' rows.
     */
    private List<Object[]> bounds(MergedTable m, Connection[] shards, TablePlan[] plans)
            throws SQLException, InterruptedException {
        if (!plans[0].hasKey()) {
            return List.of();
        }
        int n = shards.length;
        if (plans[0].integerKey().isPresent()) {
            BigInteger min = null;
            BigInteger max = null;
            long estimate = 0;
            for (int i = 0; i < n; i++) {
                TableName t = m.shards().get(i).table();
                String k = Identifiers.quote(plans[i].integerKey().orElseThrow().name());
                try (Statement st = shards[i].createStatement();
                     ResultSet rs = st.executeQuery("SELECT MIN(" + k + "), MAX(" + k + ") FROM " + t.quoted())) {
                    rs.next();
                    if (rs.getString(1) != null) {
                        BigInteger lo = new BigInteger(rs.getString(1));
                        BigInteger hi = new BigInteger(rs.getString(2));
                        min = min == null || lo.compareTo(min) < 0 ? lo : min;
                        max = max == null || hi.compareTo(max) > 0 ? hi : max;
                    }
                }
                estimate += KeyRangeChunkPlanner.estimateRows(shards[i], t);
            }
            return min == null ? List.of() : KeyRangeChunkPlanner.splitInteger(min, max, estimate, config.chunkRows());
        }
        int largest = 0;
        long most = -1;
        for (int i = 0; i < n; i++) {
            long e = KeyRangeChunkPlanner.estimateRows(shards[i], m.shards().get(i).table());
            if (e > most) {
                most = e;
                largest = i;
            }
        }
        List<Object[]> out = new ArrayList<>();
        KeyRangeChunkPlanner.plan(shards[largest], plans[largest], Math.max(1, config.chunkRows() / n), c -> {
            if (c.upper != null) {
                out.add(c.upper);
            }
        });
        return out;
    }

    private static int compareOrder(TablePlan p, Object[] a, Object[] b) {
        for (int i : p.orderColumns()) {
            int c = CanonicalValues.compare(p.sourceColumns.get(i), a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * One side's sums of a range: a shard's rows the task copies, or every row of the target (a
     * merge's shards have no extra columns, {@link VerifyConfig#merging}).
     */
    private static ChunkComparer.Sums sums(Connection c, Side side, KeyRangeChunk chunk) throws SQLException {
        List<Object> params = new ArrayList<>();
        return ChunkComparer.sums(c, ChecksumSql.checksum(chunk.plan, side, chunk, params), params);
    }

    private static PreparedStatement streaming(Connection c, String sql, List<Object> params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        ps.setFetchSize(Integer.MIN_VALUE);
        ChecksumSql.bind(ps, params);
        return ps;
    }

    private static List<String> labels(MergedTable m) {
        return m.shards().stream().map(MergedTable.Shard::label).toList();
    }

    private static Connection open(ConnectionSpec spec, String what) {
        try {
            return Workers.open(spec);
        } catch (SQLException e) {
            throw new FatalException("verify: cannot connect to the " + what + ": " + ErrorClassifier.oneLine(e)
                    + "; check the address, user and password", e);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("closing a verify resource: {}", e.getMessage());
            }
        }
    }
}
