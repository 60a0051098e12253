package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.cli.TestTasks;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.TableName;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadUnit;
import io.jdm.sync.SyncUnit;
import io.jdm.verify.Verifier;
import io.jdm.verify.VerifyReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MariaDB's INET4, INET6 and UUID columns arrive as the source holds them, compared as the hex of
 * their bytes and as text: dumped as quoted text (what mariadb-dump writes), loaded both ways, and
 * synced from the binlog's raw bytes (the ones whose trailing zero bytes the binlog cuts included);
 * verify finds the two sides equal; myloader loads jdm's dump of them to the same bytes.
 */
class MariaDbTypesIT {
    private static final String CREATE = "CREATE TABLE %s.t (id INT PRIMARY KEY, a4 INET4, a6 INET6, u UUID,"
            + " k UUID NOT NULL, f FLOAT, d DOUBLE, UNIQUE KEY k (k))";
    /** 16-character addresses (the length of a raw INET6), zero tails, version 1 (swapped when stored) and 4 UUIDs. */
    private static final String ROWS = "(1, '192.168.0.1', '2001:db8::ff00:4', 'e60c88ba-083f-11ee-be56-0242ac120002',"
            + " '00000000-0000-0000-0000-000000000001', -0e0, -0e0),"
            + " (2, '0.0.0.0', '::', '00000000-0000-0000-0000-000000000000', 'c8eb4b15-cb09-48bb-bbb2-e6a0b6b4d5c7',"
            + " 0, 0),"
            + " (3, '10.0.0.0', 'ffff:ffff:ffff::', 'ffffffff-ffff-4fff-bfff-ff0000000000',"
            + " '11111111-2222-1333-8444-555555555555', 1.5, -2.5),"
            + " (4, NULL, '::ffff:1.2.3.4', NULL, '7f9d04ae-61b3-4468-ac79-8ffcc984ab68', NULL, NULL)";
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        assumeTrue(TestServers.sourceFlavor() == ServerFlavor.MARIADB && TestServers.targetFlavor() == ServerFlavor.MARIADB,
                "INET4, INET6 and UUID are MariaDB's");
        ServerPair p = TestServers.shared();
        source = p.source();
        target = p.target();
    }

    private static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), "root", "");
    }

    private static String rows(String db) {
        return "SELECT id, HEX(a4), HEX(a6), HEX(u), HEX(k), CAST(a4 AS CHAR), CAST(a6 AS CHAR), CAST(u AS CHAR),"
                + " CAST(f AS CHAR), CAST(d AS CHAR) FROM " + db + ".t ORDER BY id";
    }

    @Test
    void dumpedAsTextAndLoadedBothWaysTheyAreTheSourcesBytes() throws Exception {
        String db = "mariadb_types_load";
        source.freshDatabase(db);
        source.execute(String.format(CREATE, db), "INSERT INTO " + db + ".t VALUES " + ROWS);
        assertTrue(source.rows(rows(db)).get(0).startsWith("1|C0A80001|20010DB80000000000000000FF000004|"),
                source.rows(rows(db)).get(0));
        Path dump = dir.resolve("dump");
        new DumpUnit(DumpConfig.defaults("mariadb_types", spec(source), dump).withTableFilter((s, t) -> s.equals(db)))
                .run();
        String data = Files.readString(dump.resolve(db + ".t.000000001.sql"));
        assertTrue(data.contains("(1,'192.168.0.1','2001:db8::ff00:4','e60c88ba-083f-11ee-be56-0242ac120002',"), data);
        for (int infile : new int[] {1, 0}) {
            target.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                    "DROP TABLE IF EXISTS jdm_meta.mariadb_types_loader_checkpoint",
                    "SET GLOBAL local_infile = " + infile);
            try {
                assertTrue(new LoadUnit(LoadConfig.of("mariadb_types", "s1", spec(target), dump)).run().completed());
            } finally {
                target.execute("SET GLOBAL local_infile = 1");
            }
            assertEquals(source.rows(rows(db)), target.rows(rows(db)), "local_infile " + infile);
        }
        VerifyReport r = Verifier.compare(spec(source), spec(target), List.of(new io.jdm.verify.TablePair(
                new TableName(db, "t"), new TableName(db, "t"))));
        assertTrue(r.matches(), r.renderTable());
        target.execute("UPDATE " + db + ".t SET a6 = '::1' WHERE id = 2");
        assertFalse(Verifier.compare(spec(source), spec(target), List.of(new io.jdm.verify.TablePair(
                new TableName(db, "t"), new TableName(db, "t")))).matches(), "verify sees an INET6 that differs");
    }

    @Test
    void myloaderLoadsJdmsDumpOfThemToTheSourcesBytes() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/myloader")), "myloader is not installed (Debian: mydumper)");
        String db = "mariadb_types_myloader";
        source.freshDatabase(db);
        source.execute(String.format(CREATE, db), "INSERT INTO " + db + ".t VALUES " + ROWS);
        Path dump = dir.resolve("dump-for-myloader");
        new DumpUnit(DumpConfig.defaults("mariadb_types", spec(source), dump).withTableFilter((s, t) -> s.equals(db)))
                .run();
        target.execute("DROP DATABASE IF EXISTS " + db);
        Process p = new ProcessBuilder("myloader", "-h", target.host(), "-P", String.valueOf(target.port()),
                "-u", target.user(), "-d", dump.toString()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "myloader did not finish");
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.exitValue(), out);
        assertEquals(source.rows(rows(db)), target.rows(rows(db)));
    }

    @Test
    void syncedFromTheBinlogTheyAreTheSourcesBytes() throws Exception {
        String db = "mariadb_types_sync";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_types");
        source.execute(String.format(CREATE, db));
        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(
                TestTasks.allMode(dir, "mariadb-types", "jdm_types", source, target, db)),
                TaskRunner.Stages.FROM_TASK_MODE);
        BackgroundTask run = BackgroundTask.start(runner, "mariadb-types");
        try {
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            source.execute("INSERT INTO " + db + ".t VALUES " + ROWS,
                    "UPDATE " + db + ".t SET a6 = '1::', a4 = '255.255.255.0' WHERE k = 'c8eb4b15-cb09-48bb-bbb2-e6a0b6b4d5c7'",
                    "UPDATE " + db + ".t SET u = '00000000-0000-1000-8000-000000000000' WHERE id = 4",
                    "DELETE FROM " + db + ".t WHERE k = '11111111-2222-1333-8444-555555555555'");
            BinlogPosition end;
            try (Connection c = DataSources.connect(spec(source))) {
                end = Flavor.detect(c).currentPosition(c);
            }
            assertTrue(sync.awaitCaughtUp(end, Duration.ofMinutes(1)), "not caught up: " + sync.failure());
            assertEquals(3, source.rows(rows(db)).size());
            assertEquals(source.rows(rows(db)), target.rows(rows(db)));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertTrue(run.failure() == null, "runner failed: " + run.failure());
    }
}
