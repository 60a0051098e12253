package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load writes in the source's sql_mode: rows a non-strict source stored (a generated column
 * past its type's range, a zero date, a NULL turned into a NOT NULL column's implicit default)
 * load as the source holds them, in InnoDB and MyISAM tables, by LOAD DATA and by statements;
 * a strict source's load still refuses a value the target could only truncate. The dump is
 * written from the source by the server's own literals ({@link FixtureDumper}), its metadata
 * with the source's sql_mode as jdm's dump records it, or without, as Dumpling's.
 */
class LoadSqlModeIT {
    private static final String DB = "LoadSqlModeIT";
    private static final List<String> TABLES = List.of("g", "m", "d", "z");
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void fixture() throws Exception {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        source.freshDatabase(DB);
        String gen = "(id INT PRIMARY KEY, i INT, gen INT AS (i + 1) VIRTUAL, st INT AS (i * 2) STORED,"
                + " nn VARCHAR(5) NOT NULL)";
        try (Connection c = source.connect(); Statement st = c.createStatement()) {
            st.execute("USE `" + DB + "`");
            st.execute("CREATE TABLE g " + gen + " ENGINE=InnoDB");
            st.execute("CREATE TABLE m " + gen + " ENGINE=MyISAM");
            st.execute("CREATE TABLE d (id INT PRIMARY KEY, d DATE, dt DATETIME NOT NULL, n INT NOT NULL)");
            st.execute("CREATE TABLE z (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(200))");
            st.execute("SET SESSION sql_mode = 'NO_AUTO_VALUE_ON_ZERO'");
            st.execute("INSERT INTO z VALUES (0, REPEAT('zero ', 30)), (5, REPEAT('five ', 30))");
            st.execute("SET SESSION sql_mode = ''"); // as a legacy application's sessions write
            for (String t : List.of("g", "m")) {
                st.execute("INSERT INTO " + t + " (id, i, nn) VALUES (1, 2147483647, 'toolong'), (2, 2, NULL)");
            }
            st.execute("INSERT INTO d VALUES (1, '0000-00-00', '2024-02-30 10:00:00', NULL), (2, '2024-01-02',"
                    + " '0000-00-00 00:00:00', 7)");
        }
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, DB, tmp.resolve("plain"), 10, 10, t -> "");
        }
    }

    /** The fixture's dump copied to {@code name}, its metadata recording {@code sourceSqlMode} (null: none). */
    private static Path dump(String name, String sourceSqlMode) throws Exception {
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir);
        try (var files = Files.list(tmp.resolve("plain"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        DumpMetadata m = DumpMetadata.readFrom(dir).orElseThrow();
        new DumpMetadata(m.started(), m.finished(), m.position(), "flush", sourceSqlMode).writeTo(dir);
        return dir;
    }

    private static LoadConfig config(String task, Path dir, String targetDb) {
        target.freshDatabase(targetDb);
        target.execute("CREATE DATABASE IF NOT EXISTS jdm_meta", "DROP TABLE IF EXISTS jdm_meta." + task
                + "_loader_checkpoint");
        return LoadConfig.of(task, "src1", spec(target), dir).withPoolSize(1).withRetry(0, 1)
                .withRouter(t -> new TableName(targetDb, t.table()));
    }

    private static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), s.user(), s.password());
    }

    /** Every table's rows as hex, and, between servers of one version (which print it alike), SHOW CREATE TABLE. */
    private static void assertSameAsSource(String targetDb) throws Exception {
        boolean sameVersion = source.rows("SELECT VERSION()").equals(target.rows("SELECT VERSION()"));
        for (String t : TABLES) {
            assertEquals(source.hexRows(DB, t), target.hexRows(targetDb, t), t);
            if (sameVersion) {
                assertEquals(showCreate(source, DB, t), showCreate(target, targetDb, t), t);
            }
        }
    }

    private static String showCreate(SqlServer s, String db, String t) throws Exception {
        return s.rows("SHOW CREATE TABLE `" + db + "`.`" + t + "`").get(0).replaceFirst("^[^|]*\\|", "");
    }

    @Test
    void aNonStrictSourcesRowsLoadAsItHoldsThemByLoadDataAndByStatements() throws Exception {
        Path dir = dump("recorded", "");
        for (int infile : new int[] {1, 0}) {
            String db = DB + "_nonstrict" + infile;
            LoadConfig cfg = config("sqlmode_nonstrict", dir, db);
            target.execute("SET GLOBAL local_infile = " + infile);
            long loads = HandDump.comLoad(target);
            List<String> fellBack;
            try {
                fellBack = HandDump.fallBacks(() -> assertTrue(new LoadUnit(cfg).run().completed(),
                        "local_infile " + infile));
            } finally {
                target.execute("SET GLOBAL local_infile = 1");
            }
            assertSameAsSource(db);
            if (infile == 1) {
                // d and z by LOAD DATA alone; g tried it, found warnings and went by statements; m (MyISAM) never
                assertEquals(3, HandDump.comLoad(target) - loads, "LOAD DATA of d, z and g");
                assertEquals(1, fellBack.stream().filter(l -> l.contains(".g.") && l.matches(".*the target reported [1-9]"
                        + " warning\\(s\\) and 2 row\\(s\\) for 2 sent.*")).count(), String.join("\n", fellBack));
            }
        }
        assertEquals(List.of("1|2147483647|2147483647|toolo", "2|2|4|"), source.rows("SELECT id, i, st, nn"
                + " FROM `" + DB + "`.g ORDER BY id"), "what the non-strict source stored");
    }

    /** As Dumpling's dump, or jdm's being followed: the source is asked, when the task names it. */
    @Test
    void withoutARecordTheSourceIsAskedAndWithoutASourceTheLoadIsStrict() throws Exception {
        Path dir = dump("unrecorded", null);
        String db = DB + "_strict";
        JdmException e = assertThrows(JdmException.class, () -> new LoadUnit(config("sqlmode_strict", dir, db)).run());
        assertTrue(e.getMessage().contains("Out of range value for column"), e.getMessage());

        String global = source.rows("SELECT @@GLOBAL.sql_mode").get(0);
        source.execute("SET GLOBAL sql_mode = ''");
        try {
            String asked = DB + "_asked";
            assertTrue(new LoadUnit(config("sqlmode_asked", dir, asked).withSource(spec(source))).run().completed());
            assertSameAsSource(asked);
        } finally {
            source.execute("SET GLOBAL sql_mode = '" + global + "'");
        }
    }

    /**
     * A strict source refused what its columns could not hold, and so does its load: a target
     * column narrower than the source's stops the load naming the value, nothing of it written.
     */
    @Test
    void aStrictSourcesLoadStillRefusesAValueTheTargetCouldOnlyTruncate() throws Exception {
        String db = DB + "_narrow";
        source.freshDatabase(db);
        source.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO `" + db + "`.t VALUES (1, 'short'), (2, 'ten chars!')");
        Path dir = tmp.resolve("narrow");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, db, dir, 10, 10, t -> "");
        }
        DumpMetadata m = DumpMetadata.readFrom(dir).orElseThrow();
        // MySQL 5.7's default, whose NO_AUTO_CREATE_USER a MySQL 8.0 target refuses: set without it there
        new DumpMetadata(m.started(), m.finished(), m.position(), "flush", "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,"
                + "NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION")
                .writeTo(dir);
        LoadConfig cfg = config("sqlmode_narrow", dir, db);
        target.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(5))");
        JdmException e = assertThrows(JdmException.class, () -> new LoadUnit(cfg).run());
        assertTrue(e.getMessage().contains("Data too long for column 'v'"), e.getMessage());
        assertTrue(e.getMessage().contains(DumpFileNames.dataFile(db, "t", 1, "")), e.getMessage());
        assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM `" + db + "`.t"));
    }

    /** A recorded mode the target refuses even without the modes inert in replay stops the load before it writes. */
    @Test
    void aModeTheTargetRefusesStopsTheLoadInOneLine() throws Exception {
        Path dir = dump("refused", "STRICT_TRANS_TABLES,NOT_A_MODE");
        String db = DB + "_refused";
        JdmException e = assertThrows(JdmException.class, () -> new LoadUnit(config("sqlmode_refused", dir, db)).run());
        assertTrue(e.getMessage().contains("the target refuses sql_mode 'STRICT_TRANS_TABLES,NOT_A_MODE,"
                + "NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES,NO_ENGINE_SUBSTITUTION' (the source's sql_mode"
                + " 'STRICT_TRANS_TABLES,NOT_A_MODE' as the dump recorded it"), e.getMessage());
        assertTrue(e.getMessage().contains("set sql_mode in the task's target-database session"), e.getMessage());
        assertEquals(List.of(), target.rows("SHOW TABLES FROM `" + db + "`"), "nothing created");
    }

    /**
     * A file that sets its own sql_mode (its text was written for it) leaves the next file on the
     * same connection in the load's, by LOAD DATA and by statements alike: after a file whose mode
     * lacks NO_AUTO_VALUE_ON_ZERO, the explicit 0 of an AUTO_INCREMENT key is kept (z, loaded second,
     * its file the second biggest), and after a strict one the generated-column table loads.
     */
    @Test
    void aFilesOwnSqlModeEndsWithTheFile() throws Exception {
        Path dir = dump("ownmode", "");
        StringBuilder rows = new StringBuilder("/*!40101 SET NAMES binary*/;\n"
                + "/*!40101 SET SQL_MODE='STRICT_ALL_TABLES'*/;\nINSERT INTO `a` VALUES (0,'zero')");
        for (int i = 1; i < 200; i++) {
            rows.append(",(").append(i).append(",'a row long enough to make this the biggest table'"); // first in the plan
            rows.append(')');
        }
        Files.writeString(dir.resolve(DumpFileNames.tableSchema(DB, "a")), "CREATE TABLE `a` (id INT PRIMARY KEY,"
                + " v VARCHAR(60));\n");
        Files.writeString(dir.resolve(DumpFileNames.dataFile(DB, "a", 1, "")), rows.append(";\n"));
        for (int infile : new int[] {1, 0}) {
            String db = DB + "_ownmode" + infile;
            LoadConfig cfg = config("sqlmode_ownmode", dir, db);
            target.execute("SET GLOBAL local_infile = " + infile);
            try {
                assertTrue(new LoadUnit(cfg).run().completed(), "local_infile " + infile);
            } finally {
                target.execute("SET GLOBAL local_infile = 1");
            }
            assertSameAsSource(db);
            assertEquals(List.of("200|0"), target.rows("SELECT COUNT(*), MIN(id) FROM `" + db + "`.a"));
        }
    }
}
