package io.jdm.common.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The top level of a task file: each key through its declaration ({@link TaskRootKeys}), which holds
 * its name and default; the parts are read by {@link DatabaseReader}, {@link UnitReaders} ...
 */
final class TaskReader {
    static final Pattern SOURCE_ID = Pattern.compile("[A-Za-z0-9_.-]{1,32}");
    static final String SOURCE_ID_RULE = "match [A-Za-z0-9_.-]{1,32}";
    static final long MAX_SERVER_ID = 4_294_967_295L;

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
        String name = TaskRootKeys.NAME.read(root);
        TaskMode mode = TaskRootKeys.TASK_MODE.read(root);
        String metaSchema = TaskRootKeys.META_SCHEMA.read(root);
        StatusConfig status = StatusReader.read(root);
        boolean caseSensitive = TaskRootKeys.CASE_SENSITIVE.read(root);
        OnlineDdlConfig onlineDdl = onlineDdl();
        Optional<String> timezone = TaskRootKeys.TIMEZONE.read(root);
        List<String> ignoreChecks = TaskRootKeys.IGNORE_CHECKING_ITEMS.read(root);
        DatabaseConfig target = DatabaseReader.required(root, TaskRootKeys.TARGET_DATABASE.name());
        Map<String, MydumperConfig> mydumpers = root.named(TaskRootKeys.MYDUMPERS.name(),
                (n, s) -> UnitReaders.mydumper(s, name));
        Optional<String> dmDirSuffix = mydumpers.values().stream()
                .allMatch(m -> m.dir().equals(MydumperConfig.defaultDir(name))) ? Optional.of(name) : Optional.empty();
        Rules rules = new Rules(
                blockAllowList(),
                root.named(TaskRootKeys.ROUTES.name(), RuleReaders::route),
                root.named(TaskRootKeys.FILTERS.name(), RuleReaders::filter),
                root.named(TaskRootKeys.EXPRESSION_FILTER.name(), RuleReaders::expressionFilter),
                mydumpers,
                root.named(TaskRootKeys.LOADERS.name(), (n, s) -> UnitReaders.loader(s, dmDirSuffix)),
                root.named(TaskRootKeys.SYNCERS.name(), (n, s) -> UnitReaders.syncer(s)),
                root.named(TaskRootKeys.VALIDATORS.name(), (n, s) -> UnitReaders.validator(s)));
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

    /** DM still reads its pre-2.0 name, black-white-list, where block-allow-list is empty. */
    private Map<String, BlockAllowListConfig> blockAllowList() {
        Map<String, BlockAllowListConfig> current = root.named(TaskRootKeys.BLOCK_ALLOW_LIST.name(),
                RuleReaders::blockAllowList);
        String oldName = TaskRootKeys.BLACK_WHITE_LIST.name();
        Map<String, BlockAllowListConfig> old = root.named(oldName, RuleReaders::blockAllowList);
        if (old.isEmpty()) {
            return current;
        }
        root.warning(oldName, current.isEmpty() ? DmKeys.OLD_BLOCK_ALLOW_LIST
                : DmKeys.OLD_BLOCK_ALLOW_LIST_IGNORED);
        return current.isEmpty() ? old : current;
    }

    /**
     * online-ddl-scheme is DM's name before v2.0.6; either scheme turns online-ddl on, as in DM. The
     * rules left out (or empty) are DM's defaults.
     */
    private OnlineDdlConfig onlineDdl() {
        boolean on = onlineDdlSwitch();
        List<String> shadow = rules(TaskRootKeys.SHADOW_TABLE_RULES.name(), true);
        List<String> trash = rules(TaskRootKeys.TRASH_TABLE_RULES.name(), false);
        return new OnlineDdlConfig(on, shadow.isEmpty() ? TaskRootKeys.SHADOW_TABLE_RULES.def() : shadow,
                trash.isEmpty() ? TaskRootKeys.TRASH_TABLE_RULES.def() : trash);
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
        boolean on = TaskRootKeys.ONLINE_DDL.read(root);
        String key = TaskRootKeys.ONLINE_DDL_SCHEME.name();
        Optional<String> scheme = root.text(key).map(String::strip);
        if (scheme.isEmpty() || scheme.get().equals(TaskRootKeys.ONLINE_DDL_SCHEME.def())) {
            root.ignored(key, "empty, as DM's default; ignored");
            return on;
        }
        if (!ONLINE_DDL_SCHEMES.contains(scheme.get())) {
            root.problem(key, "must be gh-ost or pt, got " + root.shown(key));
            return on;
        }
        root.warning(key, "DM's name before v2.0.6; read as online-ddl: true");
        return true;
    }

    /** Refused unless empty, or ignored with a warning. */
    private void dmOnlyKeys() {
        TaskRootKeys.DM_ONLY.forEach(k -> k.read(root));
    }

    /** is-sharding is DM's switch before shard-mode: true meant pessimistic. */
    private ShardMode shardMode() {
        String key = TaskRootKeys.SHARD_MODE.name();
        String mode = root.text(key).map(String::strip).orElse("");
        ShardMode out = TaskRootKeys.SHARD_MODE.def();
        if (mode.equals("pessimistic")) {
            out = ShardMode.PESSIMISTIC;
        } else if (mode.equals("optimistic")) {
            out = ShardMode.OPTIMISTIC;
        } else if (!mode.isEmpty()) {
            root.problem(key, "must be pessimistic or optimistic (or left out), got " + mode);
        }
        String old = TaskRootKeys.IS_SHARDING.name();
        Optional<Boolean> isSharding = root.optionalBool(old);
        if (isSharding.orElse(TaskRootKeys.IS_SHARDING.def()) && out == ShardMode.NONE) {
            out = ShardMode.PESSIMISTIC; // DM: is-sharding true and no shard-mode means pessimistic
        } else if (isSharding.isPresent()) {
            root.warning(old, "DM's switch before shard-mode; false is the default; ignored");
        }
        TaskRootKeys.STRICT_OPTIMISTIC_SHARD_MODE.read(root);
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

    /** Helpers shared by the instance reader. */
    static List<String> definedNames(Map<String, ?> defined) {
        return defined.isEmpty() ? List.of("none") : new ArrayList<>(defined.keySet());
    }
}
