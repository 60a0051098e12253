package io.jdm.load;

import io.jdm.common.config.DeferIndexes;
import io.jdm.common.config.LoaderConfig;
import io.jdm.common.config.LoaderKeys;
import io.jdm.common.config.OnDuplicate;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskKey;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What the load unit needs. Build with {@link #of} (the task file's defaults), {@link #withLoader}
 * (a task file's {@code loaders:} entry), {@link #with(TaskKey, Object)} (one of its settings) and the
 * {@code with...} methods. Defaults and limits a user
 * can set are the task file's ({@link LoaderConfig}, {@link TaskConfig}); this record checks only
 * what the unit itself relies on, so a config built in code cannot break it.
 *
 * @param sourceId names this source in the checkpoint, so several sources can load into one target
 * @param dir the dump directory to read, resolved; {@code loader}'s {@code dir} is set to it
 * @param loader the task file's {@code loaders:} entry: pool size, on-duplicate, defer-indexes and the
 *               checks and binlog the load turns off
 * @param tableFilter selects source tables by (schema, table)
 * @param router maps a source table to its target table; several sources may map to one (merge).
 *               Databases are routed as {@code router.apply(new TableName(db, "")).schema()}
 * @param maxRetries how many times in a row a file may fail with a retriable error before the load stops
 * @param maxBackoffSeconds the longest pause between retries (pauses double from 250 ms)
 * @param transactionBytes statements are grouped into one transaction (with the checkpoint) up to this size
 * @param source the source the dump was taken from, asked for its sql_mode when the dump did not
 *               record it; null when the dump may come from elsewhere (the load never needs the source)
 * @param extraColumns the columns a source table's route adds to its target table, written with each of
 *               its rows; the target table must have them (none by default)
 * @param sourceRouters the routes of the task's other sources, by source id, which name the target tables
 *               their rows in the checkpoint went to (null: the same as this source's)
 */
public record LoadConfig(String task, String sourceId, ConnectionSpec target, Path dir, LoaderConfig loader,
                         String metaSchema, BiPredicate<String, String> tableFilter, UnaryOperator<TableName> router,
                         int maxRetries, int maxBackoffSeconds, long transactionBytes, ConnectionSpec source,
                         Function<TableName, ExtraColumns> extraColumns,
                         Function<String, UnaryOperator<TableName>> sourceRouters) {
    /**
     * 8 MiB of statements per transaction: a commit (and its checkpoint row) every few thousand
     * rows costs little, and a kill repeats at most this much per worker. Smaller transactions
     * measurably slow the load (1 MiB: about 11% longer on the sysbench-shaped benchmark).
     */
    public static final long DEFAULT_TRANSACTION_BYTES = 8L << 20;

    public LoadConfig {
        Objects.requireNonNull(target, "LoadConfig.target");
        Objects.requireNonNull(dir, "LoadConfig.dir");
        Objects.requireNonNull(loader, "LoadConfig.loader");
        loader = loader.dir().equals(Optional.of(dir)) ? loader : loader.withDir(dir);
        require(task != null && task.matches("[A-Za-z0-9_-]+"), "task", task,
                "must be letters, digits, _ and - only (it names tables)");
        require(sourceId != null && !sourceId.isBlank() && sourceId.length() <= 128, "sourceId", sourceId,
                "must be 1..128 characters (the checkpoint's source_id column)");
        require(loader.poolSize() >= 1, "poolSize", loader.poolSize(), "must be at least 1");
        require(metaSchema != null && !metaSchema.isBlank(), "metaSchema", metaSchema, "must not be blank");
        require(maxRetries >= 0, "maxRetries", maxRetries, "must be >= 0");
        require(maxBackoffSeconds >= 1, "maxBackoffSeconds", maxBackoffSeconds, "must be at least 1");
        require(transactionBytes >= 1, "transactionBytes", transactionBytes, "must be at least 1");
        tableFilter = tableFilter == null ? (db, tbl) -> true : tableFilter;
        router = router == null ? UnaryOperator.identity() : router;
        extraColumns = extraColumns == null ? t -> ExtraColumns.NONE : extraColumns;
    }

    private static void require(boolean ok, String field, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("LoadConfig." + field + " " + rule + ", got " + value);
        }
    }

    /**
     * The task file's defaults ({@link LoaderConfig#defaults()}, {@link TaskConfig#DEFAULT_META_SCHEMA}),
     * 10 retries of a file with pauses up to 30 s, {@link #DEFAULT_TRANSACTION_BYTES} per transaction.
     */
    public static LoadConfig of(String task, String sourceId, ConnectionSpec target, Path dir) {
        return new LoadConfig(task, sourceId, target, dir, LoaderConfig.defaults(), TaskConfig.DEFAULT_META_SCHEMA,
                null, null, 10, 30, DEFAULT_TRANSACTION_BYTES, null, null, null);
    }

    /** Every setting of a task file's {@code loaders:} entry but {@code dir}, which {@link #of} takes. */
    public LoadConfig withLoader(LoaderConfig l) {
        return copy(c -> c.loader = Objects.requireNonNull(l, "LoadConfig.loader"));
    }

    /**
     * This config with one setting of the {@code loaders:} entry (a {@link LoaderKeys} constant) replaced;
     * the directory is {@link #dir}, which {@link #of} takes.
     */
    public <T> LoadConfig with(TaskKey<T> key, T value) {
        if (key == LoaderKeys.DIR) {
            throw new IllegalArgumentException("LoadConfig.dir is given to LoadConfig.of, not set by " + key);
        }
        return withLoader(loader.with(key, value));
    }

    /** {@code loader().poolSize()}; this and the five below read the {@code loaders:} entry's settings. */
    public int poolSize() {
        return loader.poolSize();
    }

    public OnDuplicate onDuplicate() {
        return loader.onDuplicate();
    }

    public DeferIndexes deferIndexes() {
        return loader.deferIndexes();
    }

    public boolean disableForeignKeyChecks() {
        return loader.disableForeignKeyChecks();
    }

    public boolean disableUniqueChecks() {
        return loader.disableUniqueChecks();
    }

    public boolean disableBinlog() {
        return loader.disableBinlog();
    }

    public LoadConfig withPoolSize(int n) {
        return with(LoaderKeys.POOL_SIZE, n);
    }

    /** Null is {@link OnDuplicate#ERROR}, the default. */
    public LoadConfig withOnDuplicate(OnDuplicate d) {
        return with(LoaderKeys.ON_DUPLICATE_LOGICAL, d == null ? OnDuplicate.ERROR : d);
    }

    public LoadConfig withMetaSchema(String schema) {
        return copy(c -> c.metaSchema = schema);
    }

    public LoadConfig withDeferIndexes(DeferIndexes defer) {
        return with(LoaderKeys.DEFER_INDEXES, defer);
    }

    public LoadConfig withFastPath(boolean noForeignKeyChecks, boolean noUniqueChecks, boolean noBinlog) {
        return with(LoaderKeys.DISABLE_FOREIGN_KEY_CHECKS, noForeignKeyChecks)
                .with(LoaderKeys.DISABLE_UNIQUE_CHECKS, noUniqueChecks).with(LoaderKeys.DISABLE_BINLOG, noBinlog);
    }

    public LoadConfig withTableFilter(BiPredicate<String, String> filter) {
        return copy(c -> c.tableFilter = filter);
    }

    public LoadConfig withRouter(UnaryOperator<TableName> r) {
        return copy(c -> c.router = r);
    }

    public LoadConfig withRetry(int retries, int backoffSeconds) {
        return copy(c -> {
            c.maxRetries = retries;
            c.maxBackoffSeconds = backoffSeconds;
        });
    }

    public LoadConfig withTransactionBytes(long bytes) {
        return copy(c -> c.transactionBytes = bytes);
    }

    public LoadConfig withExtraColumns(Function<TableName, ExtraColumns> e) {
        return copy(c -> c.extraColumns = e);
    }

    /** The source the dump was taken from: the load reads its sql_mode when the dump did not record it. */
    public LoadConfig withSource(ConnectionSpec s) {
        return copy(c -> c.source = s);
    }

    /** The routes of the task's other sources (see {@link #routerOf}). */
    public LoadConfig withSourceRouters(Function<String, UnaryOperator<TableName>> routers) {
        return copy(c -> c.sourceRouters = routers);
    }

    /** The routes of source {@code id} of the task: this source's own, or another's as the task gives them. */
    public UnaryOperator<TableName> routerOf(String id) {
        if (id.equals(sourceId) || sourceRouters == null) {
            return router;
        }
        UnaryOperator<TableName> r = sourceRouters.apply(id);
        return r == null ? UnaryOperator.identity() : r;
    }

    /** The target schema of a source database. */
    String routeSchema(String db) {
        return router.apply(new TableName(db, "")).schema();
    }

    @Override
    public String toString() {
        return "LoadConfig[task=" + task + " source=" + sourceId + " target=" + target + " dir=" + dir
                + " pool-size=" + loader.poolSize() + " on-duplicate=" + loader.onDuplicate() + " meta-schema=" + metaSchema
                + " defer-indexes=" + loader.deferIndexes().text()
                + (source == null ? "" : " source=" + source.address()) + "]";
    }

    /** This config with {@code change} made to a copy of its values: each {@code with} method changes its own. */
    private LoadConfig copy(java.util.function.Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return c.build();
    }

    /** The values of a config, to change one and build another. */
    private static final class Copy {
        String task;
        String sourceId;
        ConnectionSpec target;
        Path dir;
        String metaSchema;
        LoaderConfig loader;
        BiPredicate<String, String> tableFilter;
        UnaryOperator<TableName> router;
        int maxRetries;
        int maxBackoffSeconds;
        long transactionBytes;
        ConnectionSpec source;
        Function<TableName, ExtraColumns> extraColumns;
        Function<String, UnaryOperator<TableName>> sourceRouters;

        Copy(LoadConfig o) {
            task = o.task;
            sourceId = o.sourceId;
            target = o.target;
            dir = o.dir;
            metaSchema = o.metaSchema;
            loader = o.loader;
            tableFilter = o.tableFilter;
            router = o.router;
            maxRetries = o.maxRetries;
            maxBackoffSeconds = o.maxBackoffSeconds;
            transactionBytes = o.transactionBytes;
            source = o.source;
            extraColumns = o.extraColumns;
            sourceRouters = o.sourceRouters;
        }

        LoadConfig build() {
            return new LoadConfig(task, sourceId, target, dir, loader, metaSchema, tableFilter, router,
                    maxRetries, maxBackoffSeconds, transactionBytes, source, extraColumns, sourceRouters);
        }
    }
}
