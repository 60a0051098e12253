package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The process halts inside a DDL's crash window (a sync child JVM with the applier's halt switch):
 * right after the statement ran on the target, before the checkpoint move, or right after the
 * marker was committed, before the statement ran. The next start must run each DDL exactly once
 * and go on: source and target end equal as SHOW CREATE TABLE text and as hex values.
 */
class DdlCrashIT {
    private static final String META = "jdm_meta_fault";

    @Test
    void ddlThatRanBeforeTheHaltIsNotRunAgain() throws Exception {
        String db = "ddlcrashit_ran";
        String task = "ddlcrashran";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        BinlogPosition start = prepare(src, tgt, db, task);
        src.execute("INSERT INTO " + db + ".t VALUES (1, 10, 'x1'), (2, 20, 'x2'), (3, 30, 'x3')");
        List<String> ddl = List.of("ALTER TABLE " + db + ".t CHANGE a a2 BIGINT",
                "ALTER TABLE " + db + ".t DROP COLUMN b",
                "ALTER TABLE " + db + ".t ADD COLUMN c VARCHAR(20) NOT NULL DEFAULT 'c0'");
        Path logDir = Files.createTempDirectory("ddlcrashit");
        for (int i = 0; i < ddl.size(); i++) {
            src.execute(ddl.get(i), "INSERT INTO " + db + ".t (id, a2) VALUES (" + (10 + i) + ", " + (100 + i) + ")");
            String out = runUntilHalt(src, tgt, task, db, start, "ran", logDir.resolve("ran-" + i + ".log"));
            assertFalse(out.contains("SYNC-CHILD-FAILED"), out);
        }
        // the last DDL ran on the target, its checkpoint did not move
        assertTrue(showCreate(tgt, db).contains("`c` varchar(20)"), showCreate(tgt, db));
        src.execute("INSERT INTO " + db + ".t (id, a2, c) VALUES (20, 200, 'after')",
                "UPDATE " + db + ".t SET a2 = a2 + 1 WHERE id = 1");
        resumeAndCompare(src, tgt, task, db, start);
    }

    @Test
    void ddlMarkedButNotRunBeforeTheHaltRunsOnce() throws Exception {
        String db = "ddlcrashit_marked";
        String task = "ddlcrashmarked";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        BinlogPosition start = prepare(src, tgt, db, task);
        src.execute("INSERT INTO " + db + ".t VALUES (1, 10, 'x1'), (2, 20, 'x2')",
                "ALTER TABLE " + db + ".t ADD COLUMN d INT NOT NULL DEFAULT 7 AFTER id",
                "INSERT INTO " + db + ".t (id, d, a, b) VALUES (3, 8, 30, 'x3')");
        Path logDir = Files.createTempDirectory("ddlcrashit");
        runUntilHalt(src, tgt, task, db, start, "marked", logDir.resolve("marked.log"));
        assertFalse(showCreate(tgt, db).contains("`d`"), "the DDL ran before the halt: " + showCreate(tgt, db));
        src.execute("INSERT INTO " + db + ".t (id, d, a, b) VALUES (4, 9, 40, 'after')");
        resumeAndCompare(src, tgt, task, db, start);
    }

    private static BinlogPosition prepare(SqlServer src, SqlServer tgt, String db, String task) throws SQLException {
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("CREATE DATABASE IF NOT EXISTS " + META,
                "DROP TABLE IF EXISTS " + META + "." + task + "_syncer_checkpoint",
                "DROP TABLE IF EXISTS " + META + "." + task + "_syncer_ddl");
        String create = "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, a INT, b VARCHAR(20))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci";
        src.execute(create);
        tgt.execute(create);
        return sourcePosition(src);
    }

    /** Runs a sync child that halts in the DDL crash window; returns its output. */
    private static String runUntilHalt(SqlServer src, SqlServer tgt, String task, String db, BinlogPosition start,
                                       String point, Path log) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-D" + "jdm.sync.test.halt-ddl=" + point,
                "-cp", System.getProperty("java.class.path"), SyncChild.class.getName(), src.host(),
                String.valueOf(src.port()), tgt.host(), String.valueOf(tgt.port()), task, "2", db, start.file(),
                String.valueOf(start.pos()));
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        boolean exited = p.waitFor(90, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        String out = Files.readString(log);
        assertTrue(exited && out.contains("SYNC-CHILD-HALTED " + point), "the child did not halt at " + point
                + ": " + out);
        return out;
    }

    private static void resumeAndCompare(SqlServer src, SqlServer tgt, String task, String db, BinlogPosition start)
            throws Exception {
        SyncUnit unit = new SyncUnit(SyncFaultIT.config(src, tgt, task, 2, db, start));
        unit.start();
        try {
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            assertEquals(showCreate(src, db), showCreate(tgt, db));
            assertEquals(hexRows(src, db), hexRows(tgt, db));
            assertSameRows(src, tgt, new TableName(db, "t"));
        } finally {
            unit.stop();
        }
        try (Connection c = tgt.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + META + "." + task + "_syncer_ddl")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1), "a DDL marker is left after the DDL completed");
        }
    }

    private static String showCreate(SqlServer s, String db) throws SQLException {
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW CREATE TABLE `" + db + "`.`t`")) {
            assertTrue(rs.next());
            return rs.getString(2);
        }
    }

    /** Every row as HEX of each column, ordered by id. */
    private static List<String> hexRows(SqlServer s, String db) throws SQLException {
        List<String> cols = new ArrayList<>();
        List<String> out = new ArrayList<>();
        try (Connection c = s.connect(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '"
                    + db + "' AND TABLE_NAME = 't' ORDER BY ORDINAL_POSITION")) {
                while (rs.next()) {
                    cols.add("IFNULL(HEX(`" + rs.getString(1) + "`), 'NULL')");
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT CONCAT_WS('|', " + String.join(", ", cols) + ") FROM `" + db
                    + "`.`t` ORDER BY id")) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
