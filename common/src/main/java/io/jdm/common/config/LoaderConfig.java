package io.jdm.common.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How the load unit replays a dump (an entry of {@code loaders:}); its keys are declared in {@link LoaderKeys}.
 *
 * @param dir the dump directory to read; empty in a named config means "where the dump wrote",
 *     and is always present in {@link TaskConfig#loader(MySqlInstance)}'s answer
 * @param deferIndexes which tables get their secondary indexes after their rows
 */
public record LoaderConfig(int poolSize, Optional<Path> dir, OnDuplicate onDuplicate, DeferIndexes deferIndexes,
                           boolean disableForeignKeyChecks, boolean disableUniqueChecks, boolean disableBinlog) {
    public static final int DEFAULT_POOL_SIZE = LoaderKeys.POOL_SIZE.def();
    /** DM's two names of on-duplicate are the one component {@code onDuplicate}. */
    private static final Map<TaskKey<?>, String> COMPONENTS = Map.of(LoaderKeys.ON_DUPLICATE_LOGICAL, "onDuplicate",
            LoaderKeys.ON_DUPLICATE, "onDuplicate");

    public LoaderConfig {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(onDuplicate, "onDuplicate");
        Objects.requireNonNull(deferIndexes, "deferIndexes");
    }

    public static LoaderConfig defaults() {
        return new LoaderConfig(LoaderKeys.POOL_SIZE.def(), LoaderKeys.DIR.def(), LoaderKeys.ON_DUPLICATE_LOGICAL.def(),
                LoaderKeys.DEFER_INDEXES.def(), LoaderKeys.DISABLE_FOREIGN_KEY_CHECKS.def(),
                LoaderKeys.DISABLE_UNIQUE_CHECKS.def(), LoaderKeys.DISABLE_BINLOG.def());
    }

    /**
     * This config with the setting of {@code key} (one of {@link LoaderKeys}) replaced by {@code value};
     * {@code on-duplicate-logical} and {@code on-duplicate} both set {@link #onDuplicate}.
     *
     * @throws IllegalArgumentException for a key of another section or one that is only read (ignored keys,
     *     {@code import-mode})
     */
    public <T> LoaderConfig with(TaskKey<T> key, T value) {
        return KeyedRecords.with(this, LoaderKeys.ALL, COMPONENTS, key, value);
    }

    public LoaderConfig withPoolSize(int newPoolSize) {
        return with(LoaderKeys.POOL_SIZE, newPoolSize);
    }

    public LoaderConfig withDir(Path newDir) {
        return with(LoaderKeys.DIR, Optional.of(newDir));
    }

    public LoaderConfig withOnDuplicate(OnDuplicate newOnDuplicate) {
        return with(LoaderKeys.ON_DUPLICATE_LOGICAL, newOnDuplicate);
    }
}
