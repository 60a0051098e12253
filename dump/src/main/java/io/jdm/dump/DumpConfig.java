package io.jdm.dump;

import io.jdm.common.config.Compression;
import io.jdm.common.config.Consistency;
import io.jdm.common.config.MydumperConfig;
import io.jdm.common.config.MydumperKeys;
import io.jdm.common.config.TaskKey;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.schema.TableSchema;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * What one dump does. Build with {@link #of} (a task file's {@code mydumpers:} entry), {@link #defaults},
 * {@link #with(TaskKey, Object)} (one of the entry's settings) and the {@code with...} methods. Defaults and
 * limits a user can set are the task file's ({@link MydumperConfig}); this record checks only what the unit
 * itself relies on, so a config built in code cannot break it.
 *
 * @param sourceId the source's name in the task file, used in messages and metric labels
 * @param outputDir the directory the dump writes; {@code mydumper}'s {@code dir} is set to it
 * @param mydumper the task file's {@code mydumpers:} entry: threads (connections reading at once; chunks of
 *        all tables share them), rows per chunk (0: every table as one chunk), statement size (bytes, UTF-8,
 *        at which a multi-row INSERT ends, as mydumper and Dumpling count them; a statement always holds at
 *        least one row), chunk file size (a data file is closed after about this many MB of SQL text; 0: no
 *        limit), consistency, where (an extra condition every table's SELECT adds with AND; kept stripped,
 *        blank is none) and compression
 * @param tableFilter (schema, table) → dump it; system schemas are never dumped
 * @param tableWhere a table's own condition, added with AND beside {@code where} (null for none): the
 *        rows DM's expression-filter would not insert are not dumped either
 */
public record DumpConfig(String task, String sourceId, ConnectionSpec source, Path outputDir,
                         MydumperConfig mydumper, BiPredicate<String, String> tableFilter,
                         Function<TableSchema, String> tableWhere) {
    public DumpConfig {
        require(task != null && !task.isBlank(), "task", task, "must not be blank");
        sourceId = sourceId == null || sourceId.isBlank() ? "source" : sourceId;
        Objects.requireNonNull(source, "DumpConfig.source");
        Objects.requireNonNull(outputDir, "DumpConfig.outputDir");
        Objects.requireNonNull(mydumper, "DumpConfig.mydumper");
        mydumper = mydumper.dir().equals(outputDir) ? mydumper : mydumper.withDir(outputDir);
        Optional<String> where = mydumper.where().map(String::strip).filter(w -> !w.isEmpty());
        mydumper = where.equals(mydumper.where()) ? mydumper : mydumper.with(MydumperKeys.WHERE, where);
        require(mydumper.threads() >= 1, "threads", mydumper.threads(), "must be at least 1");
        require(mydumper.rows() >= 0, "rows", mydumper.rows(), "must be >= 0 (0 = no chunking)");
        // the statement buffer is one array: the task file's limit is what the unit can hold
        require(mydumper.statementSize() >= 1 && mydumper.statementSize() <= MydumperConfig.MAX_STATEMENT_SIZE,
                "statementSize", mydumper.statementSize(), "must be 1.." + MydumperConfig.MAX_STATEMENT_SIZE + " bytes");
        require(mydumper.chunkFilesizeMb() >= 0, "chunkFileSizeMb", mydumper.chunkFilesizeMb(),
                "must be >= 0 (0 = no limit)");
        tableFilter = tableFilter == null ? (db, tbl) -> true : tableFilter;
        tableWhere = tableWhere == null ? t -> null : tableWhere;
    }

    /**
     * A task file's {@code mydumpers:} entry as this unit's config, writing into its {@code dir}; every table
     * is selected until {@link #withTableFilter}.
     */
    public static DumpConfig of(String task, String sourceId, ConnectionSpec source, MydumperConfig m) {
        return new DumpConfig(task, sourceId, source, m.dir(), m, null, null);
    }

    /** The task file's defaults ({@link MydumperConfig#defaults}), writing into {@code outputDir}. */
    public static DumpConfig defaults(String task, ConnectionSpec source, Path outputDir) {
        return of(task, "source", source, MydumperConfig.defaults(task).withDir(outputDir));
    }

    /**
     * This config with one setting of the {@code mydumpers:} entry (a {@link MydumperKeys} constant) replaced;
     * the directory is {@link #outputDir}, which {@link #withOutputDir} sets.
     */
    public <T> DumpConfig with(TaskKey<T> key, T value) {
        if (key == MydumperKeys.DIR) {
            throw new IllegalArgumentException("DumpConfig.outputDir is set by withOutputDir, not by " + key);
        }
        MydumperConfig m = mydumper.with(key, value);
        return copy(c -> c.mydumper = m);
    }

    /** {@code mydumper().threads()}; this and the six below read the {@code mydumpers:} entry's settings. */
    public int threads() {
        return mydumper.threads();
    }

    public long rows() {
        return mydumper.rows();
    }

    public long statementSize() {
        return mydumper.statementSize();
    }

    public long chunkFileSizeMb() {
        return mydumper.chunkFilesizeMb();
    }

    public Consistency consistency() {
        return mydumper.consistency();
    }

    /** The condition every table's SELECT adds; null for none. */
    public String where() {
        return mydumper.where().orElse(null);
    }

    public Compression compress() {
        return mydumper.compress();
    }

    public DumpConfig withThreads(int n) {
        return with(MydumperKeys.THREADS, n);
    }

    public DumpConfig withRows(long n) {
        return with(MydumperKeys.ROWS, n);
    }

    public DumpConfig withStatementSize(long bytes) {
        return with(MydumperKeys.STATEMENT_SIZE, bytes);
    }

    public DumpConfig withChunkFileSizeMb(long mb) {
        require(mb >= 0, "chunkFileSizeMb", mb, "must be >= 0 (0 = no limit)");
        require(mb <= Integer.MAX_VALUE, "chunkFileSizeMb", mb, "must be at most " + Integer.MAX_VALUE);
        return with(MydumperKeys.CHUNK_FILESIZE, (int) mb);
    }

    public DumpConfig withConsistency(Consistency c) {
        return with(MydumperKeys.CONSISTENCY, Objects.requireNonNull(c, "DumpConfig.consistency"));
    }

    /** Null or blank is none. */
    public DumpConfig withWhere(String condition) {
        return with(MydumperKeys.WHERE, Optional.ofNullable(condition));
    }

    /** Null is {@link Compression#NONE}. */
    public DumpConfig withCompress(Compression c) {
        return with(MydumperKeys.COMPRESS, c == null ? Compression.NONE : c);
    }

    public DumpConfig withTableFilter(BiPredicate<String, String> filter) {
        return copy(c -> c.tableFilter = filter);
    }

    public DumpConfig withTableWhere(Function<TableSchema, String> f) {
        return copy(c -> c.tableWhere = f);
    }

    /** The condition every SELECT of this table adds: {@code where} and the table's own; null for none. */
    public String where(TableSchema table) {
        return ChunkPlanner.and(where(), tableWhere.apply(table));
    }

    public DumpConfig withOutputDir(Path dir) {
        return copy(c -> c.outputDir = dir);
    }

    private static void require(boolean ok, String field, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("DumpConfig." + field + " " + rule + ", got " + value);
        }
    }

    @Override
    public String toString() {
        return "DumpConfig[task=" + task + " source=" + sourceId + " " + source + " dir=" + outputDir
                + " threads=" + threads() + " rows=" + rows() + " statementSize=" + statementSize()
                + " chunkFileSizeMb=" + chunkFileSizeMb() + " consistency=" + consistency().label()
                + (where() == null ? "" : " where=" + where()) + " compress=" + compress() + "]";
    }

    /** This config with {@code change} made to a copy of its values: each {@code with} method changes its own. */
    private DumpConfig copy(java.util.function.Consumer<Copy> change) {
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
        MydumperConfig mydumper;
        BiPredicate<String, String> tableFilter;
        Function<TableSchema, String> tableWhere;

        Copy(DumpConfig o) {
            task = o.task;
            sourceId = o.sourceId;
            source = o.source;
            outputDir = o.outputDir;
            mydumper = o.mydumper;
            tableFilter = o.tableFilter;
            tableWhere = o.tableWhere;
        }

        DumpConfig build() {
            return new DumpConfig(task, sourceId, source, outputDir, mydumper, tableFilter, tableWhere);
        }
    }
}
