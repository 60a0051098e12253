package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.jdm.cli.TestTasks;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadUnit;
import io.jdm.sync.SyncUnit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Values and schemas a source's sql_mode lets it hold come through dump, load and sync unchanged. */
class ReplayValuesIT {
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        ServerPair p = TestServers.shared();
        source = p.source();
        target = p.target();
    }

    private static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), "root", "");
    }

    @Test
    void aSourceAtAnsiQuotesDumpsSchemasTheLoadCreatesAsTheSourceHasThem() throws Exception {
        String db = "replay_ansi";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta.replay_ansi_loader_checkpoint");
        source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, `a b` VARCHAR(10) DEFAULT 'it''s',"
                        + " `q\"` INT, KEY k (`a b`)) DEFAULT CHARSET = utf8mb4",
                "INSERT INTO " + db + ".t VALUES (1, 'x\"y', 2)");
        String original = globalSqlMode();
        try {
            source.execute("SET GLOBAL sql_mode = 'ANSI_QUOTES,STRICT_TRANS_TABLES'");
            new DumpUnit(DumpConfig.defaults("replay_ansi", spec(source), dir.resolve("dump"))
                    .withTableFilter((s, t) -> s.equals(db))).run();
        } finally {
            source.execute("SET GLOBAL sql_mode = '" + original + "'");
        }
        new LoadUnit(LoadConfig.of("replay_ansi", "s1", spec(target), dir.resolve("dump"))).run();
        assertEquals(showCreate(source, db + ".t"), showCreate(target, db + ".t"));
        assertEquals(source.rows("SELECT id, HEX(`a b`), `q\"` FROM " + db + ".t ORDER BY id"),
                target.rows("SELECT id, HEX(`a b`), `q\"` FROM " + db + ".t ORDER BY id"));
    }

    @Test
    void autoIncrementKeyZeroAndEnumIndexZeroLoadAndSyncAsTheSourceHasThem() throws Exception {
        String db = "replay_values";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_replay");
        source.execute("CREATE TABLE " + db + ".ai (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10))",
                "CREATE TABLE " + db + ".en (id INT PRIMARY KEY, e ENUM('a','b') NOT NULL, s VARCHAR(4))");
        sourceSession("NO_AUTO_VALUE_ON_ZERO", "INSERT INTO " + db + ".ai VALUES (0, 'zero')");
        sourceSession("", "INSERT INTO " + db + ".en VALUES (1, 'a', 'x'), (2, 'no such label', 'y')");
        assertEquals(List.of("1|61|1", "2||0"), source.rows(enumRows(db)), "the source holds index 0");

        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(
                TestTasks.allMode(dir, "replay-values", "jdm_replay", source, target, db)),
                TaskRunner.Stages.FROM_TASK_MODE);
        BackgroundTask run = BackgroundTask.start(runner, "replay-values");
        try {
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            assertEquals(source.rows(aiRows(db)), target.rows(aiRows(db)), "loaded");
            assertEquals(source.rows(enumRows(db)), target.rows(enumRows(db)), "loaded");

            source.execute("INSERT INTO " + db + ".ai (v) VALUES ('one'), ('two')");
            sourceSession("", "INSERT INTO " + db + ".en VALUES (3, 'nope', 'z'), (4, 'b', 'w')",
                    "UPDATE " + db + ".en SET e = 'bad' WHERE id = 1");
            BinlogPosition end;
            try (Connection c = DataSources.connect(spec(source))) {
                end = Flavor.detect(c).currentPosition(c);
            }
            assertTrue(sync.awaitCaughtUp(end, Duration.ofMinutes(1)), "not caught up: " + sync.failure());
            assertEquals(List.of("0|7A65726F", "1|6F6E65", "2|74776F"), target.rows(aiRows(db)));
            assertEquals(source.rows(aiRows(db)), target.rows(aiRows(db)));
            assertEquals(List.of("1||0", "2||0", "3||0", "4|62|2"), target.rows(enumRows(db)));
            assertEquals(source.rows(enumRows(db)), target.rows(enumRows(db)));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertTrue(run.failure() == null, "runner failed: " + run.failure());
    }

    @Test
    void anInvisibleColumnKeepsItsValuesThroughDumpLoadAndSync() throws Exception {
        assumeFalse(source.rows("SELECT VERSION()").get(0).startsWith("5.7"), "invisible columns are MySQL 8.0.23+'s");
        String db = "replay_invisible";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_invisible");
        source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(10), "
                        + "secret VARBINARY(8) INVISIBLE DEFAULT 'dflt') DEFAULT CHARSET = utf8mb4",
                "INSERT INTO " + db + ".t (id, v, secret) VALUES (1, 'a', 0x0102), (2, 'b', NULL)");
        String rows = "SELECT id, HEX(v), HEX(secret) FROM " + db + ".t ORDER BY id";

        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(
                TestTasks.allMode(dir, "replay-invisible", "jdm_invisible", source, target, db)),
                TaskRunner.Stages.FROM_TASK_MODE);
        BackgroundTask run = BackgroundTask.start(runner, "replay-invisible");
        try {
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            assertEquals(List.of("1|61|0102", "2|62|"), target.rows(rows), "loaded");
            assertEquals(showCreate(source, db + ".t"), showCreate(target, db + ".t"));

            source.execute("INSERT INTO " + db + ".t (id, v, secret) VALUES (3, 'c', 0xFF)",
                    "INSERT INTO " + db + ".t VALUES (4, 'd')",
                    "UPDATE " + db + ".t SET secret = 0x0A WHERE id = 2");
            BinlogPosition end;
            try (Connection c = DataSources.connect(spec(source))) {
                end = Flavor.detect(c).currentPosition(c);
            }
            assertTrue(sync.awaitCaughtUp(end, Duration.ofMinutes(1)), "not caught up: " + sync.failure());
            assertEquals(List.of("1|61|0102", "2|62|0A", "3|63|FF", "4|64|64666C74"), target.rows(rows));
            assertEquals(source.rows(rows), target.rows(rows));
            assertEquals(showCreate(source, db + ".t"), showCreate(target, db + ".t"));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertTrue(run.failure() == null, "runner failed: " + run.failure());
    }

    private static String aiRows(String db) {
        return "SELECT id, HEX(v) FROM " + db + ".ai ORDER BY id";
    }

    private static String enumRows(String db) {
        return "SELECT id, HEX(e), CAST(e + 0 AS UNSIGNED) FROM " + db + ".en ORDER BY id"; // MySQL 8: e + 0 is a DOUBLE
    }

    private static void sourceSession(String sqlMode, String... sql) throws SQLException {
        try (Connection c = source.connect(); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = '" + sqlMode + "'");
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    private static String globalSqlMode() throws SQLException {
        try (Connection c = source.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@GLOBAL.sql_mode")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String showCreate(SqlServer server, String table) throws SQLException {
        try (Connection c = server.connect(); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = ''");
            try (ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + table)) {
                rs.next();
                return rs.getString(2);
            }
        }
    }

}
