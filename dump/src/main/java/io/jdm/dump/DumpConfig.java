package io.jdm.dump;

import io.jdm.common.config.Compression;
import io.jdm.common.config.Consistency;
import io.jdm.common.config.MydumperConfig;
import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * What one dump does. Validated on construction; messages name the task-file key, the value and
 * the rule.
 *
 * @param sourceId the source's name in the task file, used in messages and metric labels
 * @param threads connections reading at once; chunks of all tables share them
 * @param rows rows per chunk; 0 dumps every table as one chunk
 * @param statementSize bytes (UTF-8) at which a multi-row INSERT ends, as mydumper and Dumpling count them;
 *     a statement always holds at least one row
 * @param chunkFileSizeMb a data file is closed after about this many MB of SQL text; 0 = no limit
 * @param where an extra condition every table's SELECT adds with AND; null for none
 * @param tableFilter (schema, table) → dump it; system schemas are never dumped
 */
public record DumpConfig(String task, String sourceId, ConnectionSpec source, Path outputDir, int threads, long rows,
                         long statementSize, long chunkFileSizeMb, Consistency consistency, String where,
                         Compression compress, BiPredicate<String, String> tableFilter) {
    public DumpConfig {
        require(task != null && !task.isBlank(), "name", task, "must not be empty");
        sourceId = sourceId == null || sourceId.isBlank() ? "source" : sourceId;
        Objects.requireNonNull(source, "mysql-instances.source: connection must be set");
        Objects.requireNonNull(outputDir, "mydumpers.dir: must be set");
        require(threads >= 1 && threads <= 1024, "mydumpers.threads", threads, "must be 1..1024");
        require(rows >= 0, "mydumpers.rows", rows, "must be >= 0 (0 = no chunking)");
        require(statementSize >= 1 && statementSize <= MydumperConfig.MAX_STATEMENT_SIZE, "mydumpers.statement-size",
                statementSize, "must be 1.." + MydumperConfig.MAX_STATEMENT_SIZE + " bytes");
        require(chunkFileSizeMb >= 0, "mydumpers.chunk-filesize", chunkFileSizeMb, "must be >= 0 MB (0 = no limit)");
        Objects.requireNonNull(consistency, "mydumpers.consistency: must be set");
        where = where == null || where.isBlank() ? null : where.strip();
        compress = compress == null ? Compression.NONE : compress;
        tableFilter = tableFilter == null ? (db, tbl) -> true : tableFilter;
    }

    /** DM's defaults: 4 threads, no chunking, 1 MB statements, 64 MB files, auto consistency, no compression. */
    public static DumpConfig defaults(String task, ConnectionSpec source, Path outputDir) {
        return new DumpConfig(task, "source", source, outputDir, 4, 0, 1_000_000, 64, Consistency.AUTO, null,
                Compression.NONE, (db, tbl) -> true);
    }

    public DumpConfig withThreads(int n) {
        return new DumpConfig(task, sourceId, source, outputDir, n, rows, statementSize, chunkFileSizeMb,
                consistency, where, compress, tableFilter);
    }

    public DumpConfig withRows(long n) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, n, statementSize, chunkFileSizeMb,
                consistency, where, compress, tableFilter);
    }

    public DumpConfig withStatementSize(long bytes) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, bytes, chunkFileSizeMb,
                consistency, where, compress, tableFilter);
    }

    public DumpConfig withChunkFileSizeMb(long mb) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, mb,
                consistency, where, compress, tableFilter);
    }

    public DumpConfig withConsistency(Consistency c) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                c, where, compress, tableFilter);
    }

    public DumpConfig withWhere(String condition) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, condition, compress, tableFilter);
    }

    public DumpConfig withCompress(Compression c) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, where, c, tableFilter);
    }

    public DumpConfig withTableFilter(BiPredicate<String, String> filter) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, where, compress, filter);
    }

    public DumpConfig withOutputDir(Path dir) {
        return new DumpConfig(task, sourceId, source, dir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, where, compress, tableFilter);
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + ": " + rule + ", got " + value);
        }
    }

    @Override
    public String toString() {
        return "DumpConfig[task=" + task + " source=" + sourceId + " " + source + " dir=" + outputDir
                + " threads=" + threads + " rows=" + rows + " statementSize=" + statementSize
                + " chunkFileSizeMb=" + chunkFileSizeMb + " consistency=" + consistency.label()
                + (where == null ? "" : " where=" + where) + " compress=" + compress + "]";
    }
}
