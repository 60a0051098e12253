package io.jdm.common.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A whole task file, validated. Units do not read the named maps directly: they ask for the
 * effective settings of their instance ({@link #mydumper}, {@link #loader}, {@link #syncer},
 * {@link #blockAllowList}, {@link #routes}, {@link #filters}, {@link #expressionFilters}).
 *
 * <p>Effective unit settings come from the instance's own {@code mydumper:}, {@code loader:} or
 * {@code syncer:}, else the config it names, else the entry called {@value #GLOBAL}, else the
 * defaults; the instance's {@code *-thread} overrides apply last. When a
 * task has more than one instance, each instance dumps into (and loads from) a sub-directory of
 * the configured directory named after its source-id, because the dumps of two sources would
 * otherwise overwrite each other's files.
 *
 * <p>{@link #warnings()} are one line each: DM settings read another way or not used, for the
 * caller to show once.
 */
public record TaskConfig(String name, TaskMode taskMode, String metaSchema, StatusConfig status,
                         List<String> ignoreCheckingItems, boolean caseSensitive, OnlineDdlConfig onlineDdl,
                         Optional<String> timezone,
                         DatabaseConfig targetDatabase, List<MySqlInstance> mysqlInstances,
                         Map<String, MydumperConfig> mydumpers, Map<String, LoaderConfig> loaders,
                         Map<String, SyncerConfig> syncers, Map<String, BlockAllowListConfig> blockAllowList,
                         Map<String, RouteConfig> routes, Map<String, FilterConfig> filters,
                         Map<String, ExpressionFilterConfig> expressionFilters, List<String> warnings,
                         ShardMode shardMode, List<String> runSourceIds) {
    /** The config name used by instances that name none. */
    public static final String GLOBAL = "global";
    public static final String DEFAULT_META_SCHEMA = TaskRootKeys.META_SCHEMA.def();
    /** DM follows gh-ost and pt-online-schema-change shadow tables unless online-ddl is false. */
    public static final boolean DEFAULT_ONLINE_DDL = TaskRootKeys.ONLINE_DDL.def();
    public static final String DEFAULT_STATUS_ADDR = StatusConfig.DEFAULT_ADDR;

    public TaskConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(taskMode, "taskMode");
        Objects.requireNonNull(metaSchema, "metaSchema");
        Objects.requireNonNull(status, "status");
        ignoreCheckingItems = List.copyOf(ignoreCheckingItems);
        Objects.requireNonNull(onlineDdl, "onlineDdl");
        Objects.requireNonNull(timezone, "timezone");
        Objects.requireNonNull(targetDatabase, "targetDatabase");
        mysqlInstances = List.copyOf(mysqlInstances);
        mydumpers = ordered(mydumpers);
        loaders = ordered(loaders);
        syncers = ordered(syncers);
        blockAllowList = ordered(blockAllowList);
        routes = ordered(routes);
        filters = ordered(filters);
        expressionFilters = ordered(expressionFilters);
        warnings = List.copyOf(warnings);
        Objects.requireNonNull(shardMode, "shardMode");
        runSourceIds = List.copyOf(runSourceIds);
        List<MySqlInstance> all = mysqlInstances; // the fields are not assigned yet: instance() cannot be used here
        for (String id : runSourceIds) {
            if (all.stream().noneMatch(i -> i.sourceId().equals(id))) {
                throw new IllegalArgumentException("task " + name + " has no source " + id);
            }
        }
    }

    /**
     * The instances this process runs: those of {@link #runSourceIds} when it names some (a task
     * run by one process per source), else all of them. {@link #mysqlInstances} is always the
     * whole task, as every process of the task reads the same file.
     */
    public List<MySqlInstance> runInstances() {
        return runSourceIds.isEmpty() ? mysqlInstances
                : mysqlInstances.stream().filter(i -> runSourceIds.contains(i.sourceId())).toList();
    }

    /** The same task run for only these sources (all of them when empty). */
    public TaskConfig withRunSourceIds(List<String> ids) {
        return new TaskConfig(name, taskMode, metaSchema, status, ignoreCheckingItems, caseSensitive, onlineDdl,
                timezone, targetDatabase, mysqlInstances, mydumpers, loaders, syncers, blockAllowList, routes, filters,
                expressionFilters, warnings, shardMode, ids);
    }

    /** Where the daemon answers ({@code status-addr}). */
    public String statusAddr() {
        return status.addr();
    }

    /** The instance with this source-id. */
    public MySqlInstance instance(String sourceId) {
        return mysqlInstances.stream().filter(i -> i.sourceId().equals(sourceId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("task " + name + " has no source " + sourceId));
    }

    /** The dump settings for this instance, overrides and per-source directory applied. */
    public MydumperConfig mydumper(MySqlInstance instance) {
        MydumperConfig base = pick(mydumpers, instance.mydumperConfigName(), instance.mydumper(), "mydumper",
                () -> MydumperConfig.defaults(name));
        Path dir = base.dir();
        if (dir.equals(MydumperConfig.defaultDir(name))) {
            // DM has no dump dir of its own: it dumps where the loader's dir says
            dir = pick(loaders, instance.loaderConfigName(), instance.loader(), "loader", LoaderConfig::defaults)
                    .dir().orElse(dir);
        }
        MydumperConfig c = base.withDir(perSource(dir, instance));
        return instance.mydumperThread().isPresent() ? c.withThreads(instance.mydumperThread().getAsInt()) : c;
    }

    /** The load settings for this instance; {@link LoaderConfig#dir()} is always present here. */
    public LoaderConfig loader(MySqlInstance instance) {
        LoaderConfig base = pick(loaders, instance.loaderConfigName(), instance.loader(), "loader",
                LoaderConfig::defaults);
        Path dir = base.dir().map(d -> perSource(d, instance)).orElseGet(() -> mydumper(instance).dir());
        LoaderConfig c = base.withDir(dir);
        return instance.loaderThread().isPresent() ? c.withPoolSize(instance.loaderThread().getAsInt()) : c;
    }

    /** The sync settings for this instance; the source file's enable-gtid wins over the syncer's. */
    public SyncerConfig syncer(MySqlInstance instance) {
        SyncerConfig c = pick(syncers, instance.syncerConfigName(), instance.syncer(), "syncer",
                SyncerConfig::defaults);
        if (instance.enableGtid().isPresent()) {
            c = c.with(SyncerKeys.ENABLE_GTID, instance.enableGtid().get());
        }
        return instance.syncerThread().isPresent()
                ? c.with(SyncerKeys.WORKER_COUNT, instance.syncerThread().getAsInt()) : c;
    }

    /** The block-allow-list rule set of this instance, if it names one. */
    public Optional<BlockAllowListConfig> blockAllowList(MySqlInstance instance) {
        return instance.blockAllowList().map(n -> lookup(blockAllowList, n, "block-allow-list rule set"));
    }

    /** The route rules of this instance, in the order it lists them. */
    public List<RouteConfig> routes(MySqlInstance instance) {
        return instance.routeRules().stream().map(n -> lookup(routes, n, "route rule")).toList();
    }

    /** The binlog event filter rules of this instance, in the order it lists them, then those of its DM source file. */
    public List<FilterConfig> filters(MySqlInstance instance) {
        return java.util.stream.Stream.concat(instance.filterRules().stream().map(n -> lookup(filters, n, "filter rule")),
                instance.sourceFilters().stream()).toList();
    }

    /** The expression filter rules of this instance, in the order it lists them. */
    public List<ExpressionFilterConfig> expressionFilters(MySqlInstance instance) {
        return instance.expressionFilters().stream().map(n -> lookup(expressionFilters, n, "expression filter"))
                .toList();
    }

    private Path perSource(Path dir, MySqlInstance instance) {
        return mysqlInstances.size() > 1 ? dir.resolve(instance.sourceId()) : dir;
    }

    private static <T> T pick(Map<String, T> named, Optional<String> wanted, Optional<T> own, String kind,
                              Supplier<T> defaults) {
        if (own.isPresent()) {
            return own.get();
        }
        if (wanted.isPresent()) {
            return lookup(named, wanted.get(), kind + " config");
        }
        T global = named.get(GLOBAL);
        return global != null ? global : defaults.get();
    }

    private static <T> T lookup(Map<String, T> named, String key, String kind) {
        T value = named.get(key);
        if (value == null) {
            throw new IllegalArgumentException("undefined " + kind + " \"" + key + "\"");
        }
        return value;
    }

    private static <T> Map<String, T> ordered(Map<String, T> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(m)));
    }
}
