package io.jdm.load;

import io.jdm.common.config.LoaderConfig;
import io.jdm.common.config.OnDuplicate;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What the load unit needs. Build with {@link #of} (the task file's defaults), {@link #withLoader}
 * (a task file's {@code loaders:} entry) and the {@code with...} methods. Defaults and limits a user
 * can set are the task file's ({@link LoaderConfig}, {@link TaskConfig}); this record checks only
 * what the unit itself relies on, so a config built in code cannot break it.
 *
 * @param sourceId names this source in the checkpoint, so several sources can load into one target
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
public record LoadConfig(String task, String sourceId, ConnectionSpec target, Path dir, int poolSize,
                         OnDuplicate onDuplicate, String metaSchema, boolean deferIndexes,
                         boolean disableForeignKeyChecks, boolean disableUniqueChecks, boolean disableBinlog,
                         BiPredicate<String, String> tableFilter, UnaryOperator<TableName> router,
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
        require(task != null && task.matches("[A-Za-z0-9_-]+"), "task", task,
                "must be letters, digits, _ and - only (it names tables)");
        require(sourceId != null && !sourceId.isBlank() && sourceId.length() <= 128, "sourceId", sourceId,
                "must be 1..128 characters (the checkpoint's source_id column)");
        require(poolSize >= 1, "poolSize", poolSize, "must be at least 1");
        require(metaSchema != null && !metaSchema.isBlank(), "metaSchema", metaSchema, "must not be blank");
        require(maxRetries >= 0, "maxRetries", maxRetries, "must be >= 0");
        require(maxBackoffSeconds >= 1, "maxBackoffSeconds", maxBackoffSeconds, "must be at least 1");
        require(transactionBytes >= 1, "transactionBytes", transactionBytes, "must be at least 1");
        onDuplicate = onDuplicate == null ? OnDuplicate.ERROR : onDuplicate;
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
        LoaderConfig d = LoaderConfig.defaults();
        return new LoadConfig(task, sourceId, target, dir, d.poolSize(), d.onDuplicate(),
                TaskConfig.DEFAULT_META_SCHEMA, d.deferIndexes(), d.disableForeignKeyChecks(),
                d.disableUniqueChecks(), d.disableBinlog(), null, null, 10, 30, DEFAULT_TRANSACTION_BYTES, null, null, null);
    }

    /** Every setting of a task file's {@code loaders:} entry but {@code dir}, which {@link #of} takes. */
    public LoadConfig withLoader(LoaderConfig l) {
        return withPoolSize(l.poolSize()).withOnDuplicate(l.onDuplicate()).withDeferIndexes(l.deferIndexes())
                .withFastPath(l.disableForeignKeyChecks(), l.disableUniqueChecks(), l.disableBinlog());
    }

    public LoadConfig withPoolSize(int n) {
        return with(c -> c.poolSize = n);
    }

    public LoadConfig withOnDuplicate(OnDuplicate d) {
        return with(c -> c.onDuplicate = d);
    }

    public LoadConfig withMetaSchema(String schema) {
        return with(c -> c.metaSchema = schema);
    }

    public LoadConfig withDeferIndexes(boolean defer) {
        return with(c -> c.deferIndexes = defer);
    }

    public LoadConfig withFastPath(boolean noForeignKeyChecks, boolean noUniqueChecks, boolean noBinlog) {
        return with(c -> {
            c.disableForeignKeyChecks = noForeignKeyChecks;
            c.disableUniqueChecks = noUniqueChecks;
            c.disableBinlog = noBinlog;
        });
    }

    public LoadConfig withTableFilter(BiPredicate<String, String> filter) {
        return with(c -> c.tableFilter = filter);
    }

    public LoadConfig withRouter(UnaryOperator<TableName> r) {
        return with(c -> c.router = r);
    }

    public LoadConfig withRetry(int retries, int backoffSeconds) {
        return with(c -> {
            c.maxRetries = retries;
            c.maxBackoffSeconds = backoffSeconds;
        });
    }

    public LoadConfig withTransactionBytes(long bytes) {
        return with(c -> c.transactionBytes = bytes);
    }

    public LoadConfig withExtraColumns(Function<TableName, ExtraColumns> e) {
        return with(c -> c.extraColumns = e);
    }

    /** The source the dump was taken from: the load reads its sql_mode when the dump did not record it. */
    public LoadConfig withSource(ConnectionSpec s) {
        return with(c -> c.source = s);
    }

    /** The routes of the task's other sources (see {@link #routerOf}). */
    public LoadConfig withSourceRouters(Function<String, UnaryOperator<TableName>> routers) {
        return with(c -> c.sourceRouters = routers);
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
                + " pool-size=" + poolSize + " on-duplicate=" + onDuplicate + " meta-schema=" + metaSchema
                + " defer-indexes=" + deferIndexes + (source == null ? "" : " source=" + source.address()) + "]";
    }

    /** This config with {@code change} made to a copy of its values: each {@code with} method changes its own. */
    private LoadConfig with(java.util.function.Consumer<Copy> change) {
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
        int poolSize;
        OnDuplicate onDuplicate;
        String metaSchema;
        boolean deferIndexes;
        boolean disableForeignKeyChecks;
        boolean disableUniqueChecks;
        boolean disableBinlog;
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
            poolSize = o.poolSize;
            onDuplicate = o.onDuplicate;
            metaSchema = o.metaSchema;
            deferIndexes = o.deferIndexes;
            disableForeignKeyChecks = o.disableForeignKeyChecks;
            disableUniqueChecks = o.disableUniqueChecks;
            disableBinlog = o.disableBinlog;
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
            return new LoadConfig(task, sourceId, target, dir, poolSize, onDuplicate, metaSchema, deferIndexes,
                    disableForeignKeyChecks, disableUniqueChecks, disableBinlog, tableFilter, router,
                    maxRetries, maxBackoffSeconds, transactionBytes, source, extraColumns, sourceRouters);
        }
    }
}
