package io.jdm.common.config;

import static io.jdm.common.config.Tasks.MINIMAL;
import static io.jdm.common.config.Tasks.inInstance;
import static io.jdm.common.config.Tasks.inTarget;
import static io.jdm.common.config.Tasks.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every rule, with the exact line a user reads. Each case breaks one thing in an otherwise valid task. */
class ValidationMessagesTest {

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void topLevel(String yaml, String expected) {
        assertEquals(expected, String.join("\n", problems(yaml)));
    }

    static Stream<Arguments> topLevel() {
        return Stream.of(
                replaced("name: t1\n", "", "name: required"),
                replaced("name: t1", "name: my task", "name: must match [A-Za-z0-9_-]{1,46} (NAME_syncer_checkpoint"
                        + " must fit the target's 64-character table names), got \"my task\""),
                replaced("name: t1", "name: " + "n".repeat(47),
                        "name: must match [A-Za-z0-9_-]{1,46} (NAME_syncer_checkpoint must fit the target's"
                                + " 64-character table names), got \"" + "n".repeat(47) + "\""),
                replaced("task-mode: all\n", "", "task-mode: required"),
                replaced("task-mode: all", "task-mode: ful",
                        "task-mode: must be one of full, incremental, all, dump, load, load&sync, got \"ful\""),
                appended("meta-schema: jdm-meta\n", "meta-schema: must match [A-Za-z0-9_]{1,64}, got \"jdm-meta\""),
                appended("status-addr: localhost\n", "status-addr: must be host:port, got \"localhost\""),
                appended("status-addr: 127.0.0.1:70000\n",
                        "status-addr: port must be 1..65535, got \"127.0.0.1:70000\""),
                appended("case-sensitive: maybe\n", "case-sensitive: must be true or false, got \"maybe\""),
                appended("timezone: Mars/Base\n",
                        "timezone: must be a time zone such as +08:00 or Asia/Shanghai, got \"Mars/Base\""),
                appended("ignore-checking-items: [versio]\n",
                        "ignore-checking-items[0]: unknown checking item \"versio\" (did you mean version?)"),
                appended("ignore-checking-items: all\n", "ignore-checking-items: must be a list, got \"all\""),
                appended("frobnicate: 3\n", "frobnicate: unknown key"),
                appended("task-mod: all\n", "task-mod: unknown key (did you mean task-mode?)"),
                appended("shard-mode: strict\n",
                        "shard-mode: must be pessimistic or optimistic (or left out), got strict"),
                appended("online-ddl: sometimes\n", "online-ddl: must be true or false, got \"sometimes\""),
                appended("online-ddl-scheme: osc\n", "online-ddl-scheme: must be gh-ost or pt, got \"osc\""),
                appended("expression-filter:\n  e1: {}\n", "expression-filter.e1.schema: required",
                        "expression-filter.e1.table: required", "expression-filter.e1: needs insert-value-expr, "
                        + "update-old-value-expr, update-new-value-expr or delete-value-expr"),
                appended("expression-filter:\n  e1: {schema: s, table: t, insert-value-expr: \"md5(c) = 'x'\"}\n",
                        "expression-filter.e1.insert-value-expr: unsupported function md5(): jdm evaluates ABS, "
                        + "CHARACTER_LENGTH, CHAR_LENGTH, COALESCE, CONCAT, CURDATE, CURRENT_DATE, CURRENT_TIMESTAMP, "
                        + "IF, IFNULL, LCASE, LENGTH, LOWER, NOW, UCASE, UPPER in \"md5(c) = 'x'\""),
                appended("expression-filter:\n  e1: {schema: s, table: t, insert-value-expr: \"c >\"}\n",
                        "expression-filter.e1.insert-value-expr: cannot parse the expression: could only parse "
                        + "partial expression c in \"c >\""),
                appended("expression-filter:\n  e1: {schema: s, table: t, insert-value-expr: \"c > 1\", "
                        + "update-new-value-expr: \"c > 2\"}\n", "expression-filter.e1: has insert-value-expr, "
                        + "update-old-value-expr/update-new-value-expr; a rule filters one kind of change (as in DM): "
                        + "make one rule for each"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void targetDatabase(String yaml, String expected) {
        assertEquals(expected, String.join("\n", problems(yaml)));
    }

    static Stream<Arguments> targetDatabase() {
        return Stream.of(
                replaced("  host: 127.0.0.1\n  user: root\n", "  user: root\n", "target-database.host: required"),
                replaced("  host: 127.0.0.1\n  user: root\n", "  host: ''\n  user: root\n",
                        "target-database.host: required"),
                replaced("  host: 127.0.0.1\n  user: root\n", "  host: 127.0.0.1\n",
                        "target-database.user: required"),
                replaced("target-database:\n  host: 127.0.0.1\n  user: root\n", "", "target-database: required"),
                replaced("target-database:\n  host: 127.0.0.1\n  user: root\n", "target-database: tidb\n",
                        "target-database: must be a mapping, got \"tidb\""),
                of(inTarget("  port: 0\n"), "target-database.port: must be 1..65535, got 0"),
                of(inTarget("  port: 4000.5\n"), "target-database.port: must be an integer, got 4000.5"),
                of(inTarget("  port: [4000]\n"), "target-database.port: must be an integer, got a list"),
                of(inTarget("  connect-timeout: 0\n"), "target-database.connect-timeout: must be 1..3600, got 0"),
                of(inTarget("  max-allowed-packet: 10\n"),
                        "target-database.max-allowed-packet: must be 1024..1073741824, got 10"),
                of(inTarget("  session:\n    sql mode: ''\n"),
                        "target-database.session.sql mode: must be a variable name ([A-Za-z_][A-Za-z0-9_]*)"),
                of(inTarget("  session:\n    sql_mode: [a]\n"),
                        "target-database.session.sql_mode: must be a string, got a list"),
                of(inTarget("  password:\n    value: x\n"), "target-database.password: must be a string"),
                of(inTarget("  pasword: x\n"), "target-database.pasword: unknown key (did you mean password?)"),
                of(inTarget("  security:\n    ssl-ca: no-such-ca.pem\n"),
                        "target-database.security.ssl-ca: no such file \"no-such-ca.pem\""),
                of(inTarget("  security:\n    ssl-mode: verify\n"),
                        "target-database.security.ssl-mode: unknown key"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void instances(String yaml, String expected) {
        assertEquals(expected, String.join("\n", problems(yaml)));
    }

    static Stream<Arguments> instances() {
        return Stream.of(
                replaced("  - source-id: s1\n", "  - server-id: 7\n", "mysql-instances[0].source-id: required"),
                replaced("source-id: s1", "source-id: a b",
                        "mysql-instances[0].source-id: must match [A-Za-z0-9_.-]{1,32}, got \"a b\""),
                of(inInstance("    server-id: 0\n"), "mysql-instances[0].server-id: must be 1..4294967295, got 0"),
                of(inInstance("    syncer-thread: 2000\n"),
                        "mysql-instances[0].syncer-thread: must be 1..1024, got 2000"),
                of(inInstance("    loader-thread: -1\n"), "mysql-instances[0].loader-thread: must be 1..1024, got -1"),
                of(inInstance("    mydumper-thread: x\n"),
                        "mysql-instances[0].mydumper-thread: must be an integer, got \"x\""),
                of(inInstance("    block-allow-list: bw-rul-1\n")
                                + "block-allow-list:\n  bw-rule-1:\n    do-dbs: [shop]\n",
                        "mysql-instances[0].block-allow-list: undefined rule set \"bw-rul-1\" (defined: bw-rule-1)"),
                of(inInstance("    route-rules: [r9]\n"),
                        "mysql-instances[0].route-rules[0]: undefined route rule \"r9\" (defined: none)"),
                of(inInstance("    filter-rules: [f1, f2]\n")
                                + "filters:\n  f1:\n    schema-pattern: a\n    events: [insert]\n    action: Ignore\n",
                        "mysql-instances[0].filter-rules[1]: undefined filter rule \"f2\" (defined: f1)"),
                of(inInstance("    mydumper-config-name: fast\n"),
                        "mysql-instances[0].mydumper-config-name: undefined mydumper config \"fast\" (defined: none)"),
                of(inInstance("    loader-config-name: fast\n") + "loaders:\n  global: {}\n",
                        "mysql-instances[0].loader-config-name: undefined loader config \"fast\" (defined: global)"),
                of(inInstance("    syncer-config-name: fast\n") + "syncers:\n  a: {}\n  b: {}\n",
                        "mysql-instances[0].syncer-config-name: undefined syncer config \"fast\" (defined: a, b)"),
                of(inInstance("    black-white-list: bw\n"),
                        "mysql-instances[0].black-white-list: undefined rule set \"bw\" (defined: none)"),
                of(inInstance("    syncer:\n      batch: 0\n"), "mysql-instances[0].syncer.batch: must be 1..10000, got 0"),
                of(inInstance("    syncer-config-name: a\n    syncer:\n      batch: 5\n") + "syncers:\n  a: {}\n",
                        "mysql-instances[0].syncer: and syncer-config-name both give this instance's syncer settings; "
                                + "keep one"),
                of(inInstance("    route-rule: [a]\n"),
                        "mysql-instances[0].route-rule: unknown key (did you mean route-rules?)"),
                of(MINIMAL + "  - source-id: s1\n    from:\n      host: h\n      user: u\n",
                        "mysql-instances[1].source-id: duplicate \"s1\" (also mysql-instances[0])"),
                of(MINIMAL.replace("    from:\n      host: 127.0.0.1\n      user: root\n", ""),
                        "mysql-instances[0]: needs from (the connection), source (a DM source file) or --source with "
                                + "a file whose source-id is \"s1\" (given: none)"),
                of(MINIMAL.substring(0, MINIMAL.indexOf("mysql-instances:")) + "mysql-instances: []\n",
                        "mysql-instances: must list at least one source"),
                of(MINIMAL.substring(0, MINIMAL.indexOf("mysql-instances:")), "mysql-instances: required"),
                of(inInstance("    from:\n      host: h\n      user: u\n"), "mysql-instances[0].from: duplicate key"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void meta(String yaml, String expected) {
        assertEquals(expected, String.join("\n", problems(yaml)));
    }

    static Stream<Arguments> meta() {
        String incremental = MINIMAL.replace("task-mode: all", "task-mode: incremental");
        String ok = "    meta:\n      binlog-name: mysql-bin.000003\n      binlog-pos: 4\n";
        return Stream.of(
                of(withMeta(incremental, "      binlog-pos: 4\n"), "mysql-instances[0].meta.binlog-pos: needs binlog-name"),
                of(withMeta(incremental, "      binlog-name: mysql-bin.000003\n"),
                        "mysql-instances[0].meta.binlog-pos: required with binlog-name"),
                of(withMeta(incremental, "      binlog-name: binlog\n      binlog-pos: 4\n"),
                        "mysql-instances[0].meta.binlog-name: must look like mysql-bin.000001, got \"binlog\""),
                of(withMeta(incremental, "      binlog-name: mysql-bin.000003\n      binlog-pos: 3\n"),
                        "mysql-instances[0].meta.binlog-pos: must be 4..4294967295, got 3"),
                of(withMeta(incremental, "      binlog-gtdi: x\n"),
                        "mysql-instances[0].meta: needs binlog-name and binlog-pos, or binlog-gtid\n"
                                + "mysql-instances[0].meta.binlog-gtdi: unknown key (did you mean binlog-gtid?)"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void units(String yaml, String expected) {
        assertEquals(expected, String.join("\n", problems(yaml)));
    }

    static Stream<Arguments> units() {
        return Stream.of(
                appended("mydumpers:\n  global:\n    threads: -1\n", "mydumpers.global.threads: must be 1..1024, got -1"),
                appended("mydumpers:\n  global:\n    rows: -1\n", "mydumpers.global.rows: must be 0..1000000000, got -1"),
                appended("mydumpers:\n  global:\n    statement-size: -1\n",
                        "mydumpers.global.statement-size: must be 0..1073741824, got -1"),
                appended("mydumpers:\n  global:\n    chunk-filesize: 64 megs\n",
                        "mydumpers.global.chunk-filesize: must be a size in MiB 0..1048576 such as 64 or 64MiB, "
                                + "got \"64 megs\""),
                appended("mydumpers:\n  global:\n    consistency: fast\n",
                        "mydumpers.global.consistency: must be one of auto, flush, lock, lock-free, snapshot, none, got \"fast\""),
                appended("mydumpers:\n  global:\n    compress: lz4\n",
                        "mydumpers.global.compress: must be one of none, gzip, zstd, got \"lz4\""),
                appended("mydumpers:\n  global:\n    extra-args: \"--rows 1000 -B shop\"\n",
                        "mydumpers.global.extra-args: --database chooses tables in DM in place of block-allow-list; "
                                + "jdm takes tables from block-allow-list only: move them there"),
                appended("mydumpers:\n  global:\n    extra-args: \"-F 2TiB\"\n",
                        "mydumpers.global.extra-args: --filesize must be a size in MiB 0..1048576 such as 64MiB, "
                                + "got \"2TiB\""),
                appended("mydumpers:\n  global:\n    extra-args: \"--frobnicate 3\"\n",
                        "mydumpers.global.extra-args: --frobnicate is not a flag DM passes to its dump"),
                appended("mydumpers: [global]\n", "mydumpers: must be a mapping, got a list"),
                appended("mydumpers:\n  global: 4\n", "mydumpers.global: must be a mapping, got 4"),
                appended("loaders:\n  global:\n    pool-size: abc\n",
                        "loaders.global.pool-size: must be an integer, got \"abc\""),
                appended("loaders:\n  global:\n    pool-size: 1025\n", "loaders.global.pool-size: must be 1..1024, got 1025"),
                appended("loaders:\n  global:\n    on-duplicate: skip\n",
                        "loaders.global.on-duplicate: must be one of replace, ignore, error, got \"skip\""),
                appended("loaders:\n  global:\n    import-mode: physical\n",
                        "loaders.global.import-mode: physical import is not supported by jdm; use import-mode: logical"),
                appended("loaders:\n  global:\n    defer-indexes: 1\n",
                        "loaders.global.defer-indexes: must be true, false or auto, got 1"),
                appended("loaders:\n  global:\n    on-duplicate-logical: replace\n    on-duplicate: ignore\n",
                        "loaders.global.on-duplicate-logical: and on-duplicate are the same setting; keep one"),
                appended("syncers:\n  global:\n    worker-count: 1025\n",
                        "syncers.global.worker-count: must be 1..1024, got 1025"),
                appended("syncers:\n  global:\n    worker-cont: 8\n",
                        "syncers.global.worker-cont: unknown key (did you mean worker-count?)"),
                appended("syncers:\n  global:\n    batch: 0\n", "syncers.global.batch: must be 1..10000, got 0"),
                appended("syncers:\n  global:\n    queue-size: 32\n",
                        "syncers.global.queue-size: must be 64..1048576, got 32"),
                appended("syncers:\n  global:\n    safe-mode-duration: 60 seconds\n",
                        "syncers.global.safe-mode-duration: must be a duration such as 60s or 5m, got \"60 seconds\""),
                appended("syncers:\n  global:\n    checkpoint-flush-interval: 0\n",
                        "syncers.global.checkpoint-flush-interval: must be 1..3600, got 0"),
                appended("syncers:\n  global:\n    heartbeat-interval: 3601\n",
                        "syncers.global.heartbeat-interval: must be 1..3600, got 3601"),
                appended("syncers:\n  global:\n    batch: 1\n    batch: 2\n", "syncers.global.batch: duplicate key"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void rules(String yaml, String expected) {
        assertEquals(expected, String.join("\n", problems(yaml)));
    }

    static Stream<Arguments> rules() {
        return Stream.of(
                appended("block-allow-list:\n  bw:\n    do-dbs: shop\n",
                        "block-allow-list.bw.do-dbs: must be a list, got \"shop\""),
                appended("block-allow-list:\n  bw:\n    do-dbs: [\"~^(shop\"]\n",
                        "block-allow-list.bw.do-dbs[0]: invalid pattern \"~^(shop\": Unclosed group"),
                appended("block-allow-list:\n  bw:\n    do-tables:\n      - db-name: shop\n",
                        "block-allow-list.bw.do-tables[0].tbl-name: required"),
                appended("block-allow-list:\n  bw:\n    ignore-tables:\n      - db-name: shop\n        table: t\n",
                        "block-allow-list.bw.ignore-tables[0].tbl-name: required",
                        "block-allow-list.bw.ignore-tables[0].table: unknown key"),
                appended("block-allow-list:\n  bw:\n    do-db: [shop]\n",
                        "block-allow-list.bw.do-db: unknown key (did you mean do-dbs?)"),
                appended("routes:\n  r1:\n    schema-pattern: a\n", "routes.r1.target-schema: required"),
                appended("routes:\n  r1:\n    target-schema: a\n", "routes.r1.schema-pattern: required"),
                appended("routes:\n  r1:\n    schema-pattern: a\n    target-schema: b\n    extract-table: {}\n",
                        "routes.r1.extract-table.table-regexp: required",
                        "routes.r1.extract-table.target-column: required"),
                appended("routes:\n  r1:\n    schema-pattern: a\n    target-schema: b\n"
                                + "    extract-source: {source-regexp: \"(\", target-column: c, source: x}\n",
                        "routes.r1.extract-source.source-regexp: invalid regular expression \"(\": Unclosed group",
                        "routes.r1.extract-source.source: unknown key"),
                appended("routes:\n  r1:\n    schema-pattern: a\n    target-schema: b\n"
                                + "    extract-table: {table-regexp: \"t(.*)\", target-column: c}\n"
                                + "    extract-schema: {schema-regexp: \"(.*)\", target-column: C}\n",
                        "routes.r1: extract-table, extract-schema and extract-source must name different target "
                                + "columns"),
                appended("filters:\n  f1:\n    schema-pattern: a\n    events: [insrt]\n    action: Ignore\n",
                        "filters.f1.events[0]: unknown event \"insrt\" (did you mean insert?)"),
                appended("filters:\n  f1:\n    schema-pattern: a\n    events: [insert]\n    action: Skip\n",
                        "filters.f1.action: must be one of Do, Ignore, Error, got \"Skip\""),
                appended("filters:\n  f1:\n    schema-pattern: a\n    events: [insert]\n", "filters.f1.action: required"),
                appended("filters:\n  f1:\n    schema-pattern: a\n    sql-pattern: [\"(\"]\n    action: Ignore\n",
                        "filters.f1.sql-pattern[0]: invalid regular expression \"(\": Unclosed group"),
                appended("filters:\n  f1:\n    schema-pattern: a\n    action: Ignore\n",
                        "filters.f1: needs events or sql-pattern"),
                appended("shadow-table-rules: [\"^_(.+)_gho$\", \"^(\"]\n",
                        "shadow-table-rules[1]: invalid regular expression \"^(\": Unclosed group"),
                appended("shadow-table-rules: [\"^_.+_gho$\"]\n",
                        "shadow-table-rules[0]: must capture the real table's name in its first group, as DM's "
                                + "default ^_(.+)_(?:new|gho)$ does, got \"^_.+_gho$\""),
                appended("trash-table-rules: [\"[\"]\n",
                        "trash-table-rules[0]: invalid regular expression \"[\": Unclosed character class"));
    }

    @Test
    void shadowAndTrashTableRulesAreReadAndLeftOutMeanDmsDefaults() {
        TaskConfig t = Tasks.parse(MINIMAL + "shadow-table-rules: [\"^(.+)_shadow$\"]\n"
                + "trash-table-rules: [\"^(.+)_trash$\", \"^(.+)_ghc$\"]\n");
        assertEquals(new OnlineDdlConfig(true, List.of("^(.+)_shadow$"), List.of("^(.+)_trash$", "^(.+)_ghc$")),
                t.onlineDdl());
        assertEquals(OnlineDdlConfig.DEFAULT, Tasks.parse(MINIMAL).onlineDdl());
        assertEquals(OnlineDdlConfig.DEFAULT, Tasks.parse(MINIMAL + "shadow-table-rules: []\n").onlineDdl());
    }

    @Test
    void loaderDirMustFollowTheDumpInFullMode() {
        String yaml = MINIMAL.replace("task-mode: all", "task-mode: full")
                + "mydumpers:\n  global:\n    dir: /data/dump\nloaders:\n  global:\n    dir: /data/other\n";
        assertEquals(List.of("loaders.global.dir: must be the dump directory when task-mode is full or all; "
                + "leave it out and the load reads what the dump wrote"), problems(yaml));
    }

    @Test
    void rowsPerTransactionIsNotDmsAndOnlyWarns() {
        TaskConfig t = Tasks.parse(MINIMAL + "loaders:\n  global:\n    rows-per-transaction: -5\n");
        assertEquals(List.of("loaders.global.rows-per-transaction: not a key of DM's loader; jdm commits a load "
                + "transaction by its size in bytes, with the checkpoint; ignored"), t.warnings());
    }

    @Test
    void rootMustBeAMappingAndNotEmpty() {
        assertEquals(List.of("<string>: must be a mapping, got \"hello\""), problems("hello\n"));
        assertEquals(List.of("<string>: is empty"), problems("# nothing\n"));
    }

    @Test
    void aliasesAreRefused() {
        String yaml = MINIMAL + "syncers:\n  global:\n    batch: &b 50\n    worker-count: *b\n";
        assertEquals(List.of("syncers.global.worker-count: YAML aliases (*b) are not supported; write the value out",
                "syncers.global.worker-count: must be an integer, got \"b\""), problems(yaml));
    }

    @Test
    void everyProblemIsReportedAtOnceInFileOrder() {
        String yaml = """
                name: "bad name"
                task-mode: all
                target-database:
                  port: 0
                  user: root
                syncers:
                  global:
                    worker-count: 1025
                    batch: 0
                mysql-instances:
                  - source-id: s1
                    from:
                      host: h
                      user: u
                    block-allow-list: nope
                """;
        assertEquals(List.of(
                "name: must match [A-Za-z0-9_-]{1,46} (NAME_syncer_checkpoint must fit the target's 64-character"
                        + " table names), got \"bad name\"",
                "target-database.host: required",
                "target-database.port: must be 1..65535, got 0",
                "syncers.global.worker-count: must be 1..1024, got 1025",
                "syncers.global.batch: must be 1..10000, got 0",
                "mysql-instances[0].block-allow-list: undefined rule set \"nope\" (defined: none)"), problems(yaml));
    }

    @Test
    void exceptionMessageJoinsTheProblems() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> Tasks.parse(MINIMAL + "syncers:\n  global:\n    batch: 0\n    worker-count: 1025\n"));
        assertEquals("syncers.global.worker-count: must be 1..1024, got 1025\nsyncers.global.batch: must be 1..10000, got 0",
                e.getMessage());
        assertEquals(false, e.isRetriable());
    }

    /** Several expected problems are compared joined by newlines, in the order they are found. */
    private static Arguments appended(String extra, String... expected) {
        return Arguments.of(MINIMAL + extra, String.join("\n", expected));
    }

    private static Arguments replaced(String from, String to, String expected) {
        if (!MINIMAL.contains(from)) {
            throw new IllegalArgumentException("not in MINIMAL: " + from);
        }
        return Arguments.of(MINIMAL.replace(from, to), expected);
    }

    private static Arguments of(String yaml, String expected) {
        return Arguments.of(yaml, expected);
    }

    private static String withMeta(String base, String lines) {
        return base.replace("  - source-id: s1\n", "  - source-id: s1\n    meta:\n" + lines);
    }
}
