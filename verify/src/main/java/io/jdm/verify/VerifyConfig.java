package io.jdm.verify;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What to compare and how.
 *
 * @param task names threads and metrics ({@code <task>-verify-...})
 * @param tables source table to target table, routes already applied; source tables that routes
 *     merge into one target table are compared as that table's shards (see {@link MergedTable}),
 *     unless their routes add extra columns: then each is compared with its own rows of the target
 * @param threads connections per side, each comparing one chunk at a time
 * @param chunkRows about how many rows one chunk covers
 * @param fixSqlDir where the REPLACE/DELETE statements that would repair the target are written,
 *     one file per table; null for none. Nothing is executed.
 * @param maxReportedRowsPerTable how many differing rows the report lists per table (all are counted)
 * @param merges target tables merged from shards that may live on other sources than {@code source};
 *     a target table named here must not also be a target of {@code tables}
 * @param tableWhere a source table's condition for the rows the task copies, null for all (the rows
 *     DM's expression-filter would not insert are not copied): only those are compared, the others
 *     counted as filtered. The dump's {@code tableWhere}; a merge's shards carry their own.
 */
public record VerifyConfig(String task, ConnectionSpec source, ConnectionSpec target, List<TablePair> tables,
                           int threads, long chunkRows, Path fixSqlDir, int maxReportedRowsPerTable,
                           SnapshotOptions snapshot, List<MergedTable> merges,
                           Function<TableSchema, String> tableWhere) {
    public VerifyConfig {
        task = task == null || task.isBlank() ? "verify" : task;
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        tables = List.copyOf(tables);
        merges = merges == null ? List.of() : List.copyOf(merges);
        tableWhere = tableWhere == null ? ALL_ROWS : tableWhere;
        snapshot = snapshot == null ? SnapshotOptions.NONE : snapshot;
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("verify.threads: must be 1..256, got " + threads);
        }
        if (chunkRows < 1) {
            throw new IllegalArgumentException("verify.chunk-rows: must be >= 1, got " + chunkRows);
        }
        if (maxReportedRowsPerTable < 0) {
            throw new IllegalArgumentException("verify.max-reported-rows: must be >= 0, got "
                    + maxReportedRowsPerTable);
        }
        rejectTwice(tables, merges);
    }

    /** Every row of a source table is copied. */
    public static final Function<TableSchema, String> ALL_ROWS = t -> null;

    public VerifyConfig(String task, ConnectionSpec source, ConnectionSpec target, List<TablePair> tables,
                        int threads, long chunkRows, Path fixSqlDir, int maxReportedRowsPerTable,
                        SnapshotOptions snapshot) {
        this(task, source, target, tables, threads, chunkRows, fixSqlDir, maxReportedRowsPerTable, snapshot,
                List.of(), ALL_ROWS);
    }

    /** Defaults: 4 threads, 10,000-row chunks, no fix SQL, 20 listed rows per table, no snapshot. */
    public static VerifyConfig of(ConnectionSpec source, ConnectionSpec target, List<TablePair> tables) {
        return new VerifyConfig("verify", source, target, tables, 4, 10_000, null, 20, SnapshotOptions.NONE);
    }

    public VerifyConfig withThreads(int n) {
        return new VerifyConfig(task, source, target, tables, n, chunkRows, fixSqlDir, maxReportedRowsPerTable,
                snapshot, merges, tableWhere);
    }

    public VerifyConfig withChunkRows(long n) {
        return new VerifyConfig(task, source, target, tables, threads, n, fixSqlDir, maxReportedRowsPerTable,
                snapshot, merges, tableWhere);
    }

    public VerifyConfig withFixSqlDir(Path dir) {
        return new VerifyConfig(task, source, target, tables, threads, chunkRows, dir, maxReportedRowsPerTable,
                snapshot, merges, tableWhere);
    }

    public VerifyConfig withSnapshot(SnapshotOptions s) {
        return new VerifyConfig(task, source, target, tables, threads, chunkRows, fixSqlDir,
                maxReportedRowsPerTable, s, merges, tableWhere);
    }

    /** The same comparison of other tables. */
    public VerifyConfig withTables(List<TablePair> t, List<MergedTable> m) {
        return new VerifyConfig(task, source, target, t, threads, chunkRows, fixSqlDir, maxReportedRowsPerTable,
                snapshot, m, tableWhere);
    }

    /** The same comparison of only the source rows {@code f} selects in each table ({@link #tableWhere}). */
    public VerifyConfig withTableWhere(Function<TableSchema, String> f) {
        return new VerifyConfig(task, source, target, tables, threads, chunkRows, fixSqlDir, maxReportedRowsPerTable,
                snapshot, merges, f);
    }

    /**
     * The target tables {@code tables} and {@code merges} fill, each with its shards: a target table
     * that one pair of {@code tables} fills alone is not listed.
     */
    List<MergedTable> mergedTargets() {
        Map<TableName, List<MergedTable.Shard>> byTarget = new LinkedHashMap<>();
        for (TablePair p : merging(tables)) {
            byTarget.computeIfAbsent(p.target(), t -> new ArrayList<>()).add(new MergedTable.Shard(null, source,
                    p.source(), tableWhere));
        }
        List<MergedTable> out = new ArrayList<>();
        byTarget.forEach((t, shards) -> {
            if (shards.size() > 1) {
                out.add(new MergedTable(t, shards));
            }
        });
        out.addAll(merges);
        return out;
    }

    /**
     * The pairs compared on their own: those whose target table no other pair fills, and those
     * {@linkplain TablePair#filtered() filtered} by their extra columns, each against its own rows.
     */
    List<TablePair> singleTables() {
        Map<TableName, Integer> n = new LinkedHashMap<>();
        merging(tables).forEach(p -> n.merge(p.target(), 1, Integer::sum));
        return tables.stream().filter(p -> p.filtered() || n.get(p.target()) == 1).toList();
    }

    /**
     * The pairs that count as shards where several fill one target table: all but the
     * {@linkplain TablePair#filtered() filtered} ones, whose rows extra columns tell apart.
     */
    public static List<TablePair> merging(List<TablePair> pairs) {
        return pairs.stream().filter(p -> !p.filtered()).toList();
    }

    /**
     * The source's base tables that {@code filter} selects, each paired with {@code router}'s target
     * name for it. System schemas are never listed; a selected table jdm does not copy ({@link
     * SchemaReader.Listing}) stops the verify with one line.
     */
    public static List<TablePair> listPairs(ConnectionSpec source, BiPredicate<String, String> filter,
                                            UnaryOperator<TableName> router) {
        return listPairs(source, filter, router, t -> ExtraColumns.NONE);
    }

    /** As above, each pair with the columns {@code extra} says its route adds in the target. */
    public static List<TablePair> listPairs(ConnectionSpec source, BiPredicate<String, String> filter,
                                            UnaryOperator<TableName> router, Function<TableName, ExtraColumns> extra) {
        try (Connection c = DataSources.connect(source)) {
            List<TablePair> out = new ArrayList<>();
            SchemaReader.Listing listed = SchemaReader.list(c, filter);
            String uncopied = listed.uncopiedLine(5);
            if (uncopied != null) { // the dump refuses them: a verify that left them out would say too much
                throw new FatalException("verify: " + uncopied);
            }
            for (TableName t : listed.tables()) {
                out.add(new TablePair(t, Objects.requireNonNull(router.apply(t), "route of " + t), extra.apply(t)));
            }
            return out;
        } catch (SQLException e) {
            throw new FatalException("verify: cannot list the source tables on " + source.address() + ": "
                    + ErrorClassifier.oneLine(e) + "; check the source address and its privileges", e);
        }
    }

    private static void rejectTwice(List<TablePair> tables, List<MergedTable> merges) {
        Map<TableName, String> seen = new LinkedHashMap<>();
        for (TablePair p : tables) {
            seen.put(p.target(), p.source().toString());
        }
        for (MergedTable m : merges) {
            String before = seen.putIfAbsent(m.target(), m.shards().get(0).label());
            if (before != null) {
                throw new IllegalArgumentException("verify: target table " + m.target() + " is listed twice, from "
                        + before + " and as a merge of " + m.shards().size() + " shards; list each target table once");
            }
        }
    }
}
