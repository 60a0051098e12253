package io.jdm.common.config;

import io.jdm.common.position.Flavor;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One source of the task (an entry of {@code mysql-instances:}). The connection comes either from
 * an inline {@code from:} or from a DM source file ({@code source:}); both end up in {@link #from()}.
 * The rule and config names refer to the task's maps and are resolved by {@link TaskConfig}, as are
 * the instance's own unit settings.
 *
 * @param sourceFile the DM source file the connection was read from, if any
 * @param flavor the source's flavor when the source file names it; detected otherwise
 * @param enableGtid the source file's {@code enable-gtid}; overrides the syncer's when present
 * @param serverId the server id the binlog reader presents to the source
 * @param meta where incremental replication starts when there is no checkpoint yet
 * @param mydumper the instance's own {@code mydumper:} (DM's inline form), used in place of a named config
 * @param loader the instance's own {@code loader:}, used in place of a named config
 * @param syncer the instance's own {@code syncer:}, used in place of a named config
 * @param expressionFilters the names of its {@code expression-filter} rules
 * @param sourceFilters the binlog event filters of its DM source file, which apply beside {@link #filterRules}
 * @param validator its {@code validator-config-name}'s entry of {@code validators:}; DM's defaults (mode none) without one
 */
public record MySqlInstance(String sourceId, DatabaseConfig from, Optional<Path> sourceFile,
                            Optional<Flavor> flavor, Optional<Boolean> enableGtid, OptionalLong serverId,
                            Optional<BinlogMeta> meta, Optional<String> blockAllowList, List<String> routeRules,
                            List<String> filterRules, List<String> expressionFilters,
                            Optional<String> mydumperConfigName,
                            Optional<MydumperConfig> mydumper, Optional<String> loaderConfigName,
                            Optional<LoaderConfig> loader, Optional<String> syncerConfigName,
                            Optional<SyncerConfig> syncer, OptionalInt mydumperThread, OptionalInt loaderThread,
                            OptionalInt syncerThread, List<FilterConfig> sourceFilters,
                            ValidatorConfig validator) {
    public MySqlInstance {
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(sourceFile, "sourceFile");
        Objects.requireNonNull(flavor, "flavor");
        Objects.requireNonNull(enableGtid, "enableGtid");
        Objects.requireNonNull(serverId, "serverId");
        Objects.requireNonNull(meta, "meta");
        Objects.requireNonNull(blockAllowList, "blockAllowList");
        routeRules = List.copyOf(routeRules);
        filterRules = List.copyOf(filterRules);
        expressionFilters = List.copyOf(expressionFilters);
        Objects.requireNonNull(mydumperConfigName, "mydumperConfigName");
        Objects.requireNonNull(mydumper, "mydumper");
        Objects.requireNonNull(loaderConfigName, "loaderConfigName");
        Objects.requireNonNull(loader, "loader");
        Objects.requireNonNull(syncerConfigName, "syncerConfigName");
        Objects.requireNonNull(syncer, "syncer");
        Objects.requireNonNull(mydumperThread, "mydumperThread");
        Objects.requireNonNull(loaderThread, "loaderThread");
        Objects.requireNonNull(syncerThread, "syncerThread");
        sourceFilters = List.copyOf(sourceFilters);
        Objects.requireNonNull(validator, "validator");
    }

    /** A source with only a connection: no rules, no named configs, no overrides. */
    public static MySqlInstance of(String sourceId, DatabaseConfig from) {
        return new MySqlInstance(sourceId, from, Optional.empty(), Optional.empty(), Optional.empty(),
                OptionalLong.empty(), Optional.empty(), Optional.empty(), List.of(), List.of(), List.of(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty(), List.of(), ValidatorConfig.defaults());
    }
}
