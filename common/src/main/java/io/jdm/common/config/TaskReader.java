package io.jdm.common.config;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** The top level of a task file; the parts are read by {@link DatabaseReader}, {@link UnitReaders} ... */
final class TaskReader {
    static final Pattern SOURCE_ID = Pattern.compile("[A-Za-z0-9_.-]{1,32}");
    static final String SOURCE_ID_RULE = "match [A-Za-z0-9_.-]{1,32}";
    static final long MAX_SERVER_ID = 4_294_967_295L;

    /**
     * 46 characters at most: the longest table jdm keeps for a task, {@code NAME_syncer_checkpoint},
     * must fit MySQL's 64-character table names.
     */
    private static final Pattern TASK_NAME = Pattern.compile("[A-Za-z0-9_-]{1,46}");
    private static final Pattern META_SCHEMA = Pattern.compile("[A-Za-z0-9_]{1,64}");
    private static final Map<String, TaskMode> TASK_MODES = taskModes();
    /** DM's precheck item names (dm/config/checking_item.go). */
    private static final List<String> CHECKING_ITEMS = List.of("all", "dump_privilege", "replication_privilege",
            "version", "server_id", "binlog_enable", "binlog_format", "binlog_row_image", "table_schema",
            "schema_of_shard_tables", "auto_increment_ID", "online_ddl", "binlog_db", "meta_position",
            "conn_number", "target_privilege", "empty_region", "region_distribution", "downstream_version",
            "free_space", "downstream_mutex_features", "downstream_table_empty", "primary_key");
    private static final List<String> ONLINE_DDL_SCHEMES = List.of("gh-ost", "pt");

    private final Section root;
    private final SourceFiles sources;

    private TaskReader(Section root, SourceFiles sources) {
        this.root = root;
        this.sources = sources;
    }

    static TaskConfig read(Section root, SourceFiles sources) {
        return new TaskReader(root, sources).read();
    }

    private TaskConfig read() {
        String name = root.matching("name", TASK_NAME,
                "match [A-Za-z0-9_-]{1,46} (NAME_syncer_checkpoint must fit the target's 64-character table names)",
                null);
        TaskMode mode = root.choice("task-mode", null, TASK_MODES);
        String metaSchema = root.matching("meta-schema", META_SCHEMA, "match [A-Za-z0-9_]{1,64}",
                TaskConfig.DEFAULT_META_SCHEMA);
        StatusConfig status = StatusReader.read(root);
        boolean caseSensitive = root.bool("case-sensitive", false);
        OnlineDdlConfig onlineDdl = onlineDdl();
        Optional<String> timezone = timezone();
        List<String> ignoreChecks = checkingItems();
        DatabaseConfig target = DatabaseReader.required(root, "target-database");
        Map<String, MydumperConfig> mydumpers = root.named("mydumpers", (n, s) -> UnitReaders.mydumper(s, name));
        Optional<String> dmDirSuffix = mydumpers.values().stream()
                .allMatch(m -> m.dir().equals(MydumperConfig.defaultDir(name))) ? Optional.of(name) : Optional.empty();
        Rules rules = new Rules(
                blockAllowList(),
                root.named("routes", RuleReaders::route),
                root.named("filters", RuleReaders::filter),
                root.named("expression-filter", RuleReaders::expressionFilter),
                mydumpers,
                root.named("loaders", (n, s) -> UnitReaders.loader(s, dmDirSuffix)),
                root.named("syncers", (n, s) -> UnitReaders.syncer(s)),
                root.named("validators", (n, s) -> UnitReaders.validator(s)));
        List<MySqlInstance> instances = new InstanceReader(rules, mode, sources, name, dmDirSuffix).readAll(root);
        ShardMode shardMode = shardMode();
        dmOnlyKeys();
        root.finish();
        TaskConfig task = new TaskConfig(name, mode == null ? TaskMode.ALL : mode, metaSchema, status,
                ignoreChecks, caseSensitive, onlineDdl, timezone, target, instances, rules.mydumpers(),
                rules.loaders(), rules.syncers(), rules.blockAllowList(), rules.routes(), rules.filters(),
                rules.expressionFilters(), root.ctx().warnings(), shardMode, List.of());
        if (mode != null) {
            checkLoadReadsDump(task);
        }
        return task;
    }

    /** The named maps instances refer to. */
    record Rules(Map<String, BlockAllowListConfig> blockAllowList, Map<String, RouteConfig> routes,
                 Map<String, FilterConfig> filters, Map<String, ExpressionFilterConfig> expressionFilters,
                 Map<String, MydumperConfig> mydumpers,
                 Map<String, LoaderConfig> loaders, Map<String, SyncerConfig> syncers,
                 Map<String, ValidatorConfig> validators) {
    }

    private Optional<String> timezone() {
        Optional<String> tz = root.optionalText("timezone");
        tz.ifPresent(z -> root.warning("timezone", DmKeys.DEPRECATED_IN_DM));
        try {
            tz.ifPresent(ZoneId::of);
            return tz;
        } catch (DateTimeException e) {
            root.problem("timezone", "must be a time zone such as +08:00 or Asia/Shanghai, got "
                    + root.shown("timezone"));
            return Optional.empty();
        }
    }

    private List<String> checkingItems() {
        List<String> items = root.texts("ignore-checking-items");
        for (int i = 0; i < items.size(); i++) {
            if (!CHECKING_ITEMS.contains(items.get(i))) {
                root.problem("ignore-checking-items[" + i + "]", "unknown checking item "
                        + root.shown("ignore-checking-items", i) + Suggest.hint(items.get(i), CHECKING_ITEMS));
            }
        }
        return items;
    }

    /** DM still reads its pre-2.0 name, black-white-list, where block-allow-list is empty. */
    private Map<String, BlockAllowListConfig> blockAllowList() {
        Map<String, BlockAllowListConfig> current = root.named("block-allow-list", RuleReaders::blockAllowList);
        Map<String, BlockAllowListConfig> old = root.named("black-white-list", RuleReaders::blockAllowList);
        if (old.isEmpty()) {
            return current;
        }
        root.warning("black-white-list", current.isEmpty() ? DmKeys.OLD_BLOCK_ALLOW_LIST
                : DmKeys.OLD_BLOCK_ALLOW_LIST_IGNORED);
        return current.isEmpty() ? old : current;
    }

    /**
     * online-ddl-scheme is DM's name before v2.0.6; either scheme turns online-ddl on, as in DM. The
     * rules left out (or empty) are DM's defaults.
     */
    private OnlineDdlConfig onlineDdl() {
        boolean on = onlineDdlSwitch();
        List<String> shadow = rules("shadow-table-rules", true);
        List<String> trash = rules("trash-table-rules", false);
        return new OnlineDdlConfig(on, shadow.isEmpty() ? OnlineDdlConfig.DEFAULT.shadowTableRules() : shadow,
                trash.isEmpty() ? OnlineDdlConfig.DEFAULT.trashTableRules() : trash);
    }

    /** The valid rules of {@code key}; each invalid one is a problem. A shadow rule must capture the real table. */
    private List<String> rules(String key, boolean shadow) {
        List<String> all = root.texts(key);
        List<String> valid = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            String at = key + "[" + i + "]";
            try {
                if (shadow && Pattern.compile(all.get(i)).matcher("").groupCount() < 1) {
                    root.problem(at, "must capture the real table's name in its first group, as DM's default "
                            + OnlineDdlConfig.DEFAULT_SHADOW_RULE + " does, got " + root.shown(key, i));
                } else {
                    Pattern.compile(all.get(i));
                    valid.add(all.get(i));
                }
            } catch (PatternSyntaxException e) {
                root.problem(at, "invalid regular expression " + root.shown(key, i) + ": " + e.getDescription());
            }
        }
        return valid;
    }

    private boolean onlineDdlSwitch() {
        boolean on = root.bool("online-ddl", TaskConfig.DEFAULT_ONLINE_DDL);
        Optional<String> scheme = root.text("online-ddl-scheme").map(String::strip);
        if (scheme.isEmpty() || scheme.get().isEmpty()) {
            root.ignored("online-ddl-scheme", "empty, as DM's default; ignored");
            return on;
        }
        if (!ONLINE_DDL_SCHEMES.contains(scheme.get())) {
            root.problem("online-ddl-scheme", "must be gh-ost or pt, got " + root.shown("online-ddl-scheme"));
            return on;
        }
        root.warning("online-ddl-scheme", "DM's name before v2.0.6; read as online-ddl: true");
        return true;
    }

    private void dmOnlyKeys() {
        root.unsupportedUnlessEmpty("column-mappings", "column mapping is not supported by jdm; remove it");
        root.ignored("clean-dump-file", "jdm leaves the dump directory in place; ignored");
        root.ignored("collation_compatible", "jdm replays DDL with the collations it was written with "
                + "(DM's loose, the default); ignored");
        for (String key : List.of("enable-heartbeat", "heartbeat-update-interval", "heartbeat-report-interval",
                "mydumper-path")) {
            root.ignored(key, DmKeys.DEPRECATED_IN_DM);
        }
        root.ignored("ansi-quotes", DmKeys.ANSI_QUOTES);
        root.ignored("remove-meta", "deprecated in DM; give jdm run --remove-meta (dmctl start-task's flag) to "
                + "start over; ignored");
        root.ignored("experimental", "DM's experimental settings; jdm has none; ignored");
        root.ignored("description", "a note for people; ignored");
    }

    /** is-sharding is DM's switch before shard-mode: true meant pessimistic. */
    private ShardMode shardMode() {
        String mode = root.text("shard-mode").map(String::strip).orElse("");
        ShardMode out = ShardMode.NONE;
        if (mode.equals("pessimistic")) {
            out = ShardMode.PESSIMISTIC;
        } else if (mode.equals("optimistic")) {
            out = ShardMode.OPTIMISTIC;
        } else if (!mode.isEmpty()) {
            root.problem("shard-mode", "must be pessimistic or optimistic (or left out), got " + mode);
        }
        Optional<Boolean> isSharding = root.optionalBool("is-sharding");
        if (isSharding.orElse(false) && out == ShardMode.NONE) {
            out = ShardMode.PESSIMISTIC; // DM: is-sharding true and no shard-mode means pessimistic
        } else if (isSharding.isPresent()) {
            root.warning("is-sharding", "DM's switch before shard-mode; false is the default; ignored");
        }
        root.ignored("strict-optimistic-shard-mode", "jdm's optimistic mode always stops on a conflict; ignored");
        return out;
    }

    /**
     * In full and all modes the load reads what the dump wrote; a loader dir that points elsewhere
     * would load an old dump or nothing.
     */
    private void checkLoadReadsDump(TaskConfig task) {
        if (!task.taskMode().dumpsAndLoads()) {
            return;
        }
        Map<String, Boolean> reported = new HashMap<>();
        for (int k = 0; k < task.mysqlInstances().size(); k++) {
            MySqlInstance i = task.mysqlInstances().get(k);
            String loaderName = i.loaderConfigName().orElse(TaskConfig.GLOBAL);
            LoaderConfig chosen = i.loader().orElseGet(() -> task.loaders().get(loaderName));
            String where = i.loader().isPresent() ? "mysql-instances[" + k + "].loader" : "loaders." + loaderName;
            if (chosen == null || chosen.dir().isEmpty() || reported.containsKey(where)) {
                continue;
            }
            try {
                var dump = task.mydumper(i).dir();
                if (!dump.normalize().equals(task.loader(i).dir().orElseThrow().normalize())) {
                    reported.put(where, true);
                    root.problem(where + ".dir", "must be the dump directory when task-mode is "
                            + "full or all; leave it out and the load reads what the dump wrote");
                }
            } catch (IllegalArgumentException undefinedName) {
                // already reported as an undefined reference
            }
        }
    }

    private static Map<String, TaskMode> taskModes() {
        Map<String, TaskMode> m = new LinkedHashMap<>();
        for (TaskMode t : TaskMode.values()) {
            m.put(t.yamlName(), t);
        }
        return m;
    }

    /** Helpers shared by the instance reader. */
    static List<String> definedNames(Map<String, ?> defined) {
        return defined.isEmpty() ? List.of("none") : new ArrayList<>(defined.keySet());
    }
}
