package io.jdm.common.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How the load unit replays a dump (an entry of {@code loaders:}); its keys are declared in {@link LoaderKeys}.
 *
 * @param dir the dump directory to read; empty in a named config means "where the dump wrote",
 *     and is always present in {@link TaskConfig#loader(MySqlInstance)}'s answer
 * @param deferIndexes create secondary indexes after the data is in
 */
public record LoaderConfig(int poolSize, Optional<Path> dir, OnDuplicate onDuplicate, boolean deferIndexes,
                           boolean disableForeignKeyChecks, boolean disableUniqueChecks, boolean disableBinlog) {
    public static final int DEFAULT_POOL_SIZE = LoaderKeys.POOL_SIZE.def();

    public LoaderConfig {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(onDuplicate, "onDuplicate");
    }

    public static LoaderConfig defaults() {
        return new LoaderConfig(LoaderKeys.POOL_SIZE.def(), LoaderKeys.DIR.def(), LoaderKeys.ON_DUPLICATE_LOGICAL.def(),
                LoaderKeys.DEFER_INDEXES.def(), LoaderKeys.DISABLE_FOREIGN_KEY_CHECKS.def(),
                LoaderKeys.DISABLE_UNIQUE_CHECKS.def(), LoaderKeys.DISABLE_BINLOG.def());
    }

    public LoaderConfig withPoolSize(int newPoolSize) {
        return new LoaderConfig(newPoolSize, dir, onDuplicate, deferIndexes, disableForeignKeyChecks,
                disableUniqueChecks, disableBinlog);
    }

    public LoaderConfig withDir(Path newDir) {
        return new LoaderConfig(poolSize, Optional.of(newDir), onDuplicate, deferIndexes, disableForeignKeyChecks,
                disableUniqueChecks, disableBinlog);
    }

    public LoaderConfig withOnDuplicate(OnDuplicate newOnDuplicate) {
        return new LoaderConfig(poolSize, dir, newOnDuplicate, deferIndexes, disableForeignKeyChecks,
                disableUniqueChecks, disableBinlog);
    }
}
