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
        return with(c -> c.threads = n);
    }

    public DumpConfig withRows(long n) {
        return with(c -> c.rows = n);
    }

    public DumpConfig withStatementSize(long bytes) {
        return with(c -> c.statementSize = bytes);
    }

    public DumpConfig withChunkFileSizeMb(long mb) {
        return with(c -> c.chunkFileSizeMb = mb);
    }

    public DumpConfig withConsistency(Consistency c) {
        return with(k -> k.consistency = c);
    }

    public DumpConfig withWhere(String condition) {
        return with(c -> c.where = condition);
    }

    public DumpConfig withCompress(Compression c) {
        return with(k -> k.compress = c);
    }

    public DumpConfig withTableFilter(BiPredicate<String, String> filter) {
        return with(c -> c.tableFilter = filter);
    }

    public DumpConfig withTableWhere(Function<TableSchema, String> f) {
        return with(c -> c.tableWhere = f);
    }

    /** The condition every SELECT of this table adds: {@code where} and the table's own; null for none. */
    public String where(TableSchema table) {
        return ChunkPlanner.and(where, tableWhere.apply(table));
    }

    public DumpConfig withOutputDir(Path dir) {
        return with(c -> c.outputDir = dir);
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

    /** This config with {@code change} made to a copy of its values: each {@code with} method changes its own. */
    private DumpConfig with(java.util.function.Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return c.build();
    }

    /** The values of a config, to change one and build another. */
    private static final class Copy {
        String task;
        String sourceId;
        ConnectionSpec source;
        Path outputDir;
        int threads;
        long rows;
        long statementSize;
        long chunkFileSizeMb;
        Consistency consistency;
        String where;
        Compression compress;
        BiPredicate<String, String> tableFilter;
        Function<TableSchema, String> tableWhere;

        Copy(DumpConfig o) {
            task = o.task;
            sourceId = o.sourceId;
            source = o.source;
            outputDir = o.outputDir;
            threads = o.threads;
            rows = o.rows;
            statementSize = o.statementSize;
            chunkFileSizeMb = o.chunkFileSizeMb;
            consistency = o.consistency;
            where = o.where;
            compress = o.compress;
            tableFilter = o.tableFilter;
            tableWhere = o.tableWhere;
        }

        DumpConfig build() {
            return new DumpConfig(task, sourceId, source, outputDir, threads, rows, statementSize,
                    chunkFileSizeMb, consistency, where, compress, tableFilter, tableWhere);
        }
    }
}
