package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
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
 * XA transactions as the source logs them: the prepared part and the outcome apart, each with its
 * own GTID. Rolled back: nothing reaches the target; committed: applied once, after what the source
 * committed before the outcome; the GTID set has no holes; and a kill -9 between XA PREPARE and
 * the outcome, then a restart by GTID, still applies a commit and drops a rollback: MySQL's
 * checkpoint leaves the prepared transaction out of its set, MariaDB's carries a state to restart
 * from before it.
 */
class XaIT {
    private static final String META = "jdm_meta_fault"; // the one SyncChild uses

    private static SyncConfig config(SqlServer src, SqlServer tgt, String task, String db, BinlogPosition start) {
        return SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(3).serverId(7105).metaSchema(META)
                .enableGtid(true).start(start).safeModeDuration(Duration.ZERO).tableFilter((d, t) -> d.equals(db))
                .build();
    }

    private static void prepare(SqlServer src, SqlServer tgt, String db, String task) {
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("CREATE DATABASE IF NOT EXISTS " + META, "DROP TABLE IF EXISTS " + META + "." + task
                + "_syncer_checkpoint", "DROP TABLE IF EXISTS " + META + "." + task + "_syncer_ddl");
        String ddl = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARBINARY(64))";
        src.execute(ddl);
        tgt.execute(ddl);
    }

    /** Every row as id and HEX(v), ordered by id. */
    static List<String> hexRows(SqlServer s, String db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DataSources.connect(spec(s)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, HEX(v) FROM `" + db + "`.t ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + ":" + rs.getString(2));
            }
        }
        return out;
    }

    private static String hex(String s) {
        return java.util.HexFormat.of().withUpperCase().formatHex(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** An XA transaction left prepared: an insert, and an update of it and (when {@code alsoOne}) of row 1. */
    private static void xaPrepared(Statement st, String xid, String db, int id, boolean alsoOne) throws SQLException {
        st.execute("XA START '" + xid + "'");
        st.execute("INSERT INTO `" + db + "`.t VALUES (" + id + ", 'in " + xid + "')");
        st.execute("UPDATE `" + db + "`.t SET v = CONCAT(v, ' upd') WHERE id IN (" + (alsoOne ? 1 : id) + ", " + id + ")");
        st.execute("XA END '" + xid + "'");
        st.execute("XA PREPARE '" + xid + "'");
    }

    @Test
    void aRollbackLeavesNothingACommitAppliesOnceAndTheGtidSetHasNoHoles() throws Exception {
        String db = "xait_outcome";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        prepare(src, tgt, db, "xatask");
        src.execute("INSERT INTO `" + db + "`.t VALUES (1, 'one')");
        tgt.execute("INSERT INTO `" + db + "`.t VALUES (1, 'one')");
        SyncUnit unit = new SyncUnit(config(src, tgt, "xatask", db, sourcePosition(src)));
        unit.start();
        try (Connection a = src.connect(); Statement xa = a.createStatement()) {
            xaPrepared(xa, "rb", db, 10, true);
            src.execute("INSERT INTO `" + db + "`.t VALUES (2, 'while rb prepared')");
            xa.execute("XA ROLLBACK 'rb'");
            xaPrepared(xa, "ok", db, 20, true);
            src.execute("INSERT INTO `" + db + "`.t VALUES (3, 'while ok prepared')");
            xa.execute("XA COMMIT 'ok'");
            xa.execute("XA START 'one'");
            xa.execute("INSERT INTO `" + db + "`.t VALUES (30, 'one phase')");
            xa.execute("XA END 'one'");
            xa.execute("XA COMMIT 'one' ONE PHASE");
            src.execute("INSERT INTO `" + db + "`.t VALUES (4, 'last')");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure());
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            assertEquals(List.of("1:" + hex("one upd"), "2:" + hex("while rb prepared"), "3:" + hex("while ok prepared"),
                    "4:" + hex("last"), "20:" + hex("in ok upd"), "30:" + hex("one phase")), hexRows(tgt, db),
                    "target rows");
            assertEquals(hexRows(src, db), hexRows(tgt, db), "source and target rows");
        } finally {
            unit.stop();
        }
        assertNoHoles(src, unit.checkpoint().gtidSet());
    }

    /** After a clean stop the checkpoint's GTID set is the source's whole set: no XA transaction's GTID missing. */
    private static void assertNoHoles(SqlServer src, String checkpoint) throws SQLException {
        try (Connection c = src.connect()) {
            BinlogPosition now = Flavor.detect(c).currentPosition(c);
            assertEquals(now.gtidSet().replace("\n", ""), checkpoint, "checkpoint GTIDs");
        }
    }

    @Test
    void aKillBetweenPrepareAndOutcomeThenARestartAppliesTheCommitAndDropsTheRollback() throws Exception {
        String db = "xait_kill";
        String task = "xakill";
        killBetweenPrepareAndOutcome(db, task, true);
        assertResumesByGtid(db, task);
    }

    private static void assertRestartStops(String db, String task, boolean gtid, String words) throws Exception {
        SyncUnit restart = new SyncUnit(SyncConfig.builder(task, spec(TestServers.shared().source()),
                        spec(TestServers.shared().target())).workerCount(3).serverId(7105).metaSchema(META)
                .enableGtid(gtid).safeModeDuration(Duration.ZERO).tableFilter((d, t) -> d.equals(db)).build());
        restart.start();
        try {
            String msg = restart.failed().get(60, TimeUnit.SECONDS).getMessage();
            assertTrue(msg.startsWith("sync: XA COMMIT X'6B63',X'',1 at ") && msg.contains(words), msg);
            List<String> rows = hexRows(TestServers.shared().target(), db);
            assertFalse(rows.stream().anyMatch(r -> r.startsWith("10:") || r.startsWith("20:")),
                    () -> "nothing of the XA transactions: " + rows);
        } finally {
            restart.stop();
        }
    }

    /**
     * By file and position a restart passes the prepared part, and stops at the outcome saying how
     * to go on; by GTID the restart reads the prepared part again and goes on.
     */
    @Test
    void byFileAndPositionTheOutcomeStopsTheRestartAndByGtidItGoesOn() throws Exception {
        String db = "xait_kill_pos";
        String task = "xakillpos";
        killBetweenPrepareAndOutcome(db, task, false);
        assertRestartStops(db, task, false, "set enable-gtid: true and restart it");
        assertResumesByGtid(db, task);
    }

    /**
     * Two XA transactions prepared, rows written after them and applied by a sync in a child JVM,
     * kill -9 of the child, then the outcomes: {@code kc} commits (insert 10, update 1 and 10),
     * {@code kr} rolls back (insert 20), and row 200 follows.
     */
    private static void killBetweenPrepareAndOutcome(String db, String task, boolean gtid) throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        prepare(src, tgt, db, task);
        src.execute("INSERT INTO `" + db + "`.t VALUES (1, 'one')");
        tgt.execute("INSERT INTO `" + db + "`.t VALUES (1, 'one')");
        BinlogPosition start = sourcePosition(src);
        Path log = Files.createTempFile("xait", ".log");
        Process child = child(src, tgt, task, db, start, log, gtid);
        try (Connection a = src.connect(); Statement commits = a.createStatement();
             Connection b = src.connect(); Statement rollsBack = b.createStatement()) {
            waitFor(log, "SYNC-CHILD-STARTED", child);
            xaPrepared(commits, "kc", db, 10, true);
            xaPrepared(rollsBack, "kr", db, 20, false);
            for (int i = 100; i < 110; i++) {
                src.execute("INSERT INTO `" + db + "`.t VALUES (" + i + ", 'after the prepares')");
            }
            // the child has applied what came after the prepares: its positions are past them
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (hexRows(tgt, db).size() < 11 && System.nanoTime() < deadline) {
                assertTrue(child.isAlive(), () -> "sync child died: " + read(log));
                Thread.sleep(100);
            }
            assertEquals(11, hexRows(tgt, db).size(), () -> "rows after the prepares applied: " + read(log));
            child.destroyForcibly(); // SIGKILL: no final checkpoint
            child.waitFor(10, TimeUnit.SECONDS);
            assertFalse(read(log).contains("SYNC-CHILD-FAILED"), () -> read(log));
            commits.execute("XA COMMIT 'kc'");
            rollsBack.execute("XA ROLLBACK 'kr'");
        } finally {
            child.destroyForcibly();
        }
        src.execute("INSERT INTO `" + db + "`.t VALUES (200, 'after the outcomes')");
    }

    private static void assertResumesByGtid(String db, String task) throws Exception {
        SqlServer src = TestServers.shared().source();
        SqlServer tgt = TestServers.shared().target();
        SyncUnit unit = new SyncUnit(config(src, tgt, task, db, null));
        unit.start();
        try {
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure());
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            List<String> rows = hexRows(tgt, db);
            assertTrue(rows.contains("10:" + hex("in kc upd")), () -> "the committed XA insert: " + rows);
            assertFalse(rows.stream().anyMatch(r -> r.startsWith("20:")), () -> "the rolled back XA insert: " + rows);
            assertEquals(hexRows(src, db), rows, "source and target rows");
        } finally {
            unit.stop();
        }
    }

    @Test
    void aPreparedTransactionTooLargeToHoldStopsTheTask() throws Exception {
        String db = "xait_large";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        prepare(src, tgt, db, "xalarge");
        System.setProperty("jdm.sync.xa-hold-bytes", String.valueOf(1 << 20));
        SyncUnit unit;
        try {
            unit = new SyncUnit(config(src, tgt, "xalarge", db, sourcePosition(src)));
            unit.start();
        } finally {
            System.clearProperty("jdm.sync.xa-hold-bytes");
        }
        try (Connection a = src.connect(); Statement xa = a.createStatement()) {
            xa.execute("XA START 'big'");
            for (int i = 0; i < 40; i++) {
                xa.execute("INSERT INTO `" + db + "`.t VALUES (" + i + ", REPEAT('x', 64))");
            }
            xa.execute("UPDATE `" + db + "`.t SET v = REPEAT('y', 64)");
            for (int i = 0; i < 500; i++) {
                xa.execute("UPDATE `" + db + "`.t SET v = REPEAT(CHAR(97 + " + (i % 20) + "), 64)");
            }
            xa.execute("XA END 'big'");
            xa.execute("XA PREPARE 'big'");
            xa.execute("XA ROLLBACK 'big'");
            assertTrue(unit.failed().get(60, TimeUnit.SECONDS).getMessage().contains("holds more than 1 MiB"),
                    () -> unit.failure().map(Throwable::getMessage).orElse("no failure"));
            assertEquals(List.of(), hexRows(tgt, db), "nothing of the held transaction applied");
        } finally {
            unit.stop();
        }
    }

    private static Process child(SqlServer src, SqlServer tgt, String task, String db, BinlogPosition start,
                                 Path log, boolean gtid) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                SyncChild.class.getName(), src.host(), String.valueOf(src.port()), tgt.host(),
                String.valueOf(tgt.port()), task, "3", db, start.file(), String.valueOf(start.pos()), gtid ? "gtid" : "pos", start.gtidSet());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        return pb.start();
    }

    private static void waitFor(Path log, String line, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!read(log).contains(line)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("sync child did not start: " + read(log));
            }
            Thread.sleep(50);
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
