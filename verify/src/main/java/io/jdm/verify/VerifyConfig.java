package io.jdm.verify;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.schema.SchemaReader;
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
import java.util.function.UnaryOperator;

/**
 * What to compare and how.
 *
 * @param task names threads and metrics ({@code <task>-verify-...})
 * @param tables source table to target table, routes already applied; each target table must
 *     receive exactly one source table (shard merges are rejected: their rows cannot be chunked
 *     by one source key range)
 * @param threads connections per side, each comparing one chunk at a time
 * @param chunkRows about how many rows one chunk covers
 * @param fixSqlDir where the REPLACE/DELETE statements that would repair the target are written,
 *     one file per table; null for none. Nothing is executed.
 * @param maxReportedRowsPerTable how many differing rows the report lists per table (all are counted)
 */
public record VerifyConfig(String task, ConnectionSpec source, ConnectionSpec target, List<TablePair> tables,
                           int threads, long chunkRows, Path fixSqlDir, int maxReportedRowsPerTable,
                           SnapshotOptions snapshot) {
    public VerifyConfig {
        task = task == null || task.isBlank() ? "verify" : task;
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        tables = List.copyOf(tables);
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
        rejectMerges(tables);
    }

    /** Defaults: 4 threads, 10,000-row chunks, no fix SQL, 20 listed rows per table, no snapshot. */
    public static VerifyConfig of(ConnectionSpec source, ConnectionSpec target, List<TablePair> tables) {
        return new VerifyConfig("verify", source, target, tables, 4, 10_000, null, 20, SnapshotOptions.NONE);
    }

    public VerifyConfig withThreads(int n) {
        return new VerifyConfig(task, source, target, tables, n, chunkRows, fixSqlDir, maxReportedRowsPerTable,
                snapshot);
    }

    public VerifyConfig withChunkRows(long n) {
        return new VerifyConfig(task, source, target, tables, threads, n, fixSqlDir, maxReportedRowsPerTable,
                snapshot);
    }

    public VerifyConfig withFixSqlDir(Path dir) {
        return new VerifyConfig(task, source, target, tables, threads, chunkRows, dir, maxReportedRowsPerTable,
                snapshot);
    }

    public VerifyConfig withSnapshot(SnapshotOptions s) {
        return new VerifyConfig(task, source, target, tables, threads, chunkRows, fixSqlDir,
                maxReportedRowsPerTable, s);
    }

    /**
     * The source's base tables that {@code filter} selects, each paired with {@code router}'s target
     * name for it. System schemas are never listed.
     */
    public static List<TablePair> listPairs(ConnectionSpec source, BiPredicate<String, String> filter,
                                            UnaryOperator<TableName> router) {
        try (Connection c = DataSources.connect(source)) {
            List<TablePair> out = new ArrayList<>();
            for (TableName t : SchemaReader.listTables(c, filter)) {
                out.add(new TablePair(t, Objects.requireNonNull(router.apply(t), "route of " + t)));
            }
            return out;
        } catch (SQLException e) {
            throw new FatalException("verify: cannot list the source tables on " + source.address() + ": "
                    + ErrorClassifier.oneLine(e) + "; check the source address and its privileges", e);
        }
    }

    private static void rejectMerges(List<TablePair> tables) {
        Map<TableName, TableName> seen = new LinkedHashMap<>();
        for (TablePair p : tables) {
            TableName before = seen.putIfAbsent(p.target(), p.source());
            if (before != null) {
                throw new IllegalArgumentException("verify: target table " + p.target() + " receives rows from "
                        + before + " and " + p.source() + "; tables merged by a route cannot be compared "
                        + "chunk by chunk, verify each source table against its own copy or drop the merge "
                        + "route from the verify selection");
            }
        }
    }
}
