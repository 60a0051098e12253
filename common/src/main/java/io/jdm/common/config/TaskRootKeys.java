package io.jdm.common.config;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The keys of the task file's top level ({@link TaskConfig}), in the order {@link TaskReader} reads
 * them. The mappings and lists of rules ({@code target-database}, {@code mysql-instances},
 * {@code routes} ...) are declared by name only: each has a reader and a reference of its own.
 */
public final class TaskRootKeys {
    private static final TaskKey.Declarer K = TaskKey.in(TaskKey.TOP_LEVEL);
    private static final String JDM_ONLY = TaskKey.Declarer.NOT_IN_DM;
    private static final String REQUIRED = TaskKey.Declarer.REQUIRED;
    /**
     * 46 characters at most: the longest table jdm keeps for a task, {@code NAME_syncer_checkpoint},
     * must fit MySQL's 64-character table names.
     */
    private static final Pattern TASK_NAME = Pattern.compile("[A-Za-z0-9_-]{1,46}");
    private static final Pattern META_SCHEMA_NAME = Pattern.compile("[A-Za-z0-9_]{1,64}");
    /** DM's precheck item names (dm/config/checking_item.go). */
    private static final List<String> CHECKING_ITEMS = List.of("all", "dump_privilege", "replication_privilege",
            "version", "server_id", "binlog_enable", "binlog_format", "binlog_row_image", "table_schema",
            "schema_of_shard_tables", "auto_increment_ID", "online_ddl", "binlog_db", "meta_position",
            "conn_number", "target_privilege", "empty_region", "region_distribution", "downstream_version",
            "free_space", "downstream_mutex_features", "downstream_table_empty", "primary_key");
    private static final String A_FILE = "a file, relative to the task file";

    public static final TaskKey<String> NAME = K.matching("name", null, TASK_NAME,
            "NAME_syncer_checkpoint must fit the target's 64-character table names", REQUIRED,
            "The task's name: it names the task's checkpoint tables and its dump directory.");
    /** Required: {@link TaskReader} checks what the mode needs only once it is known. */
    public static final TaskKey<TaskMode> TASK_MODE = K.choice("task-mode", null, taskModes(), REQUIRED,
            "What the task does: full dumps and loads, incremental follows the binlog, all does both; dump, load "
                    + "and load&sync are parts of all.");
    public static final TaskKey<String> META_SCHEMA = K.matching("meta-schema", "jdm_meta", META_SCHEMA_NAME, "",
            "dm_meta", "The schema in the target that holds jdm's checkpoints (created if missing).");
    /** Read with the port checked; the token and TLS keys are read together by {@link StatusReader}. */
    public static final TaskKey<String> STATUS_ADDR = K.custom("status-addr", "host:port", "127.0.0.1:8261",
            "127.0.0.1:8261", 1, 0, "port 1..65535", JDM_ONLY,
            "Where the daemon serves /status (JSON), /metrics (Prometheus) and the task's pause, resume and stop.",
            StatusReader::addr);
    public static final TaskKey<String> STATUS_TOKEN = K.custom("status-token", "${VAR}", null, "none", 1, 0,
            "one environment variable; " + StatusReader.MIN_TOKEN_LENGTH + " characters at least", JDM_ONLY,
            "The bearer token that pause, resume and stop need, from the environment; see security.md.", null);
    public static final TaskKey<String> STATUS_TOKEN_FILE = K.custom("status-token-file", "path", null, "none",
            1, 0, A_FILE, JDM_ONLY, "The file that holds the bearer token instead; set one of the two.", null);
    public static final TaskKey<String> STATUS_TLS_CERT = K.custom("status-tls-cert", "path", null, "none",
            1, 0, A_FILE, JDM_ONLY,
            "The certificate chain (PEM) that makes status-addr speak HTTPS only; set with status-tls-key.", null);
    public static final TaskKey<String> STATUS_TLS_KEY = K.custom("status-tls-key", "path", null, "none",
            1, 0, A_FILE, JDM_ONLY, "The private key (PEM) of status-tls-cert.", null);
    public static final TaskKey<Boolean> CASE_SENSITIVE = K.bool("case-sensitive", false, "false",
            "Match schema and table names with their case; false matches them ignoring case.");
    public static final TaskKey<Boolean> ONLINE_DDL = K.bool("online-ddl", true, "true",
            "Follow gh-ost and pt-online-schema-change: skip the shadow tables' rows, replay the ALTER at cut-over.");
    /** Read by {@link TaskReader} with {@link #ONLINE_DDL}, which either scheme turns on. */
    public static final TaskKey<String> ONLINE_DDL_SCHEME = K.custom("online-ddl-scheme", "one of gh-ost, pt",
            "", "\"\"", 1, 0, "", "\"\"", "DM's name of online-ddl before v2.0.6: either scheme turns online-ddl on.",
            null);
    public static final TaskKey<List<String>> SHADOW_TABLE_RULES = K.custom("shadow-table-rules",
            "list of regular expressions", List.of(OnlineDdlConfig.DEFAULT_SHADOW_RULE),
            "[\"" + OnlineDdlConfig.DEFAULT_SHADOW_RULE + "\"]", 1, 0, "the first group captures the real table",
            "the same", "The names of the online-DDL tools' shadow tables; an empty list is the default.", null);
    public static final TaskKey<List<String>> TRASH_TABLE_RULES = K.custom("trash-table-rules",
            "list of regular expressions", List.of(OnlineDdlConfig.DEFAULT_TRASH_RULE),
            "[\"" + OnlineDdlConfig.DEFAULT_TRASH_RULE + "\"]", 1, 0, "", "the same",
            "The names of the online-DDL tools' old and deleted tables; an empty list is the default.", null);
    public static final TaskKey<Optional<String>> TIMEZONE = K.custom("timezone", "time zone", Optional.empty(),
            "none", 1, 0, "an offset such as +08:00 or a name such as Asia/Shanghai", "none",
            "Deprecated in DM: checked, then ignored with a warning.", TaskRootKeys::timezone);
    public static final TaskKey<List<String>> IGNORE_CHECKING_ITEMS = K.custom("ignore-checking-items",
            "list of DM's check names", List.of(), "none", 1, 0, "DM's names (dm/config/checking_item.go)", "none",
            "Prechecks to skip.", TaskRootKeys::checkingItems);
    public static final TaskKey<Void> TARGET_DATABASE = K.nested("target-database", "mapping",
            "The server that receives the data (required).");
    public static final TaskKey<Void> MYDUMPERS = K.nested("mydumpers", "mapping of names",
            "Dump settings by name; the keys are below.");
    public static final TaskKey<Void> BLOCK_ALLOW_LIST = K.nested("block-allow-list", "mapping of names",
            "Which schemas and tables move, by name.");
    public static final TaskKey<Void> BLACK_WHITE_LIST = K.nested("black-white-list", "mapping of names",
            "DM's name of block-allow-list before v2.0.0, read where block-allow-list is empty.");
    public static final TaskKey<Void> ROUTES = K.nested("routes", "mapping of names",
            "Table renames on the way to the target, by name.");
    public static final TaskKey<Void> FILTERS = K.nested("filters", "mapping of names",
            "Binlog event filters, by name.");
    public static final TaskKey<Void> EXPRESSION_FILTER = K.nested("expression-filter", "mapping of names",
            "Row filters by SQL expression, by name.");
    public static final TaskKey<Void> LOADERS = K.nested("loaders", "mapping of names",
            "Load settings by name; the keys are below.");
    public static final TaskKey<Void> SYNCERS = K.nested("syncers", "mapping of names",
            "Binlog sync settings by name; the keys are below.");
    public static final TaskKey<Void> VALIDATORS = K.nested("validators", "mapping of names",
            "Continuous validation settings by name; the keys are below.");
    public static final TaskKey<Void> MYSQL_INSTANCES = K.nested("mysql-instances", "list of mappings",
            "The source servers and the rules each one uses (required).");
    /** Read by {@link TaskReader} with {@link #IS_SHARDING}, DM's switch before it. */
    public static final TaskKey<ShardMode> SHARD_MODE = K.custom("shard-mode", "one of pessimistic, optimistic",
            ShardMode.NONE, "none", 1, 0, "", "none",
            "How the DDL of shards merged into one table is coordinated; left out, there is no shard merge.", null);
    public static final TaskKey<Boolean> IS_SHARDING = K.bool("is-sharding", false, "false",
            "DM's switch before shard-mode: true without shard-mode means pessimistic.");
    public static final TaskKey<Void> STRICT_OPTIMISTIC_SHARD_MODE = K.ignored("strict-optimistic-shard-mode",
            "jdm's optimistic mode always stops on a conflict; ignored");
    public static final TaskKey<Void> COLUMN_MAPPINGS = K.refused("column-mappings",
            "column mapping is not supported by jdm; remove it");
    public static final TaskKey<Void> CLEAN_DUMP_FILE = K.ignored("clean-dump-file",
            "jdm leaves the dump directory in place; ignored");
    public static final TaskKey<Void> COLLATION_COMPATIBLE = K.ignored("collation_compatible",
            "jdm replays DDL with the collations it was written with (DM's loose, the default); ignored");
    public static final TaskKey<Void> ENABLE_HEARTBEAT = K.ignored("enable-heartbeat", DmKeys.DEPRECATED_IN_DM);
    public static final TaskKey<Void> HEARTBEAT_UPDATE_INTERVAL = K.ignored("heartbeat-update-interval",
            DmKeys.DEPRECATED_IN_DM);
    public static final TaskKey<Void> HEARTBEAT_REPORT_INTERVAL = K.ignored("heartbeat-report-interval",
            DmKeys.DEPRECATED_IN_DM);
    public static final TaskKey<Void> MYDUMPER_PATH = K.ignored("mydumper-path", DmKeys.DEPRECATED_IN_DM);
    public static final TaskKey<Void> ANSI_QUOTES = K.ignored("ansi-quotes", DmKeys.ANSI_QUOTES);
    public static final TaskKey<Void> REMOVE_META = K.ignored("remove-meta",
            "deprecated in DM; give jdm run --remove-meta (dmctl start-task's flag) to start over; ignored");
    public static final TaskKey<Void> EXPERIMENTAL = K.ignored("experimental",
            "DM's experimental settings; jdm has none; ignored");
    public static final TaskKey<Void> DESCRIPTION = K.ignored("description", "a note for people; ignored");

    /** The DM keys read last, in this order: refused unless empty, or ignored with a warning. */
    public static final List<TaskKey<Void>> DM_ONLY = List.of(COLUMN_MAPPINGS, CLEAN_DUMP_FILE,
            COLLATION_COMPATIBLE, ENABLE_HEARTBEAT, HEARTBEAT_UPDATE_INTERVAL, HEARTBEAT_REPORT_INTERVAL,
            MYDUMPER_PATH, ANSI_QUOTES, REMOVE_META, EXPERIMENTAL, DESCRIPTION);

    /** Every key of the top level, in reading order. */
    public static final List<TaskKey<?>> ALL = K.declared();

    private TaskRootKeys() {
    }

    private static Map<String, TaskMode> taskModes() {
        Map<String, TaskMode> m = new LinkedHashMap<>();
        for (TaskMode t : TaskMode.values()) {
            m.put(t.yamlName(), t);
        }
        return m;
    }

    /** Checked as DM would, then warned about: DM no longer reads it. */
    private static Optional<String> timezone(Section root, TaskKey<Optional<String>> k) {
        String key = k.name();
        Optional<String> tz = root.optionalText(key);
        tz.ifPresent(z -> root.warning(key, DmKeys.DEPRECATED_IN_DM));
        try {
            tz.ifPresent(ZoneId::of);
            return tz;
        } catch (DateTimeException e) {
            root.problem(key, "must be a time zone such as +08:00 or Asia/Shanghai, got " + root.shown(key));
            return k.def();
        }
    }

    private static List<String> checkingItems(Section root, TaskKey<List<String>> k) {
        String key = k.name();
        List<String> items = root.texts(key);
        for (int i = 0; i < items.size(); i++) {
            if (!CHECKING_ITEMS.contains(items.get(i))) {
                root.problem(key + "[" + i + "]", "unknown checking item " + root.shown(key, i)
                        + Suggest.hint(items.get(i), CHECKING_ITEMS));
            }
        }
        return items;
    }
}
