package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
    private static final String NO_SHARDS = "is-sharding: true is DM's shard-mode: pessimistic; jdm does not "
            + "coordinate DDL across merged shards; remove it and apply shard DDL on the target yourself";
    private static final String NO_VALIDATOR = "not supported by jdm; remove it and compare source and target "
            + "with jdm verify";

    private static final Map<String, Consumer<TaskConfig>> LOADS = Map.ofEntries(
            Map.entry("case_sensitive", t -> {
                assertEquals(true, t.caseSensitive());
                assertEquals(List.of("Upper_DB*", "lower_db"), t.blockAllowList().get("instance").doDbs(),
                        "black-white-list read as block-allow-list");
            }),
            Map.entry("foreign_key", t -> assertEquals(1, t.mysqlInstances().size())),
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
            Map.entry("mariadb_source", t -> assertEquals("127.0.0.1", t.mysqlInstances().get(0).from().host())),
            Map.entry("new_relay", t -> assertEquals(TaskMode.ALL, t.taskMode())),
            Map.entry("only_dml", t -> assertEquals(2, t.mysqlInstances().size())),
            Map.entry("sql_mode", t -> {
                MySqlInstance i = t.mysqlInstances().get(0);
                assertEquals(0, t.mydumper(i).chunkFilesizeMb(), "chunk-filesize: 0 is no size limit");
                assertEquals(4000, t.mydumper(i).statementSize(), "from extra-args --statement-size=4000");
            }),
            Map.entry("sync_collation", t -> assertEquals(2, t.mysqlInstances().size())));

    private static final Map<String, List<String>> REFUSED = Map.ofEntries(
            Map.entry("all_mode", List.of("filters.user-filter-1.events[2]: unknown event \"truncate\"")),
            Map.entry("dmctl_basic", List.of(
                    ROOT.resolve("dmctl_basic/source1.yaml") + ": filters: jdm does not read binlog event filters "
                            + "from a source file; move them to the task file's filters and name them in filter-rules",
                    NO_SHARDS)),
            Map.entry("dmctl_command", List.of(
                    "mysql-instances[0].validator-config-name: " + NO_VALIDATOR,
                    "mysql-instances[1].validator-config-name: " + NO_VALIDATOR,
                    "validators: " + NO_VALIDATOR)),
            Map.entry("validator_checkpoint", List.of(
                    "mysql-instances[0].validator-config-name: " + NO_VALIDATOR,
                    "mysql-instances[1].validator-config-name: " + NO_VALIDATOR,
                    "validators: " + NO_VALIDATOR)),
            Map.entry("expression_filter", List.of(
                    "mysql-instances[0].expression-filters: " + DmKeys.NO_EXPRESSION_FILTER,
                    "expression-filter: " + DmKeys.NO_EXPRESSION_FILTER)),
            Map.entry("extend_column", List.of(
                    "routes.extend-column-table-rules.extract-table: " + extract(),
                    "routes.extend-column-table-source-schema-rules.extract-table: " + extract(),
                    "routes.extend-column-table-source-schema-rules.extract-schema: " + extract(),
                    "routes.extend-column-table-source-schema-rules.extract-source: " + extract(),
                    "loaders.global.import-mode: must be logical, sql or loader, got \"import-mode-placeholder\" "
                            + "(jdm loads through SQL statements only)")),
            Map.entry("lightning_mode", List.of("loaders.global.import-mode: " + DmKeys.NO_PHYSICAL)),
            Map.entry("many_tables", List.of("mydumpers.global.statement-size: must be 1024..1073741824, got 100")),
            Map.entry("start_task", List.of("mydumpers.global.statement-size: must be 1024..1073741824, got 100")),
            Map.entry("online_ddl", List.of(NO_SHARDS)),
            Map.entry("safe_mode", List.of(NO_SHARDS)),
            Map.entry("sharding", List.of(NO_SHARDS)));

    private static String extract() {
        return "jdm does not add source columns to merged tables (extract-table, extract-schema, extract-source); "
                + "remove it";
    }

    @Test
    void everyCopiedTaskFileIsCovered() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            for (Path d : dirs.filter(Files::isDirectory).filter(d -> !d.endsWith("master")).toList()) {
                String name = d.getFileName().toString();
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
        assertTrue(p.contains(NO_SHARDS), p.toString());
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
        assertEquals(true, t.onlineDdl(), "online-ddl-scheme turns online-ddl on, as in DM");
        MydumperConfig d = t.mydumper(i);
        assertEquals(List.of(8, 1024, "LOCK", "id > 3", 5000L),
                List.of(d.threads(), d.chunkFilesizeMb(), d.consistency().name(), d.where().orElseThrow(), d.rows()));
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
    void taskModesDmHasBesidesFullIncrementalAndAll() {
        assertEquals(TaskMode.DUMP, Tasks.parse(Tasks.MINIMAL.replace("task-mode: all", "task-mode: dump")).taskMode());
        assertEquals(TaskMode.LOAD, Tasks.parse(Tasks.MINIMAL.replace("task-mode: all", "task-mode: load")).taskMode());
        TaskMode loadSync = Tasks.parse(Tasks.MINIMAL.replace("task-mode: all", "task-mode: load&sync")).taskMode();
        assertEquals(List.of(false, true, true), List.of(loadSync.dumps(), loadSync.loads(), loadSync.syncs()));
    }

    @Test
    void dmsFinerDdlEventNamesAreReadWithAWarning() {
        TaskConfig t = Tasks.parse(Tasks.inInstance("    filter-rules: [f]\n") + """
                filters:
                  f:
                    schema-pattern: "*"
                    events: ["truncate table partition", "rebase auto id", "drop table"]
                    action: Ignore
                """);
        assertEquals(List.of(EventType.DROP_TABLE), t.filters().get("f").events());
        assertEquals(2, t.warnings().size(), t.warnings().toString());
    }

    private static TaskConfig load(String name) {
        Path dir = ROOT.resolve(name);
        List<Path> sources = Stream.of("source1.yaml", "source2.yaml").map(dir::resolve).filter(Files::exists)
                .toList();
        return new TaskConfigLoader(k -> null).load(dir.resolve("dm-task.yaml"), sources);
    }
}
