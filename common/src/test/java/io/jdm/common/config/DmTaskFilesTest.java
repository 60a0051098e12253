package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.filter.RoutedName;
import io.jdm.common.filter.TableRouter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Task and source files copied from DM's own integration tests (see dm-files/README.md), read with
 * their source files given as {@code --source} would give them. Those that use a DM feature jdm
 * lacks are refused by name, and nothing else; the rest load, with the values DM would use.
 */
class DmTaskFilesTest {
    private static final Path ROOT = Path.of("src/test/resources/dm-files");

    private static final List<String> SHARDING_SOURCES = List.of("../sharding/source1.yaml", "../sharding/source2.yaml");

    /** Source files of a task file that are not source1.yaml and source2.yaml. */
    private static final Map<String, List<String>> SOURCES = Map.of(
            "tls/dm-task-no-tls.yaml", List.of("source-no-tls.yaml"),
            "shardddl1/double-source-pessimistic.yaml", SHARDING_SOURCES,
            "sequence_sharding", SHARDING_SOURCES,
            "shardddl_optimistic/double-source-optimistic.yaml", SHARDING_SOURCES);

    private static final Map<String, Consumer<TaskConfig>> LOADS = Map.ofEntries(
            // validators: DM's continuous validation, read with DM's values
            Map.entry("dmctl_basic/get_task.yaml", t -> {
                ValidatorConfig v = t.mysqlInstances().get(1).validator();
                assertEquals(ValidatorConfig.defaults(), v, "dmctl's get-task output holds DM's defaults, mode none");
            }),
            Map.entry("dmctl_command", t -> {
                ValidatorConfig v = t.mysqlInstances().get(0).validator();
                assertEquals(ValidatorConfig.Mode.FULL, v.mode());
                assertEquals(1, v.workerCount());
                assertEquals(Duration.ofSeconds(1), v.rowErrorDelay());
                assertEquals(Duration.ofSeconds(1), v.checkInterval());
            }),
            Map.entry("validator_checkpoint", t -> {
                ValidatorConfig v = t.mysqlInstances().get(1).validator();
                assertEquals(ValidatorConfig.Mode.FULL, v.mode());
                assertEquals(Duration.ofMinutes(30), v.rowErrorDelay());
                assertEquals(Duration.ofNanos(1), v.metaFlushInterval());
                assertEquals(500L << 20, v.maxPendingRowSize());
                assertEquals(1000, v.maxPendingRowCount());
                assertEquals(100, v.batchQuerySize(), "DM's default");
            }),
            Map.entry("case_sensitive", t -> {
                assertEquals(true, t.caseSensitive());
                assertEquals(List.of("Upper_DB*", "lower_db"), t.blockAllowList().get("instance").doDbs(),
                        "black-white-list read as block-allow-list");
            }),
            Map.entry("foreign_key", t -> assertEquals(1, t.mysqlInstances().size())),
            Map.entry("expression_filter", t -> {
                List<ExpressionFilterConfig> rules = t.expressionFilters(t.mysqlInstances().get(0));
                assertEquals(30, rules.size());
                assertEquals("(JSON_EXTRACT(`c_json`, '$.id') = 2)", rules.get(29).insert().orElseThrow().sql());
            }),
            Map.entry("expression_filter/dm-task2.yaml", t -> {
                ExpressionFilterConfig both = t.expressionFilters().get("update_old_and_new");
                assertEquals(List.of("expr_filter", "t5", "c = 1", "c = 2"), List.of(both.schema(), both.table(),
                        both.updateOld().orElseThrow().text(), both.updateNew().orElseThrow().text()));
                assertEquals(9, t.expressionFilters(t.mysqlInstances().get(0)).size());
            }),
            Map.entry("dmctl_basic", t -> {
                // source1.yaml's own filters apply to that source, beside the task's filter-rules
                MySqlInstance s1 = t.mysqlInstances().get(0);
                List<FilterConfig> f = t.filters(s1);
                assertEquals(s1.filterRules().size() + 2, f.size(), f.toString());
                FilterConfig own = f.get(f.size() - 2);
                assertEquals(List.of("dmctl", "t_1", "alter table .* add column aaa int", "IGNORE"), List.of(
                        own.schemaPattern(), own.tablePattern().orElseThrow(), own.sqlPatterns().get(0),
                        own.action().name()));
                assertEquals(t.filters(t.mysqlInstances().get(1)).size(),
                        t.mysqlInstances().get(1).filterRules().size(), "source2.yaml has none");
            }),
            Map.entry("incompatible_ddl_changes", t -> assertEquals(List.of(EventType.INCOMPATIBLE_DDL_CHANGES),
                    t.filters().get("filter-01").events())),
            Map.entry("incompatible_ddl_changes/dm-task1.yaml", t -> {
                List<EventType> events = t.filters().get("filter-01").events();
                assertEquals(27, events.size(), "every name but split table partition (TiDB's own) is read");
                assertTrue(events.stream().allMatch(EventType.INCOMPATIBLE_DDL_CHANGES::covers), events.toString());
            }),
            Map.entry("full_mode", t -> {
                assertEquals(TaskMode.FULL, t.taskMode());
                MySqlInstance i = t.mysqlInstances().get(0);
                assertEquals(Path.of("./dumped_data.test/mysql-replica-01"), t.mydumper(i).dir(),
                        "DM dumps into <loaders dir>.<task name>, one directory per source here");
                assertEquals(t.mydumper(i).dir(), t.loader(i).dir().orElseThrow());
                assertEquals(16, t.syncer(i).workerCount());
                assertEquals(64, t.mydumper(i).chunkFilesizeMb());
            }),
            Map.entry("gtid", t -> assertEquals(2, t.mysqlInstances().size())),
            Map.entry("http_apis", t -> assertEquals(100, t.mydumper(t.mysqlInstances().get(0)).statementSize())),
            // all_mode's expression filter: a DELETE rule of one table of one of its two sources
            Map.entry("all_mode/dm-task-expression-filter.yaml", t -> {
                assertEquals(List.of("delete-30"), t.mysqlInstances().get(0).expressionFilters());
                assertEquals(List.of(), t.mysqlInstances().get(1).expressionFilters());
                ExpressionFilterConfig f = t.expressionFilters(t.mysqlInstances().get(0)).get(0);
                assertEquals("id = 30", f.delete().orElseThrow().text());
            }),
            Map.entry("all_mode/dm-task-no-gtid.yaml", t -> assertEquals(100,
                    t.mydumper(t.mysqlInstances().get(0)).statementSize(), "extra-args: --statement-size=100")),
            Map.entry("all_mode/regexpr-task.yaml", DmTaskFilesTest::instancesOwnLoader),
            Map.entry("tls/dm-task-no-tls.yaml", t -> {
                assertEquals(Optional.empty(), t.targetDatabase().tls(), "every security key empty");
                assertEquals(Optional.empty(), t.mysqlInstances().get(0).from().tls());
            }),
            Map.entry("many_tables", t -> assertEquals(100, t.mydumper(t.mysqlInstances().get(0)).statementSize(),
                    "a bound below one row: one row per statement")),
            Map.entry("start_task", t -> assertEquals(100, t.mydumper(t.mysqlInstances().get(0)).statementSize())),
            Map.entry("mariadb_source", t -> assertEquals("127.0.0.1", t.mysqlInstances().get(0).from().host())),
            Map.entry("new_relay", t -> assertEquals(TaskMode.ALL, t.taskMode())),
            Map.entry("only_dml", t -> assertEquals(2, t.mysqlInstances().size())),
            Map.entry("sql_mode", t -> {
                MySqlInstance i = t.mysqlInstances().get(0);
                assertEquals(0, t.mydumper(i).chunkFilesizeMb(), "chunk-filesize: 0 is no size limit");
                assertEquals(4000, t.mydumper(i).statementSize(), "from extra-args --statement-size=4000");
            }),
            Map.entry("sync_collation", t -> assertEquals(2, t.mysqlInstances().size())),
            // is-sharding: true without shard-mode is DM's pessimistic mode
            Map.entry("online_ddl", t -> assertEquals(ShardMode.PESSIMISTIC, t.shardMode())),
            Map.entry("safe_mode", t -> assertEquals(ShardMode.PESSIMISTIC, t.shardMode())),
            Map.entry("sharding", t -> assertEquals(ShardMode.PESSIMISTIC, t.shardMode())),
            Map.entry("sequence_sharding", t -> {
                assertEquals(ShardMode.PESSIMISTIC, t.shardMode());
                assertEquals(2, t.mysqlInstances().size());
            }),
            // is-sharding with extract-table and extract-source on its route: spooled rows get them when drained
            Map.entry("sequence_safe_mode", t -> {
                assertEquals(ShardMode.PESSIMISTIC, t.shardMode());
                assertEquals(2, t.routes().get("sharding-route-rules-table").extracts().size());
            }),
            Map.entry("shardddl1/double-source-pessimistic.yaml", t -> assertEquals(ShardMode.PESSIMISTIC,
                    t.shardMode())),
            Map.entry("shardddl_optimistic/double-source-optimistic.yaml", t -> assertEquals(ShardMode.OPTIMISTIC,
                    t.shardMode())));

    private static final Map<String, List<String>> REFUSED = Map.ofEntries(
            Map.entry("all_mode", List.of("filters.user-filter-1.events[2]: unknown event \"truncate\"")),
            // dmctl's get-task output: statement-size 0, unit configs null, ansi-quotes and DM's empty
            // values of features not in use all read; what is left is what the task really uses
            // DM's test script replaces dir-placeholer with its conf directory before use
            Map.entry("tls", List.of(
                    ROOT.resolve("tls/source1.yaml") + ": from.security.ssl-ca: no such file \"dir-placeholerca.pem\"",
                    ROOT.resolve("tls/source1.yaml") + ": from.security.ssl-cert: no such file "
                            + "\"dir-placeholerclient-cert.pem\"",
                    ROOT.resolve("tls/source1.yaml") + ": from.security.ssl-key: no such file "
                            + "\"dir-placeholerclient-key.pem\"",
                    "target-database.security.ssl-ca: no such file \"dir-placeholer/task-ca.pem\"",
                    "target-database.security.ssl-cert: no such file \"dir-placeholer/dm.pem\"",
                    "target-database.security.ssl-key: no such file \"dir-placeholer/dm.key\"")),
            // its extract-table, extract-schema and extract-source are read; the placeholder its run.sh replaces is not
            Map.entry("extend_column", List.of(
                    "loaders.global.import-mode: must be logical, sql or loader, got \"import-mode-placeholder\" "
                            + "(jdm loads through SQL statements only)")),
            Map.entry("lightning_mode", List.of("loaders.global.import-mode: " + DmKeys.NO_PHYSICAL)));

    /** all_mode's regexpr-task.yaml gives each instance its own loader: {import-mode: loader}. */
    private static void instancesOwnLoader(TaskConfig t) {
        for (MySqlInstance i : t.mysqlInstances()) {
            assertEquals(LoaderConfig.defaults().withDir(t.mydumper(i).dir()), t.loader(i), i.sourceId());
            assertTrue(i.loader().isPresent(), i.sourceId());
        }
        assertEquals(Path.of("./dumped_data.regexprtest/mysql-replica-02"),
                t.mydumper(t.instance("mysql-replica-02")).dir(), "DM's default dir, one directory per source");
        assertEquals(List.of("timezone: " + DmKeys.DEPRECATED_IN_DM,
                "is-sharding: DM's switch before shard-mode; false is the default; ignored",
                "heartbeat-update-interval: " + DmKeys.DEPRECATED_IN_DM,
                "heartbeat-report-interval: " + DmKeys.DEPRECATED_IN_DM),
                t.warnings().stream().filter(w -> !w.startsWith(ROOT.toString())).toList(), "the task file's own");
    }

    @Test
    void everyCopiedTaskFileIsCovered() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT, 2)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml") && !f.getParent().endsWith("master")
                    && !f.getFileName().toString().startsWith("source")).toList()) {
                String dir = f.getParent().getFileName().toString();
                String name = f.endsWith("dm-task.yaml") ? dir : dir + "/" + f.getFileName();
                assertTrue(LOADS.containsKey(name) != REFUSED.containsKey(name), name + " needs one expectation");
            }
        }
    }

    @Test
    void filesWithoutDmOnlyFeaturesLoadWithDmsValues() {
        LOADS.forEach((name, check) -> {
            TaskConfig t = load(name);
            check.accept(t);
            assertTrue(t.warnings().stream().noneMatch(w -> w.contains("\n")), name + ": one line per warning");
        });
    }

    @Test
    void filesUsingFeaturesJdmLacksAreRefusedByNameOnly() {
        REFUSED.forEach((name, expected) -> assertEquals(expected,
                assertThrows(ConfigException.class, () -> load(name), name).problems(), name));
    }

    @Test
    void dmsFullTaskExampleIsRefusedOnlyForWhatJdmLacks() {
        Path dir = ROOT.resolve("master");
        List<String> p = assertThrows(ConfigException.class, () -> new TaskConfigLoader(k -> null)
                .load(dir.resolve("task_advanced.yaml"), List.of(dir.resolve("source.yaml")))).problems();
        assertTrue(p.stream().noneMatch(l -> l.contains("shard")), p.toString());
    }

    /**
     * DM's extend_column case: every shard's extra columns are the route's extracts, valued as DM's
     * run.sh expects them (capture groups joined: source mysql-replica-01 gives "replica01").
     */
    @Test
    void extendColumnRoutesGiveDmsValues() throws IOException {
        Path dir = ROOT.resolve("extend_column");
        String yaml = Files.readString(dir.resolve("dm-task.yaml")).replace("import-mode-placeholder", "sql");
        TaskConfig t = new TaskConfigLoader(k -> null).parse(yaml, dir, "dm-task.yaml",
                List.of(dir.resolve("source1.yaml"), dir.resolve("source2.yaml")));
        MySqlInstance s1 = t.mysqlInstances().get(0);
        MySqlInstance s2 = t.mysqlInstances().get(1);
        assertEquals(new RoutedName("extend_column", "y", new ExtraColumns(List.of("c_table"), List.of("2"))),
                TableRouter.forInstance(t, s1).route("extend_column1", "y2"));
        assertEquals(new RoutedName("extend_column", "t", new ExtraColumns(List.of("c_table", "c_schema", "c_source"),
                List.of("1", "extend_column1", "replica01"))), TableRouter.forInstance(t, s1).route("extend_column1", "t1"));
        assertEquals(new ExtraColumns(List.of("c_table", "c_schema", "c_source"),
                List.of("2", "extend_column2", "replica02")), TableRouter.forInstance(t, s2).route("extend_column2", "t2")
                .extra());
        assertEquals(ExtraColumns.NONE, TableRouter.forInstance(t, s2).route("extend_column2", "y2").extra(),
                "source 2 has no route for y*");
    }

    @Test
    void dmctlEncryptedPasswordIsDecryptedWithDmsKey() {
        Path dir = ROOT.resolve("dmctl_command");
        Path encrypted = dir.resolve("source1-encrypted-pass.yaml");
        String task = "name: t\ntask-mode: all\ntarget-database: {host: h, user: u}\n"
                + "mysql-instances:\n  - source-id: mysql-replica-01\n";
        TaskConfig t = new TaskConfigLoader(k -> null).parse(task, dir, "task.yaml", List.of(encrypted));
        assertEquals("123456", t.mysqlInstances().get(0).from().password().reveal());
    }

    /** What dmctl encrypt writes with {@code key}: base64 of the IV, '@' and the password under AES-256-CFB. */
    private static String dmEncrypt(byte[] key, String password) throws Exception {
        byte[] iv = new byte[16];
        new java.security.SecureRandom().nextBytes(iv);
        javax.crypto.Cipher aes = javax.crypto.Cipher.getInstance("AES/CFB/NoPadding");
        aes.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(key, "AES"),
                new javax.crypto.spec.IvParameterSpec(iv));
        byte[] body = aes.doFinal(password.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        byte[] all = new byte[17 + body.length];
        System.arraycopy(iv, 0, all, 0, 16);
        all[16] = '@';
        System.arraycopy(body, 0, all, 17, body.length);
        return java.util.Base64.getEncoder().encodeToString(all);
    }

    @Test
    void aPasswordEncryptedWithDmsSecretKeyPathIsDecryptedWithThatFile(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        Path keyFile = Files.writeString(dir.resolve("secret.key"), java.util.HexFormat.of().formatHex(key) + "\n");
        String yaml = Tasks.inTarget("  password: \"" + dmEncrypt(key, "s3cret pass") + "\"\n");
        TaskConfig t = Tasks.parse(yaml, Map.of("JDM_SECRET_KEY_PATH", keyFile.toString()));
        assertEquals("s3cret pass", t.targetDatabase().password().reveal());
        assertEquals(List.of(), t.warnings());

        TaskConfig without = Tasks.parse(yaml);
        assertEquals(1, without.warnings().size(), without.warnings().toString());
        assertTrue(without.warnings().get(0).startsWith("target-database.password: has the form of a password "
                + "dmctl encrypted but does not decrypt with DM's default key; if DM ran with secret-key-path, set "
                + "$JDM_SECRET_KEY_PATH to that file"), without.warnings().get(0));
        assertTrue(without.warnings().stream().noneMatch(w -> w.contains("s3cret")));

        Path bad = Files.writeString(dir.resolve("bad.key"), "not hex");
        assertEquals(List.of("target-database.password: the key file $JDM_SECRET_KEY_PATH names (" + bad + ") must "
                + "hold 64 hex digits (an AES-256 key), as DM's secret-key-path file does"),
                Tasks.problems(yaml, Map.of("JDM_SECRET_KEY_PATH", bad.toString())));
    }

    @Test
    void dmSpellingsReadAsDmReadsThem() {
        TaskConfig t = Tasks.parse(Tasks.MINIMAL + """
                case-sensitive: yes
                is-sharding: false
                online-ddl: false
                online-ddl-scheme: gh-ost
                mydumpers:
                  global:
                    threads: 0
                    statement-size: 0
                    chunk-filesize: 64MiB
                    extra-args: "--threads 8 -F 1GiB --consistency lock --where 'id > 3' -r 5000"
                loaders:
                  global:
                    pool-size: 0
                    import-mode: loader
                    on-duplicate-logical: ignore
                syncers:
                  global:
                    worker-count: 0
                    queue-size: 1000
                    safe-mode-duration: ""
                """);
        MySqlInstance i = t.mysqlInstances().get(0);
        assertEquals(true, t.caseSensitive());
        assertEquals(true, t.onlineDdl().enabled(), "online-ddl-scheme turns online-ddl on, as in DM");
        MydumperConfig d = t.mydumper(i);
        assertEquals(List.of(8, 1024, "LOCK", "id > 3", 5000L),
                List.of(d.threads(), d.chunkFilesizeMb(), d.consistency().name(), d.where().orElseThrow(), d.rows()));
        assertEquals(MydumperConfig.DEFAULT_STATEMENT_SIZE, d.statementSize(), "statement-size: 0 is the default");
        assertEquals(LoaderConfig.DEFAULT_POOL_SIZE, t.loader(i).poolSize());
        assertEquals(OnDuplicate.IGNORE, t.loader(i).onDuplicate());
        assertEquals(SyncerConfig.DEFAULT_WORKER_COUNT, t.syncer(i).workerCount());
        assertEquals(1024, t.syncer(i).queueSize());
        assertEquals(SyncerConfig.defaults().safeModeDuration(), t.syncer(i).safeModeDuration());
        assertEquals(List.of(
                "online-ddl-scheme: DM's name before v2.0.6; read as online-ddl: true",
                "syncers.global.queue-size: read as 1024: jdm's ring holds a power of two of events",
                "is-sharding: DM's switch before shard-mode; false is the default; ignored"), t.warnings());
    }

    @Test
    void whatDmctlWritesBackIsReadAsDmReadsIt() {
        TaskConfig t = Tasks.parse(Tasks.inInstance("    black-white-list: \"\"\n    block-allow-list: ba\n") + """
                black-white-list: {}
                block-allow-list:
                  ba: {do-dbs: [shop]}
                syncers:
                  global: {safe-mode-duration: 0}
                """);
        assertEquals(List.of(), t.warnings(), "an empty black-white-list is not set");
        assertEquals(Duration.ZERO, t.syncer(t.mysqlInstances().get(0)).safeModeDuration(), "Go reads 0 as 0s");
        TaskConfig both = Tasks.parse(Tasks.inInstance("    black-white-list: bw\n    block-allow-list: ba\n") + """
                black-white-list:
                  bw: {do-dbs: [old]}
                block-allow-list:
                  ba: {do-dbs: [shop]}
                """);
        assertEquals(List.of("shop"), both.blockAllowList(both.mysqlInstances().get(0)).orElseThrow().doDbs());
        assertEquals(List.of("black-white-list: " + DmKeys.OLD_BLOCK_ALLOW_LIST_IGNORED,
                "mysql-instances[0].black-white-list: " + DmKeys.OLD_BLOCK_ALLOW_LIST_IGNORED), both.warnings());
    }

    @Test
    void ansiQuotesInEitherSpellingIsAWarning() {
        TaskConfig t = Tasks.parse(Tasks.MINIMAL + """
                ansi-quotes: true
                syncers:
                  global:
                    enable-ansi-quotes: true
                """);
        assertEquals(List.of("syncers.global.enable-ansi-quotes: " + DmKeys.ANSI_QUOTES,
                "ansi-quotes: " + DmKeys.ANSI_QUOTES), t.warnings());
    }

    @Test
    void taskModesDmHasBesidesFullIncrementalAndAll() {
        assertEquals(TaskMode.DUMP, Tasks.parse(Tasks.MINIMAL.replace("task-mode: all", "task-mode: dump")).taskMode());
        assertEquals(TaskMode.LOAD, Tasks.parse(Tasks.MINIMAL.replace("task-mode: all", "task-mode: load")).taskMode());
        TaskMode loadSync = Tasks.parse(Tasks.MINIMAL.replace("task-mode: all", "task-mode: load&sync")).taskMode();
        assertEquals(List.of(false, true, true), List.of(loadSync.dumps(), loadSync.loads(), loadSync.syncs()));
    }

    @Test
    void dmsFinerDdlEventNamesAreReadAndOnlyTidbsOwnWarn() {
        TaskConfig t = Tasks.parse(Tasks.inInstance("    filter-rules: [f]\n") + """
                filters:
                  f:
                    schema-pattern: "*"
                    events: ["truncate table partition", "rebase auto id", "drop table", "multi schema change"]
                    action: Ignore
                """);
        assertEquals(List.of(EventType.TRUNCATE_TABLE_PARTITION, EventType.REBASE_AUTO_ID, EventType.DROP_TABLE),
                t.filters().get("f").events());
        assertEquals(1, t.warnings().size(), t.warnings().toString());
        assertTrue(t.warnings().get(0).contains("never types a statement from a MySQL or MariaDB source"),
                t.warnings().get(0));
    }

    /**
     * {@code <case>} is the case's dm-task.yaml, {@code <case>/<file>} another task file of it; its
     * source files are source1.yaml and source2.yaml, or those {@link #SOURCES} names.
     */
    private static TaskConfig load(String name) {
        Path task = name.contains("/") ? ROOT.resolve(name) : ROOT.resolve(name).resolve("dm-task.yaml");
        Path dir = task.getParent();
        List<Path> sources = SOURCES.getOrDefault(name, List.of("source1.yaml", "source2.yaml")).stream()
                .map(dir::resolve).filter(Files::exists).toList();
        return new TaskConfigLoader(k -> null).load(task, sources);
    }
}
