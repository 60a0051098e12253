package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.FatalException;
import io.jdm.common.hold.SyncHoldTable;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.verify.SnapshotOptions;
import io.jdm.verify.TablePair;
import io.jdm.verify.Verifier;
import io.jdm.verify.VerifyConfig;
import io.jdm.verify.VerifyReport;
import io.jdm.verify.hold.SyncHoldClient;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code verify --snapshot} against a running sync while the source keeps being written, hot rows
 * included: the sync is held exactly at the snapshot's position, so a correct copy matches in one
 * round and a row changed on the target is still found; the hold freezes the target and its
 * release (or the end of its lease) lets the sync go on.
 */
class VerifyHoldIT {
    private static final String META = "jdm_meta_hold";
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private static void prepare(SqlServer src, SqlServer tgt, String db, String task) {
        SyncFaultIT.prepare(src, tgt, db, META, task);
        tgt.execute("DROP TABLE IF EXISTS " + META + "." + task + "_syncer_hold");
        for (SqlServer s : List.of(src, tgt)) {
            s.execute("CREATE TABLE `" + db + "`.hot (id INT PRIMARY KEY, n BIGINT NOT NULL, t VARCHAR(40))",
                    "CREATE TABLE `" + db + "`.cold (id INT PRIMARY KEY, v VARCHAR(20))");
        }
        for (SqlServer s : List.of(src, tgt)) {
            StringBuilder hot = new StringBuilder("INSERT INTO `" + db + "`.hot VALUES ");
            StringBuilder cold = new StringBuilder("INSERT INTO `" + db + "`.cold VALUES ");
            for (int i = 1; i <= 20; i++) {
                hot.append(i > 1 ? "," : "").append("(").append(i).append(",0,'h')");
                cold.append(i > 1 ? "," : "").append("(").append(i).append(",'c").append(i).append("')");
            }
            s.execute(hot.toString(), cold.toString());
        }
    }

    private static SyncConfig config(SqlServer src, SqlServer tgt, String task, String db, BinlogPosition start) {
        return SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(4).batch(20).serverId(7003)
                .metaSchema(META).start(start).compact(true).multipleRows(true)
                .retryBudget(Duration.ofSeconds(60)).retryMaxBackoff(Duration.ofSeconds(1))
                .tableFilter((d, t) -> d.equals(db)).build();
    }

    private static SyncUnit startSync(SqlServer src, SqlServer tgt, String db, String task) throws SQLException {
        prepare(src, tgt, db, task);
        SyncUnit unit = new SyncUnit(config(src, tgt, task, db, sourcePosition(src)));
        unit.start();
        return unit;
    }

    /** Waits until the sync has applied everything the source has, compares the tables row by row, stops it. */
    private static void catchUpAndCompare(SyncUnit unit, SqlServer src, SqlServer tgt, String db, String... tables)
            throws Exception {
        try {
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), TIMEOUT), () -> "not caught up: " + unit.failure());
            assertFalse(unit.failure().isPresent());
            for (String t : tables) {
                assertSameRows(src, tgt, new TableName(db, t));
            }
        } finally {
            unit.stop();
        }
    }

    private static SyncHoldClient hold(SqlServer tgt, String task, Duration lease, Duration answer) {
        return new SyncHoldClient(spec(tgt), SyncHoldTable.of(META, task), task, "source", lease, answer);
    }

    /** Updates a few hot rows over and over, as fast as it can. */
    private static final class HotRows implements AutoCloseable {
        private final Thread thread;
        private final AtomicLong commits = new AtomicLong();
        private final AtomicReference<Throwable> error = new AtomicReference<>();
        private volatile boolean running = true;

        HotRows(SqlServer src, String db) {
            thread = new Thread(() -> {
                Random rnd = new Random(5);
                try (Connection c = src.connect(); Statement st = c.createStatement()) {
                    while (running) {
                        int id = 1 + rnd.nextInt(20);
                        st.execute("UPDATE `" + db + "`.hot SET n = n + 1, t = UUID() WHERE id = " + id);
                        commits.incrementAndGet();
                    }
                } catch (SQLException | RuntimeException e) {
                    error.set(e);
                }
            }, "hot-rows");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join();
            assertEquals(null, error.get(), "hot-row writer failed");
        }
    }

    private static String checksum(SqlServer s, String db, String table) throws SQLException {
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("CHECKSUM TABLE `" + db + "`.`" + table + "`")) {
            rs.next();
            return rs.getString(2);
        }
    }

    @Test
    void snapshotVerifyMatchesUnderHotRowWritesAndStillFindsARealDifference() throws Exception {
        String db = "verifyholdit_main";
        String task = "holdtask";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncUnit unit = startSync(src, tgt, db, task);
        List<TablePair> tables = List.of("acc", "orders", "logs", "hot", "cold").stream()
                .map(t -> TablePair.same(new TableName(db, t))).toList();
        try (Workload w = new Workload(src, db, 11).start(); HotRows hot = new HotRows(src, db)) {
            Thread.sleep(1500);
            tgt.execute("UPDATE `" + db + "`.cold SET v = 'tampered' WHERE id = 7");
            long before = hot.commits.get();
            VerifyReport report = new Verifier(VerifyConfig.of(spec(src), spec(tgt), tables).withChunkRows(50)
                    .withSnapshot(SnapshotOptions.held(hold(tgt, task, Duration.ofSeconds(30), Duration.ofSeconds(20)),
                            TIMEOUT))).run();
            assertTrue(hot.commits.get() > before, "the source was written during the comparison");
            assertNotNull(report.snapshotPosition());
            for (String t : List.of("acc", "orders", "logs", "hot")) {
                assertEquals(VerifyReport.Result.MATCH, report.table(new TableName(db, t)).result(),
                        () -> t + " at " + report.snapshotPosition() + ":\n" + report.renderTable());
            }
            VerifyReport.TableResult cold = report.table(new TableName(db, "cold"));
            assertEquals(VerifyReport.Result.DIFFERENT, cold.result(), report::renderTable);
            assertEquals(1, cold.changed());
            assertEquals(0, cold.missing() + cold.extra());
            assertEquals("7", cold.rows().get(0).key().replaceAll("[^0-9]", ""));
            Thread.sleep(1000);
        }
        // released: the sync went on and caught up with everything written after P
        tgt.execute("UPDATE `" + db + "`.cold SET v = 'c7' WHERE id = 7");
        catchUpAndCompare(unit, src, tgt, db, "acc", "orders", "logs", "hot", "cold");
    }

    @Test
    void theHoldFreezesTheTargetAtPAndItsReleaseLetsTheSyncGoOn() throws Exception {
        String db = "verifyholdit_freeze";
        String task = "freezetask";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncUnit unit = startSync(src, tgt, db, task);
        try (HotRows hot = new HotRows(src, db)) {
            Thread.sleep(1000);
            SyncHoldClient h = hold(tgt, task, Duration.ofSeconds(30), Duration.ofSeconds(20));
            h.pause(TIMEOUT);
            BinlogPosition p = sourcePosition(src);
            h.holdAt(p, TIMEOUT);
            String atP = checksum(tgt, db, "hot");
            Thread.sleep(1500);
            assertEquals(atP, checksum(tgt, db, "hot"), "the target moved while held");
            assertNotEquals(atP, checksum(src, db, "hot"), "the source went on meanwhile");
            assertTrue(unit.checkpoint().compareTo(BinlogPosition.of(p.file(), p.pos())) <= 0,
                    () -> "checkpoint " + unit.checkpoint() + " passed " + p);
            h.release();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (atP.equals(checksum(tgt, db, "hot")) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertNotEquals(atP, checksum(tgt, db, "hot"), "the sync went on after the release");
        }
        catchUpAndCompare(unit, src, tgt, db, "hot");
    }

    /**
     * A hold longer than the reader stays connected at the gate (5 s): it closes the binlog stream
     * itself, so the source never times out writing to a stalled one, and reconnects from its
     * transaction boundary once released; the target stays at P meanwhile and ends equal.
     */
    @Test
    void aLongHoldClosesTheStreamAndReconnectsAfterTheRelease() throws Exception {
        String db = "verifyholdit_long";
        String task = "longtask";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncUnit unit = startSync(src, tgt, db, task);
        try (HotRows hot = new HotRows(src, db)) {
            Thread.sleep(500);
            SyncHoldClient h = hold(tgt, task, Duration.ofSeconds(30), Duration.ofSeconds(20));
            h.pause(TIMEOUT);
            BinlogPosition p = sourcePosition(src);
            h.holdAt(p, TIMEOUT);
            String atP = checksum(tgt, db, "hot");
            Thread.sleep(7000); // past the 5 s the reader stays connected while held
            assertEquals(atP, checksum(tgt, db, "hot"), "the target moved while held");
            assertEquals(0, unit.metrics().reconnects(), "no reconnect while held");
            h.release();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (unit.metrics().reconnects() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(1, unit.metrics().reconnects(), "one reconnect, after the release");
        } catch (Exception | AssertionError e) {
            unit.stop();
            throw e;
        }
        catchUpAndCompare(unit, src, tgt, db, "hot", "cold");
    }

    @Test
    void aHoldWhoseVerifyDiedEndsWithItsLease() throws Exception {
        String db = "verifyholdit_lease";
        String task = "leasetask";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncUnit unit = startSync(src, tgt, db, task);
        String table = META + "." + task + "_syncer_hold";
        try {
            // what a verify leaves behind when it is killed after asking for the pause
            tgt.execute("REPLACE INTO " + table + " (source_id, token, lease_until) VALUES ('source', 'gone', "
                    + "UTC_TIMESTAMP(3) + INTERVAL 10 SECOND)");
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!"gone".equals(ackedToken(tgt, table)) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals("gone", ackedToken(tgt, table), "the sync answered the pause");
            src.execute("UPDATE `" + db + "`.cold SET v = 'after' WHERE id = 3");
            Thread.sleep(1000);
            assertEquals(1, count(tgt, "SELECT COUNT(*) FROM `" + db + "`.cold WHERE v = 'c3'"), "paused");
        } catch (Exception | AssertionError e) {
            unit.stop();
            throw e;
        }
        catchUpAndCompare(unit, src, tgt, db, "cold");
    }

    @Test
    void withNoSyncRunningSnapshotVerifyFailsWithOneLineAndLeavesNoHold() throws Exception {
        String db = "verifyholdit_nosync";
        String task = "nosynctask";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        prepare(src, tgt, db, task);
        VerifyConfig cfg = VerifyConfig.of(spec(src), spec(tgt), List.of(TablePair.same(new TableName(db, "cold"))))
                .withSnapshot(SnapshotOptions.held(hold(tgt, task, Duration.ofSeconds(30), Duration.ofSeconds(1)),
                        TIMEOUT));
        FatalException e = assertThrows(FatalException.class, () -> new Verifier(cfg).run());
        assertTrue(e.getMessage().startsWith("verify --snapshot: no running sync of task nosynctask"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertEquals(0, count(tgt, "SELECT COUNT(*) FROM " + META + "." + task + "_syncer_hold"));
    }

    private static String ackedToken(SqlServer s, String table) throws SQLException {
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT acked_token FROM " + table + " WHERE source_id = 'source'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static long count(SqlServer s, String sql) throws SQLException {
        try (Connection c = s.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
