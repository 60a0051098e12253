package io.jdm.load;

import io.jdm.common.config.OnDuplicate;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;

/**
 * What the load unit needs, validated once. Build with {@link #of} and the {@code with...}
 * methods; messages name the task-file key, the value and the rule.
 *
 * @param sourceId names this source in the checkpoint, so several sources can load into one target
 * @param tableFilter selects source tables by (schema, table)
 * @param router maps a source table to its target table; several sources may map to one (merge).
 *               Databases are routed as {@code router.apply(new TableName(db, "")).schema()}
 * @param maxRetries how many times in a row a file may fail with a retriable error before the load stops
 * @param maxBackoffSeconds the longest pause between retries (pauses double from 250 ms)
 * @param transactionBytes statements are grouped into one transaction (with the checkpoint) up to this size
 */
public record LoadConfig(String task, String sourceId, ConnectionSpec target, Path dir, int poolSize,
                         OnDuplicate onDuplicate, String metaSchema, boolean deferIndexes,
                         boolean disableForeignKeyChecks, boolean disableUniqueChecks, boolean disableBinlog,
                         BiPredicate<String, String> tableFilter, UnaryOperator<TableName> router,
                         int maxRetries, int maxBackoffSeconds, long transactionBytes) {
    public static final String DEFAULT_META_SCHEMA = "jdm_meta";
    /**
     * 8 MiB of statements per transaction: a commit (and its checkpoint row) every few thousand
     * rows costs little, and a kill repeats at most this much per worker. Smaller transactions
     * measurably slow the load (1 MiB: about 11% longer on the sysbench-shaped benchmark).
     */
    public static final long DEFAULT_TRANSACTION_BYTES = 8L << 20;

    public LoadConfig {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(dir, "loaders.dir");
        if (task == null || !task.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("name: must match [A-Za-z0-9_-]{1,64}, got " + task);
        }
        if (sourceId == null || sourceId.isBlank() || sourceId.length() > 128) {
            throw new IllegalArgumentException("mysql-instances.source-id: must be 1..128 characters, got " + sourceId);
        }
        if (poolSize < 1 || poolSize > 256) {
            throw new IllegalArgumentException("loaders.pool-size: must be 1..256, got " + poolSize);
        }
        if (metaSchema == null || metaSchema.isBlank() || metaSchema.length() > 64) {
            throw new IllegalArgumentException("meta-schema: must be 1..64 characters, got " + metaSchema);
        }
        if (maxRetries < 0 || maxRetries > 1000) {
            throw new IllegalArgumentException("loaders.max-retries: must be 0..1000, got " + maxRetries);
        }
        if (maxBackoffSeconds < 1 || maxBackoffSeconds > 3600) {
            throw new IllegalArgumentException("loaders.max-backoff-seconds: must be 1..3600, got "
                    + maxBackoffSeconds);
        }
        if (transactionBytes < 1) {
            throw new IllegalArgumentException("loaders.transaction-bytes: must be at least 1, got "
                    + transactionBytes);
        }
        onDuplicate = onDuplicate == null ? OnDuplicate.ERROR : onDuplicate;
        tableFilter = tableFilter == null ? (db, tbl) -> true : tableFilter;
        router = router == null ? UnaryOperator.identity() : router;
    }

    /**
     * Defaults: 16 connections, on-duplicate error, every fast-path switch on, indexes not deferred,
     * {@link #DEFAULT_TRANSACTION_BYTES} per transaction.
     */
    public static LoadConfig of(String task, String sourceId, ConnectionSpec target, Path dir) {
        return new LoadConfig(task, sourceId, target, dir, 16, OnDuplicate.ERROR, DEFAULT_META_SCHEMA, false,
                true, true, true, null, null, 10, 30, DEFAULT_TRANSACTION_BYTES);
    }

    public LoadConfig withPoolSize(int n) {
        return new LoadConfig(task, sourceId, target, dir, n, onDuplicate, metaSchema, deferIndexes,
                disableForeignKeyChecks, disableUniqueChecks, disableBinlog, tableFilter, router, maxRetries,
                maxBackoffSeconds, transactionBytes);
    }

    public LoadConfig withOnDuplicate(OnDuplicate d) {
        return new LoadConfig(task, sourceId, target, dir, poolSize, d, metaSchema, deferIndexes,
                disableForeignKeyChecks, disableUniqueChecks, disableBinlog, tableFilter, router, maxRetries,
                maxBackoffSeconds, transactionBytes);
    }

    public LoadConfig withMetaSchema(String schema) {
        return new LoadConfig(task, sourceId, target, dir, poolSize, onDuplicate, schema, deferIndexes,
                disableForeignKeyChecks, disableUniqueChecks, disableBinlog, tableFilter, router, maxRetries,
                maxBackoffSeconds, transactionBytes);
    }

    public LoadConfig withDeferIndexes(boolean defer) {
        return new LoadConfig(task, sourceId, target, dir, poolSize, onDuplicate, metaSchema, defer,
                disableForeignKeyChecks, disableUniqueChecks, disableBinlog, tableFilter, router, maxRetries,
                maxBackoffSeconds, transactionBytes);
    }

    public LoadConfig withFastPath(boolean noForeignKeyChecks, boolean noUniqueChecks, boolean noBinlog) {
        return new LoadConfig(task, sourceId, target, dir, poolSize, onDuplicate, metaSchema, deferIndexes,
                noForeignKeyChecks, noUniqueChecks, noBinlog, tableFilter, router, maxRetries,
                maxBackoffSeconds, transactionBytes);
    }

    public LoadConfig withTableFilter(BiPredicate<String, String> filter) {
        return new LoadConfig(task, sourceId, target, dir, poolSize, onDuplicate, metaSchema, deferIndexes,
                disableForeignKeyChecks, disableUniqueChecks, disableBinlog, filter, router, maxRetries,
                maxBackoffSeconds, transactionBytes);
    }

    public LoadConfig withRouter(UnaryOperator<TableName> r) {
        return new LoadConfig(task, sourceId, target, dir, poolSize, onDuplicate, metaSchema, deferIndexes,
                disableForeignKeyChecks, disableUniqueChecks, disableBinlog, tableFilter, r, maxRetries,
                maxBackoffSeconds, transactionBytes);
    }

    public LoadConfig withRetry(int retries, int backoffSeconds) {
        return new LoadConfig(task, sourceId, target, dir, poolSize, onDuplicate, metaSchema, deferIndexes,
                disableForeignKeyChecks, disableUniqueChecks, disableBinlog, tableFilter, router, retries,
                backoffSeconds, transactionBytes);
    }

    public LoadConfig withTransactionBytes(long bytes) {
        return new LoadConfig(task, sourceId, target, dir, poolSize, onDuplicate, metaSchema, deferIndexes,
                disableForeignKeyChecks, disableUniqueChecks, disableBinlog, tableFilter, router, maxRetries,
                maxBackoffSeconds, bytes);
    }

    /** The target schema of a source database. */
    String routeSchema(String db) {
        return router.apply(new TableName(db, "")).schema();
    }

    @Override
    public String toString() {
        return "LoadConfig[task=" + task + " source=" + sourceId + " target=" + target + " dir=" + dir
                + " pool-size=" + poolSize + " on-duplicate=" + onDuplicate + " meta-schema=" + metaSchema
                + " defer-indexes=" + deferIndexes + "]";
    }
}
