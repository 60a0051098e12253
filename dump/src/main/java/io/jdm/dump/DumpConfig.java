package io.jdm.dump;

import io.jdm.common.config.Compression;
import io.jdm.common.config.Consistency;
import io.jdm.common.config.MydumperConfig;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.schema.TableSchema;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * What one dump does. Defaults and limits a user can set are the task file's ({@link MydumperConfig});
 * this record checks only what the unit itself relies on, so a config built in code cannot break it.
 *
 * @param sourceId the source's name in the task file, used in messages and metric labels
 * @param threads connections reading at once; chunks of all tables share them
 * @param rows rows per chunk; 0 dumps every table as one chunk
 * @param statementSize bytes (UTF-8) at which a multi-row INSERT ends, as mydumper and Dumpling count them;
 *     a statement always holds at least one row
 * @param chunkFileSizeMb a data file is closed after about this many MB of SQL text; 0 = no limit
 * @param where an extra condition every table's SELECT adds with AND; null for none
 * @param tableFilter (schema, table) → dump it; system schemas are never dumped
 * @param tableWhere a table's own condition, added with AND beside {@code where} (null for none): the
 *        rows DM's expression-filter would not insert are not dumped either
 */
public record DumpConfig(String task, String sourceId, ConnectionSpec source, Path outputDir, int threads, long rows,
                         long statementSize, long chunkFileSizeMb, Consistency consistency, String where,
                         Compression compress, BiPredicate<String, String> tableFilter,
                         Function<TableSchema, String> tableWhere) {
    public DumpConfig {
        require(task != null && !task.isBlank(), "task", task, "must not be blank");
        sourceId = sourceId == null || sourceId.isBlank() ? "source" : sourceId;
        Objects.requireNonNull(source, "DumpConfig.source");
        Objects.requireNonNull(outputDir, "DumpConfig.outputDir");
        require(threads >= 1, "threads", threads, "must be at least 1");
        require(rows >= 0, "rows", rows, "must be >= 0 (0 = no chunking)");
        // the statement buffer is one array: the task file's limit is what the unit can hold
        require(statementSize >= 1 && statementSize <= MydumperConfig.MAX_STATEMENT_SIZE, "statementSize",
                statementSize, "must be 1.." + MydumperConfig.MAX_STATEMENT_SIZE + " bytes");
        require(chunkFileSizeMb >= 0, "chunkFileSizeMb", chunkFileSizeMb, "must be >= 0 (0 = no limit)");
        Objects.requireNonNull(consistency, "DumpConfig.consistency");
        where = where == null || where.isBlank() ? null : where.strip();
        compress = compress == null ? Compression.NONE : compress;
        tableFilter = tableFilter == null ? (db, tbl) -> true : tableFilter;
        tableWhere = tableWhere == null ? t -> null : tableWhere;
    }

    /** A task file's {@code mydumpers:} entry as this unit's config; every table is selected until {@link #withTableFilter}. */
    public static DumpConfig of(String task, String sourceId, ConnectionSpec source, MydumperConfig m) {
        return new DumpConfig(task, sourceId, source, m.dir(), m.threads(), m.rows(), m.statementSize(),
                m.chunkFilesizeMb(), m.consistency(), m.where().orElse(null), m.compress(), null, null);
    }

    /** The task file's defaults ({@link MydumperConfig#defaults}), writing into {@code outputDir}. */
    public static DumpConfig defaults(String task, ConnectionSpec source, Path outputDir) {
        return of(task, "source", source, MydumperConfig.defaults(task).withDir(outputDir));
    }

    public DumpConfig withThreads(int n) {
        return new DumpConfig(task, sourceId, source, outputDir, n, rows, statementSize, chunkFileSizeMb,
                consistency, where, compress, tableFilter, tableWhere);
    }

    public DumpConfig withRows(long n) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, n, statementSize, chunkFileSizeMb,
                consistency, where, compress, tableFilter, tableWhere);
    }

    public DumpConfig withStatementSize(long bytes) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, bytes, chunkFileSizeMb,
                consistency, where, compress, tableFilter, tableWhere);
    }

    public DumpConfig withChunkFileSizeMb(long mb) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, mb,
                consistency, where, compress, tableFilter, tableWhere);
    }

    public DumpConfig withConsistency(Consistency c) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                c, where, compress, tableFilter, tableWhere);
    }

    public DumpConfig withWhere(String condition) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, condition, compress, tableFilter, tableWhere);
    }

    public DumpConfig withCompress(Compression c) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, where, c, tableFilter, tableWhere);
    }

    public DumpConfig withTableFilter(BiPredicate<String, String> filter) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, where, compress, filter, tableWhere);
    }

    public DumpConfig withTableWhere(Function<TableSchema, String> f) {
        return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, where, compress, tableFilter, f);
    }

    /** The condition every SELECT of this table adds: {@code where} and the table's own; null for none. */
    public String where(TableSchema table) {
        return ChunkPlanner.and(where, tableWhere.apply(table));
    }

    public DumpConfig withOutputDir(Path dir) {
        return new DumpConfig(task, sourceId, source, dir, threads, rows, statementSize, chunkFileSizeMb,
                consistency, where, compress, tableFilter, tableWhere);
    }

    private static void require(boolean ok, String field, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("DumpConfig." + field + " " + rule + ", got " + value);
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
