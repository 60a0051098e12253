package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.cli.TestTasks;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.embedded.ServerFlavor;
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

    /**
     * A source whose sessions are not strict holds a generated column past its type's range (clipped)
     * and a zero date: its dump records its sql_mode, and the load writes the rows back in it,
     * where the strict mode a load used to write in refused the row ("Out of range value").
     */
    @Test
    void aNonStrictSourcesRowsDumpAndLoadInItsSqlMode() throws Exception {
        String db = "replay_nonstrict";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta.replay_nonstrict_loader_checkpoint");
        source.execute("CREATE TABLE " + db + ".g (id INT PRIMARY KEY, i INT, gen INT AS (i + 1) VIRTUAL,"
                + " st INT AS (i * 2) STORED, d DATE, nn VARCHAR(5) NOT NULL)");
        sourceSession("", "INSERT INTO " + db + ".g (id, i, d, nn) VALUES (1, 2147483647, '0000-00-00', 'x'),"
                + " (2, 2, '2024-02-30', NULL)");
        String original = globalSqlMode();
        Path dump = dir.resolve("dump");
        try {
            source.execute("SET GLOBAL sql_mode = ''");
            new DumpUnit(DumpConfig.defaults("replay_nonstrict", spec(source), dump)
                    .withTableFilter((s, t) -> s.equals(db))).run();
        } finally {
            source.execute("SET GLOBAL sql_mode = '" + original + "'");
        }
        assertEquals("", io.jdm.common.dumpdir.DumpMetadata.readFrom(dump).orElseThrow().sourceSqlMode());
        assertTrue(new LoadUnit(LoadConfig.of("replay_nonstrict", "s1", spec(target), dump)).run().completed());
        assertEquals(source.hexRows(db, "g"), target.hexRows(db, "g"));
        assertEquals(showCreate(source, db + ".g"), showCreate(target, db + ".g"));
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

    /**
     * A child table whose name sorts before its parent's: the dump's schema files say what mydumper's
     * say ({@code SET FOREIGN_KEY_CHECKS=0}), and the load creates such a table from a file without
     * that line (an older dump's, Dumpling's) all the same.
     */
    @Test
    void aChildTableThatSortsBeforeItsParentIsCreatedAndLoaded() throws Exception {
        String db = "replay_fk";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".b_parent (id INT PRIMARY KEY, v VARCHAR(10))",
                "CREATE TABLE " + db + ".a_child (id INT PRIMARY KEY, p INT, KEY p (p),"
                        + " CONSTRAINT fk_p FOREIGN KEY (p) REFERENCES b_parent (id))",
                "INSERT INTO " + db + ".b_parent VALUES (1, 'one'), (2, 'two')",
                "INSERT INTO " + db + ".a_child VALUES (10, 1), (20, 2), (30, NULL)");
        Path dump = dir.resolve("dump");
        new DumpUnit(DumpConfig.defaults("replay_fk", spec(source), dump).withTableFilter((s, t) -> s.equals(db))).run();
        Path childSchema = dump.resolve(db + ".a_child-schema.sql");
        String schema = java.nio.file.Files.readString(childSchema);
        assertTrue(schema.contains("/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\nCREATE TABLE `a_child`"), schema);
        for (String file : List.of(schema, schema.replace("/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n", ""))) {
            java.nio.file.Files.writeString(childSchema, file);
            target.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                    "DROP TABLE IF EXISTS jdm_meta.replay_fk_loader_checkpoint");
            assertTrue(new LoadUnit(LoadConfig.of("replay_fk", "s1", spec(target), dump)).run().completed());
            for (String t : List.of("a_child", "b_parent")) {
                assertEquals(showCreate(source, db + "." + t), showCreate(target, db + "." + t));
            }
            assertEquals(source.rows("SELECT id, HEX(p) FROM " + db + ".a_child ORDER BY id"),
                    target.rows("SELECT id, HEX(p) FROM " + db + ".a_child ORDER BY id"));
        }
    }

    /** A FLOAT's and a DOUBLE's -0 keep their sign through the dump and both ways of loading it. */
    @Test
    void aFloatAndDoubleMinusZeroKeepTheirSign() throws Exception {
        String db = "replay_zero";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, f FLOAT, d DOUBLE, r REAL)",
                "INSERT INTO " + db + ".t VALUES (1, -0e0, -0e0, -0e0), (2, 0, 0, 0), (3, -1.5, -2.5e-300, -0.0)");
        String rows = "SELECT id, CAST(f AS CHAR), CAST(d AS CHAR), CAST(r AS CHAR) FROM " + db + ".t ORDER BY id";
        assertEquals("1|-0|-0|-0", source.rows(rows).get(0), "the source holds -0");
        Path dump = dir.resolve("dump");
        new DumpUnit(DumpConfig.defaults("replay_zero", spec(source), dump).withTableFilter((s, t) -> s.equals(db)))
                .run();
        for (int infile : new int[] {1, 0}) {
            target.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                    "DROP TABLE IF EXISTS jdm_meta.replay_zero_loader_checkpoint", "SET GLOBAL local_infile = " + infile);
            try {
                assertTrue(new LoadUnit(LoadConfig.of("replay_zero", "s1", spec(target), dump)).run().completed());
            } finally {
                target.execute("SET GLOBAL local_infile = 1");
            }
            assertEquals(source.rows(rows), target.rows(rows), "local_infile " + infile);
        }
    }

    /**
     * A dump can tell a DECIMAL from the text when no double prints that way: those load as
     * DECIMALs; doubles MySQL's JSON parser would round to a neighbour load as they are.
     */
    @Test
    void jsonDecimalsLoadAsDecimals() throws Exception {
        assumeTrue(TestServers.sourceFlavor().isMySql(), "JSON decimals need a MySQL source");
        String db = "replay_json";
        source.freshDatabase(db);
        freshTarget(db, "replay_json");
        source.execute("CREATE TABLE " + db + ".j (id INT PRIMARY KEY, doc JSON)",
                "INSERT INTO " + db + ".j VALUES (1, JSON_OBJECT('d', 123456789012345678901234567890, 'f', 1.50, "
                        + "'n9', " + "9".repeat(65) + ", 'x', 1.5e300, 'a', JSON_ARRAY(0.00000, 'x'))), "
                        + "(2, CAST(1.50 AS JSON)), (3, JSON_ARRAY(1, 2.5e0, '1.50')), (4, NULL)",
                "INSERT INTO " + db + ".j SELECT 5, JSON_ARRAYAGG(RAND(ID) * POW(10, CAST(ID AS SIGNED) % 40 - 20)) "
                        + "FROM information_schema.COLLATIONS");
        dumpAndLoad(db, "replay_json");
        String text = "SELECT id, CAST(doc AS CHAR) FROM " + db + ".j ORDER BY id";
        assertEquals(source.rows(text), target.rows(text));
        if (!TestServers.targetFlavor().isMySql()) {
            return; // MariaDB's JSON is text: the text is all there is to keep
        }
        String types = "SELECT id, JSON_TYPE(JSON_EXTRACT(doc, '$.d')), JSON_TYPE(JSON_EXTRACT(doc, '$.f')), "
                + "JSON_TYPE(JSON_EXTRACT(doc, '$.n9')), JSON_TYPE(JSON_EXTRACT(doc, '$.x')), "
                + "JSON_TYPE(JSON_EXTRACT(doc, '$.a[0]')), JSON_TYPE(doc) FROM " + db + ".j WHERE id IN (1, 2) "
                + "ORDER BY id";
        assertEquals(List.of("1|DECIMAL|DECIMAL|DECIMAL|DOUBLE|DECIMAL|OBJECT", "2||||||DECIMAL"), target.rows(types));
        assertEquals(source.rows(types), target.rows(types));
    }

    /**
     * A DATE, TIME or DATETIME inside a MySQL JSON document prints as the string of that value, and
     * a binary string as {@code "base64:type15:…"}: the dump asks the source which printed strings
     * are strings, writes the others back with their type, and leaves the strings that look like
     * dates strings. A TIMESTAMP, which prints as a DATETIME does and which no SQL expression writes
     * into JSON, stops the dump in one line naming the column and the path, as the sync does.
     */
    @Test
    void jsonDatesTimesAndBinaryStringsLoadWithTheirTypes() throws Exception {
        assumeTrue(TestServers.sourceFlavor().isMySql(), "JSON with types needs a MySQL source");
        // 5.7 makes a binary string in JSON an opaque value of type 253, which no expression writes back
        boolean binary = TestServers.sourceFlavor() == ServerFlavor.MYSQL8;
        String db = "replay_json_types";
        source.freshDatabase(db);
        freshTarget(db, "replay_json_types");
        source.execute("CREATE TABLE " + db + ".j (id INT PRIMARY KEY, doc JSON)",
                "INSERT INTO " + db + ".j VALUES (1, JSON_OBJECT('d', CAST('2020-01-02' AS DATE), 's', '2020-01-02',"
                        + " 'a', JSON_ARRAY(CAST('-01:02:03' AS TIME), 'x', CAST('838:59:59' AS TIME),"
                        + " CAST('2020-01-02 03:04:05.5' AS DATETIME(1)), '12:00:00.000000', 1.50"
                        + (binary ? ", CAST(x'0102' AS BINARY)" : "") + "), 'my key', CAST('2021-12-31' AS DATE))),"
                        + " (2, CAST(CAST('2020-01-02' AS DATE) AS JSON)), (3, '{\"s\": \"2020-01-02\"}'), (4, NULL),"
                        + " (5, JSON_ARRAY('base64:type15:AQI=', CAST('00:00:01' AS TIME)))");
        dumpAndLoad(db, "replay_json_types");
        String text = "SELECT id, HEX(CAST(doc AS CHAR)) FROM " + db + ".j ORDER BY id";
        assertEquals(source.rows(text), target.rows(text));
        if (TestServers.targetFlavor().isMySql()) {
            String types = "SELECT id, JSON_TYPE(JSON_EXTRACT(doc, '$.d')), JSON_TYPE(JSON_EXTRACT(doc, '$.s')),"
                    + " JSON_TYPE(JSON_EXTRACT(doc, '$.a[0]')), JSON_TYPE(JSON_EXTRACT(doc, '$.a[1]')),"
                    + " JSON_TYPE(JSON_EXTRACT(doc, '$.a[2]')), JSON_TYPE(JSON_EXTRACT(doc, '$.a[3]')),"
                    + " JSON_TYPE(JSON_EXTRACT(doc, '$.a[4]')), JSON_TYPE(JSON_EXTRACT(doc, '$.a[5]')),"
                    + " JSON_TYPE(JSON_EXTRACT(doc, '$.a[6]')), JSON_TYPE(JSON_EXTRACT(doc, '$.\"my key\"')),"
                    // a path of $[0] also finds a document that is no array
                    + " JSON_TYPE(doc), JSON_TYPE(JSON_EXTRACT(doc, '$[0]')), JSON_TYPE(JSON_EXTRACT(doc, '$[1]'))"
                    + " FROM " + db + ".j ORDER BY id";
            assertEquals(List.of("1|DATE|STRING|TIME|STRING|TIME|DATETIME|STRING|DECIMAL|" + (binary ? "BLOB" : "")
                            + "|DATE|OBJECT|OBJECT|", "2|||||||||||DATE|DATE|", "3||STRING|||||||||OBJECT|OBJECT|",
                    "4|||||||||||||",
                    "5|||||||||||ARRAY|STRING|TIME"), target.rows(types));
            assertEquals(source.rows(types), target.rows(types));
        }

        source.execute("CREATE TABLE " + db + ".ts (id INT PRIMARY KEY, t TIMESTAMP(6) NULL, doc JSON)",
                "INSERT INTO " + db + ".ts VALUES (1, '2020-01-02 03:04:05', NULL)",
                "UPDATE " + db + ".ts SET doc = JSON_OBJECT('when', JSON_ARRAY(t))");
        FatalException e = assertThrows(FatalException.class, () -> new DumpUnit(DumpConfig.defaults(
                "replay_json_types", spec(source), dir.resolve("dump_ts")).withTableFilter((s, t) -> s.equals(db))).run());
        assertTrue(e.getMessage().contains("column `doc`: the JSON value at $.\"when\"[0] is a TIMESTAMP, which no SQL"
                + " expression writes into a JSON column with that type; store it as a DATETIME on the source"),
                e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    /** The target without database {@code db} and without task {@code task}'s load checkpoint. */
    private static void freshTarget(String db, String task) {
        target.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta." + task + "_loader_checkpoint");
    }

    /** Database {@code db} of the source dumped into {@code dump} and loaded into the target as task {@code task}. */
    private void dumpAndLoad(String db, String task) {
        new DumpUnit(DumpConfig.defaults(task, spec(source), dir.resolve("dump"))
                .withTableFilter((s, t) -> s.equals(db))).run();
        new LoadUnit(LoadConfig.of(task, "s1", spec(target), dir.resolve("dump"))).run();
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
