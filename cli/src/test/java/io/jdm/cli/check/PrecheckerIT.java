package io.jdm.cli.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PrecheckerIT {
    private static SqlServer source;
    private static SqlServer target;

    @BeforeAll
    static void servers() {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        source.freshDatabase("pre_ok");
        source.execute("CREATE TABLE pre_ok.t (id INT PRIMARY KEY, v VARCHAR(10))");
        source.freshDatabase("pre_nokey");
        source.execute("CREATE TABLE pre_nokey.bare (v VARCHAR(10))");
    }

    static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), s.user(), s.password());
    }

    static PrecheckInput input(ConnectionSpec src, String db, Set<String> ignore) {
        return new PrecheckInput(true, true,
                List.of(new PrecheckInput.Source("mysql-01", src, (d, t) -> d.equals(db), true, 5, 19)),
                spec(target), "jdm_meta", ignore);
    }

    static CheckResult find(List<CheckResult> rs, String item, String instance) {
        return rs.stream().filter(r -> r.item().equals(item) && r.instance().startsWith(instance)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + item + " for " + instance + " in " + rs));
    }

    @Test
    void aLockFreeDumpNeedsNeitherReloadNorLockTablesButAKeyOnEveryTable() throws Exception {
        source.execute("CREATE USER IF NOT EXISTS 'pre_lockfree'@'127.0.0.1' IDENTIFIED BY 'pw'",
                "GRANT SELECT, REPLICATION SLAVE, " + source.binlogMonitorPrivilege() + " ON *.* TO 'pre_lockfree'@'127.0.0.1'");
        ConnectionSpec limited = ConnectionSpec.of(source.host(), source.port(), "pre_lockfree", "pw");
        for (var c : List.of(io.jdm.common.config.Consistency.LOCK_FREE, io.jdm.common.config.Consistency.AUTO,
                io.jdm.common.config.Consistency.FLUSH)) {
            List<CheckResult> rs = new Prechecker(new PrecheckInput(true, true, List.of(new PrecheckInput.Source(
                    "mysql-01", limited, (d, t) -> d.equals("pre_ok"), true, 5, 19, c)), spec(target), "jdm_meta",
                    Set.of())).run();
            CheckResult privilege = find(rs, "dump_privilege", "source mysql-01");
            switch (c) {
                case LOCK_FREE -> assertEquals(CheckResult.Status.PASS, privilege.status(), privilege.detail());
                case AUTO -> {
                    assertEquals(CheckResult.Status.WARN, privilege.status(), privilege.detail());
                    assertTrue(privilege.detail().contains("the dump goes lock-free"), privilege.detail());
                }
                default -> assertEquals(CheckResult.Status.FAIL, privilege.status(), privilege.detail());
            }
        }
        List<CheckResult> keyless = new Prechecker(new PrecheckInput(true, true, List.of(new PrecheckInput.Source(
                "mysql-01", spec(source), (d, t) -> d.equals("pre_nokey"), true, 5, 19,
                io.jdm.common.config.Consistency.LOCK_FREE)), spec(target), "jdm_meta", Set.of())).run();
        CheckResult schema = find(keyless, "table_schema", "source mysql-01");
        assertEquals(CheckResult.Status.FAIL, schema.status(), schema.detail());
        assertTrue(schema.detail().contains("`pre_nokey`.`bare`") || schema.detail().contains("pre_nokey.bare"),
                schema.detail());
    }

    @Test
    void moreConnectionsThanTheServersAllowIsAWarningNamingTheKeys() throws Exception {
        long sourceMax = Long.parseLong(source.rows("SELECT @@max_connections").get(0));
        long targetMax = Long.parseLong(target.rows("SELECT @@max_connections").get(0));
        PrecheckInput many = new PrecheckInput(true, true, List.of(
                new PrecheckInput.Source("mysql-01", spec(source), (d, t) -> d.equals("pre_ok"), true,
                        (int) sourceMax + 1, (int) targetMax / 2 + 1),
                new PrecheckInput.Source("mysql-02", spec(source), (d, t) -> d.equals("pre_ok"), true, 2,
                        (int) targetMax / 2 + 1)),
                spec(target), "jdm_meta", Set.of());
        List<CheckResult> rs = new Prechecker(many).run();
        CheckResult onSource = find(rs, "conn_number", "source mysql-01");
        assertEquals(CheckResult.Status.WARN, onSource.status(), onSource.detail());
        assertEquals("the task opens up to " + (sourceMax + 1) + " connections at once but max_connections is "
                + sourceMax + ": raise max_connections or lower mydumpers.threads", onSource.detail());
        assertEquals(CheckResult.Status.PASS, find(rs, "conn_number", "source mysql-02").status());
        CheckResult onTarget = find(rs, "conn_number", "target");
        assertEquals(CheckResult.Status.WARN, onTarget.status(), onTarget.detail()); // the two sources add up
        assertTrue(onTarget.detail().endsWith("lower loaders.pool-size or syncers.worker-count"), onTarget.detail());
        assertFalse(new CheckReport(rs).anyFailed(), "a warning, not a failure");
        assertTrue(new Prechecker(new PrecheckInput(true, true, many.sources(), spec(target), "jdm_meta",
                Set.of("conn_number"))).run().stream().noneMatch(r -> r.item().equals("conn_number")));
    }

    @Test
    void embeddedPairPassesEveryCheck() {
        List<CheckResult> rs = new Prechecker(input(spec(source), "pre_ok", Set.of())).run();
        assertFalse(new CheckReport(rs).anyFailed(), new CheckReport(rs).table());
        for (String item : List.of("connection", "version", "dump_privilege", "binlog_enable", "binlog_format",
                "binlog_row_image", "server_id", "log_bin_compress", "gtid", "replication_privilege", "table_schema")) {
            assertEquals(CheckResult.Status.PASS, find(rs, item, "source").status(), item);
        }
        assertEquals(CheckResult.Status.PASS, find(rs, "target_privilege", "target").status());
        assertEquals(CheckResult.Status.PASS, find(rs, "charset", "target").status());
        assertEquals(CheckResult.Status.PASS, find(rs, "local_infile", "target").status(), "MariaDB's default is ON");
        CheckResult session = find(rs, "session_binlog_format", "source");
        assertEquals(CheckResult.Status.WARN, session.status(), session.detail());
        assertTrue(session.detail().contains("SET SESSION binlog_format=STATEMENT or MIXED"), session.detail());
    }

    @Test
    void tablesOutsideTransactionsAreNamedWithWhatTheLoadDoesWithThem() {
        source.freshDatabase("pre_engines");
        source.execute("CREATE TABLE pre_engines.my (id INT PRIMARY KEY) ENGINE=MyISAM",
                "CREATE TABLE pre_engines.ar (id INT PRIMARY KEY) ENGINE=Aria",
                "CREATE TABLE pre_engines.inno (id INT PRIMARY KEY) ENGINE=InnoDB");
        List<CheckResult> rs = new Prechecker(input(spec(source), "pre_engines", Set.of())).run();
        List<CheckResult> engines = rs.stream().filter(r -> r.item().equals("table_schema")
                && r.detail().contains("outside transactions")).toList();
        assertEquals(1, engines.size(), rs.toString());
        assertEquals(CheckResult.Status.WARN, engines.get(0).status());
        assertTrue(engines.get(0).detail().startsWith("2 of 3 tables keep their rows outside transactions"
                + " (pre_engines.ar (Aria), pre_engines.my (MyISAM)): the load writes them statement by statement"),
                engines.get(0).detail());
        assertTrue(new Prechecker(input(spec(source), "pre_ok", Set.of())).run().stream()
                .noneMatch(r -> r.detail().contains("outside transactions")), "InnoDB tables are not named");
    }

    /**
     * The target tables a load writes into, as they are before it: a keyless one holding rows that no
     * load of the task wrote fails, until the task's checkpoint shows it begun; one whose engine keeps
     * rows outside transactions while the source's does not is named with what the load does.
     */
    @Test
    void targetTablesTheLoadWouldFillTwiceFailAndTablesOutsideTransactionsOnTheTargetOnlyAreNamed()
            throws Exception {
        source.freshDatabase("pre_held");
        source.execute("CREATE TABLE pre_held.bare (v VARCHAR(10))", "CREATE TABLE pre_held.keyed (id INT PRIMARY KEY)",
                "CREATE TABLE pre_held.empty (v VARCHAR(10))", "CREATE TABLE pre_held.eng (id INT PRIMARY KEY)",
                "CREATE TABLE pre_held.both (id INT PRIMARY KEY) ENGINE=MyISAM");
        target.freshDatabase("pre_held_t");
        target.execute("CREATE TABLE pre_held_t.bare (v VARCHAR(10))", "INSERT INTO pre_held_t.bare VALUES ('old')",
                "CREATE TABLE pre_held_t.keyed (id INT PRIMARY KEY)", "INSERT INTO pre_held_t.keyed VALUES (1)",
                "CREATE TABLE pre_held_t.empty (v VARCHAR(10))",
                "CREATE TABLE pre_held_t.eng (id INT PRIMARY KEY) ENGINE=MyISAM",
                "CREATE TABLE pre_held_t.both (id INT PRIMARY KEY) ENGINE=MyISAM",
                "CREATE DATABASE IF NOT EXISTS jdm_meta", "DROP TABLE IF EXISTS jdm_meta.pre_held_loader_checkpoint");
        PrecheckInput in = new PrecheckInput(true, true, List.of(new PrecheckInput.Source("mysql-01", spec(source),
                (d, t) -> d.equals("pre_held"), true, 5, 19, io.jdm.common.config.Consistency.AUTO,
                t -> new io.jdm.common.sql.TableName("pre_held_t", t.table()), java.nio.file.Path.of("dump"))),
                spec(target), "jdm_meta", Set.of(), io.jdm.common.config.ShardMode.NONE, "pre_held");
        List<CheckResult> rs = new Prechecker(in).run();
        CheckResult held = find(rs, "downstream_table_empty", "target");
        assertEquals(CheckResult.Status.FAIL, held.status(), held.detail());
        assertTrue(held.detail().startsWith("target table `pre_held_t`.`bare` holds rows that no load of this task"
                + " wrote (its checkpoint `jdm_meta`.`pre_held_loader_checkpoint` shows none of its files begun) and has"
                + " no primary or NOT NULL unique key"), held.detail());
        assertTrue(held.detail().contains("empty or drop that table on the target, or run the task under the task"
                + " name whose checkpoint loaded them"), held.detail());
        CheckResult engines = rs.stream().filter(r -> r.item().equals("table_schema") && r.instance().equals("target"))
                .findFirst().orElseThrow(() -> new AssertionError(rs.toString()));
        assertEquals(CheckResult.Status.WARN, engines.status());
        assertTrue(engines.detail().startsWith("1 target table keeps its rows outside transactions while the source"
                + " keeps them in transactions (pre_held_t.eng (MyISAM, from mysql-01 pre_held.eng)): going by the"
                + " target's engine, the load writes them statement by statement, never with LOAD DATA"),
                engines.detail());

        // the task's own checkpoint has begun the table: the rows are the task's, and the load resumes
        target.execute("CREATE TABLE jdm_meta.pre_held_loader_checkpoint (source_id VARCHAR(128) NOT NULL,"
                + " file VARCHAR(512) NOT NULL, `offset` BIGINT NOT NULL, end_offset BIGINT NOT NULL,"
                + " status VARCHAR(16) NOT NULL, rows_loaded BIGINT NOT NULL, PRIMARY KEY (source_id, file))",
                "INSERT INTO jdm_meta.pre_held_loader_checkpoint VALUES ('mysql-01', 'pre_held.bare.000000001.sql',"
                        + " 0, 0, 'pending', 0)");
        assertEquals(CheckResult.Status.FAIL, find(new Prechecker(in).run(), "downstream_table_empty", "target")
                .status(), "a file registered but not begun wrote nothing");
        target.execute("UPDATE jdm_meta.pre_held_loader_checkpoint SET status = 'finished', `offset` = 100");
        held = find(new Prechecker(in).run(), "downstream_table_empty", "target");
        assertEquals(CheckResult.Status.PASS, held.status(), held.detail());
        target.execute("DROP TABLE jdm_meta.pre_held_loader_checkpoint");
    }

    /** MariaDB's system-versioned tables and sequences: the dump refuses them, so the check fails naming them. */
    @Test
    void aSystemVersionedTableOrASequenceSelectedFailsTheCheckNamingThem() {
        org.junit.jupiter.api.Assumptions.assumeTrue(source.flavor().equals("mariadb"),
                "system versioning and sequences are MariaDB's");
        source.freshDatabase("pre_hist");
        source.execute("CREATE TABLE pre_hist.t (id INT PRIMARY KEY)",
                "CREATE TABLE pre_hist.h (id INT PRIMARY KEY) WITH SYSTEM VERSIONING",
                "CREATE SEQUENCE pre_hist.s");
        List<CheckResult> rs = new Prechecker(input(spec(source), "pre_hist", Set.of())).run();
        CheckResult r = find(rs, "table_schema", "source");
        assertEquals(CheckResult.Status.FAIL, r.status(), r.detail());
        assertTrue(r.detail().contains("`pre_hist`.`h` (system versioned), `pre_hist`.`s` (sequence)"), r.detail());
        assertTrue(new CheckReport(rs).anyFailed());
        PrecheckInput without = new PrecheckInput(true, true, List.of(new PrecheckInput.Source("mysql-01",
                spec(source), (d, t) -> d.equals("pre_hist") && t.equals("t"), true, 5, 19)),
                spec(target), "jdm_meta", Set.of());
        r = find(new Prechecker(without).run(), "table_schema", "source");
        assertEquals(CheckResult.Status.PASS, r.status(), r.detail());
    }

    @Test
    void tableWithoutKeyIsAWarningNotAFailure() {
        List<CheckResult> rs = new Prechecker(input(spec(source), "pre_nokey", Set.of())).run();
        CheckResult r = find(rs, "table_schema", "source");
        assertEquals(CheckResult.Status.WARN, r.status());
        assertTrue(r.detail().contains("pre_nokey.bare"), r.detail());
        assertFalse(new CheckReport(rs).anyFailed());
    }

    /**
     * A schema of many tables has their columns and keys read with the whole schema ({@link
     * io.jdm.common.schema.SchemaReader#readTogether}); the tables named keyless are still exactly those
     * without a primary key or a unique key on NOT NULL columns.
     */
    @Test
    void aSchemaOfManyTablesNamesExactlyItsKeylessTables() {
        int n = io.jdm.common.schema.TableReadCache.WHOLE_AFTER + 2;
        source.freshDatabase("pre_many");
        List<String> keyless = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String key = switch (i % 6) {
                case 0 -> "";
                case 1 -> ", UNIQUE KEY u (v)"; // v may be NULL: not a key that names a row
                case 2 -> ", UNIQUE KEY u (id)";
                default -> ", PRIMARY KEY (id)";
            };
            source.execute("CREATE TABLE pre_many.t" + i + " (id INT NOT NULL, v INT" + key + ")");
            if (i % 6 < 2) {
                keyless.add("t" + i);
            }
        }
        CheckResult r = find(new Prechecker(input(spec(source), "pre_many", Set.of())).run(), "table_schema", "source");
        assertEquals(CheckResult.Status.WARN, r.status(), r.detail());
        assertTrue(r.detail().startsWith(keyless.size() + " of " + n + " tables have no primary"), r.detail());
        java.util.regex.Matcher shown = java.util.regex.Pattern.compile("pre_many\\.(t\\d+)").matcher(r.detail());
        int named = 0;
        while (shown.find()) {
            assertTrue(keyless.contains(shown.group(1)), shown.group(1) + " has a key: " + r.detail());
            named++;
        }
        assertEquals(5, named, r.detail());
        assertTrue(r.detail().contains("... " + (keyless.size() - 5) + " more"), r.detail());
    }

    @Test
    void userWithoutPrivilegesFailsDumpAndReplicationChecks() {
        source.execute("DROP USER IF EXISTS 'weak'@'127.0.0.1'",
                "CREATE USER 'weak'@'127.0.0.1' IDENTIFIED BY 'weakpw'",
                "GRANT SELECT ON pre_ok.* TO 'weak'@'127.0.0.1'");
        ConnectionSpec weak = ConnectionSpec.of(source.host(), source.port(), "weak", "weakpw");
        List<CheckResult> rs = new Prechecker(input(weak, "pre_ok", Set.of())).run();
        CheckResult dump = find(rs, "dump_privilege", "source");
        assertEquals(CheckResult.Status.FAIL, dump.status());
        assertTrue(dump.detail().contains("RELOAD") && dump.detail().contains("LOCK TABLES"), dump.detail());
        assertEquals(CheckResult.Status.FAIL, find(rs, "replication_privilege", "source").status());
        assertTrue(new CheckReport(rs).anyFailed());
    }

    @Test
    void ignoredItemsAreNotReported() {
        source.execute("DROP USER IF EXISTS 'weak2'@'127.0.0.1'",
                "CREATE USER 'weak2'@'127.0.0.1' IDENTIFIED BY 'pw'", "GRANT SELECT ON *.* TO 'weak2'@'127.0.0.1'");
        ConnectionSpec weak = ConnectionSpec.of(source.host(), source.port(), "weak2", "pw");
        List<CheckResult> rs = new Prechecker(input(weak, "pre_ok",
                Set.of("dump_privilege", "replication_privilege"))).run();
        assertTrue(rs.stream().noneMatch(r -> r.item().endsWith("_privilege") && r.instance().startsWith("source")));
        assertFalse(new CheckReport(rs).anyFailed(), new CheckReport(rs).table());
    }

    @Test
    void wrongPasswordSaysSoInOneLine() {
        ConnectionSpec bad = ConnectionSpec.of(source.host(), source.port(), "root", "not-the-password");
        CheckResult r = find(new Prechecker(input(bad, "pre_ok", Set.of())).run(), "connection", "source");
        assertEquals(CheckResult.Status.FAIL, r.status());
        assertTrue(r.detail().startsWith("access denied for root"), r.detail());
        assertFalse(r.detail().contains("not-the-password"));
    }

    @Test
    void hostThatDoesNotAnswerFailsWithinTheConnectTimeout() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        ConnectionSpec nobody = ConnectionSpec.of("127.0.0.1", closedPort, "root", "").withConnectTimeout(2);
        long t0 = System.nanoTime();
        CheckResult r = find(new Prechecker(input(nobody, "pre_ok", Set.of())).run(), "connection", "source");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(CheckResult.Status.FAIL, r.status());
        assertTrue(r.detail().startsWith("no answer from 127.0.0.1:" + closedPort), r.detail());
        assertTrue(ms < 10_000, "took " + ms + " ms");
    }

    @Test
    void sourceWithoutBinlogFailsTheBinlogChecks() {
        try (EmbeddedMariaDb nobinlog = EmbeddedMariaDb.start("precheck-nobinlog", ServerProfile.SOURCE_NO_BINLOG)) {
            nobinlog.freshDatabase("pre_ok");
            nobinlog.execute("CREATE TABLE pre_ok.t (id INT PRIMARY KEY)");
            List<CheckResult> rs = new Prechecker(input(spec(nobinlog), "pre_ok", Set.of())).run();
            CheckResult r = find(rs, "binlog_enable", "source");
            assertEquals(CheckResult.Status.FAIL, r.status());
            assertTrue(r.detail().contains("log-bin"), r.detail());
            assertTrue(new CheckReport(rs).anyFailed());
        }
    }

    @Test
    void autoIncrementKeysOfMergedShardsAreAWarningNamingTargetAndShards() {
        source.freshDatabase("pre_shard_1");
        source.freshDatabase("pre_shard_2");
        source.execute("CREATE TABLE pre_shard_1.t (id BIGINT AUTO_INCREMENT PRIMARY KEY, v INT)",
                "CREATE TABLE pre_shard_2.t (id BIGINT AUTO_INCREMENT PRIMARY KEY, v INT)",
                "CREATE TABLE pre_shard_1.u (id INT PRIMARY KEY, n INT AUTO_INCREMENT, KEY (n))",
                "CREATE TABLE pre_shard_2.u (id INT PRIMARY KEY, n INT AUTO_INCREMENT, KEY (n))",
                "CREATE TABLE pre_shard_1.solo (id INT AUTO_INCREMENT PRIMARY KEY)");
        // Both shard schemas read from one server as two sources; t and u of both go to pre_merged.
        java.util.function.UnaryOperator<io.jdm.common.sql.TableName> route = t -> t.table().equals("solo") ? t
                : new io.jdm.common.sql.TableName("pre_merged", t.table());
        List<PrecheckInput.Source> sources = List.of(
                new PrecheckInput.Source("mysql-01", spec(source), (d, t) -> d.equals("pre_shard_1"), true, 5, 19,
                        io.jdm.common.config.Consistency.AUTO, route),
                new PrecheckInput.Source("mysql-02", spec(source), (d, t) -> d.equals("pre_shard_2"), true, 5, 19,
                        io.jdm.common.config.Consistency.AUTO, route));
        List<CheckResult> rs = new Prechecker(new PrecheckInput(true, true, sources, spec(target), "jdm_meta",
                Set.of())).run();
        List<CheckResult> auto = rs.stream().filter(r -> r.item().equals("auto_increment_ID")).toList();
        assertEquals(1, auto.size(), auto.toString());
        CheckResult r = auto.get(0);
        assertEquals(CheckResult.Status.WARN, r.status(), r.detail());
        assertEquals("target", r.instance());
        assertTrue(r.detail().startsWith("target table pre_merged.t merges 2 shards and 2 of them have an "
                + "AUTO_INCREMENT column in a primary or unique key (mysql-01 pre_shard_1.t key PRIMARY (id), "
                + "mysql-02 pre_shard_2.t key PRIMARY (id))"), r.detail());
        assertTrue(r.detail().contains("auto_increment_offset"), r.detail());
        assertTrue(r.detail().contains("composite key"), r.detail());
        assertFalse(new CheckReport(rs).anyFailed(), "a warning, not a failure");

        // u's AUTO_INCREMENT column is in no unique key: no collision to fear.
        source.execute("DROP TABLE pre_shard_2.t");
        rs = new Prechecker(new PrecheckInput(true, true, sources, spec(target), "jdm_meta", Set.of())).run();
        CheckResult pass = find(rs, "auto_increment_ID", "target");
        assertEquals(CheckResult.Status.PASS, pass.status(), pass.detail());

        source.execute("CREATE TABLE pre_shard_2.t (id BIGINT AUTO_INCREMENT PRIMARY KEY, v INT)");
        assertTrue(new Prechecker(new PrecheckInput(true, true, sources, spec(target), "jdm_meta",
                Set.of("auto_increment_ID"))).run().stream().noneMatch(x -> x.item().equals("auto_increment_ID")));
        // Without routes that merge, the item is not reported.
        assertTrue(new Prechecker(input(spec(source), "pre_shard_1", Set.of())).run().stream()
                .noneMatch(x -> x.item().equals("auto_increment_ID")));
    }

    @Test
    void schemaOfShardTablesWantsAlikeShardsInPessimisticModeAndJoinableOnesInOptimistic() throws Exception {
        source.freshDatabase("pre_sch_1");
        source.freshDatabase("pre_sch_2");
        source.execute("CREATE TABLE pre_sch_1.t (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE pre_sch_2.t (id INT PRIMARY KEY, v INT)");
        java.util.function.UnaryOperator<io.jdm.common.sql.TableName> route =
                t -> new io.jdm.common.sql.TableName("pre_sch_merged", t.table());
        List<PrecheckInput.Source> sources = List.of(
                new PrecheckInput.Source("mysql-01", spec(source), (d, t) -> d.equals("pre_sch_1"), true, 5, 19,
                        io.jdm.common.config.Consistency.AUTO, route),
                new PrecheckInput.Source("mysql-02", spec(source), (d, t) -> d.equals("pre_sch_2"), true, 5, 19,
                        io.jdm.common.config.Consistency.AUTO, route));
        java.util.function.Function<io.jdm.common.config.ShardMode, CheckResult> check = mode -> find(
                new Prechecker(new PrecheckInput(true, true, sources, spec(target), "jdm_meta", Set.of(), mode)).run(),
                "schema_of_shard_tables", "target");
        assertEquals(CheckResult.Status.PASS, check.apply(io.jdm.common.config.ShardMode.PESSIMISTIC).status());

        source.execute("ALTER TABLE pre_sch_2.t ADD COLUMN extra INT NULL");
        CheckResult r = check.apply(io.jdm.common.config.ShardMode.PESSIMISTIC);
        assertEquals(CheckResult.Status.FAIL, r.status(), r.detail());
        assertTrue(r.detail().contains("mysql-01 pre_sch_1.t and mysql-02 pre_sch_2.t differ")
                && r.detail().contains("column extra"), r.detail());
        assertEquals(CheckResult.Status.PASS, check.apply(io.jdm.common.config.ShardMode.OPTIMISTIC).status(),
                "an extra nullable column joins");

        source.execute("ALTER TABLE pre_sch_1.t ADD COLUMN z INT NULL", "ALTER TABLE pre_sch_2.t ADD COLUMN z "
                + "VARCHAR(5) NULL");
        r = check.apply(io.jdm.common.config.ShardMode.OPTIMISTIC);
        assertEquals(CheckResult.Status.FAIL, r.status(), r.detail());
        assertTrue(r.detail().contains("column z") && r.detail().contains("mysql-01 pre_sch_1.t")
                && r.detail().contains("mysql-02 pre_sch_2.t"), r.detail());
        // without a shard mode the item is not reported
        assertTrue(new Prechecker(new PrecheckInput(true, true, sources, spec(target), "jdm_meta", Set.of())).run()
                .stream().noneMatch(x -> x.item().equals("schema_of_shard_tables")));
    }
}
