package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.JdmException;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.common.error.FatalException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** DDL behind the barrier, the purged-binlog error, the missing-start error, and how a unit tells it ended. */
class SyncBehaviourIT {

    @Test
    void terminatedCompletesOnStopAndFailedOnlyOnAFailure() throws Exception {
        ServerPair pair = TestServers.shared();
        pair.target().execute("DROP DATABASE IF EXISTS jdm_meta_ends");
        SyncUnit stopped = idleUnit(pair, "endstop", 7105);
        stopped.start();
        assertFalse(stopped.terminated().isDone());
        stopped.stop();
        stopped.terminated().get(5, TimeUnit.SECONDS);
        assertFalse(stopped.failed().isDone(), "a clean stop is no failure");

        SyncUnit aborted = idleUnit(pair, "endabort", 7106);
        aborted.start();
        FatalException reason = new FatalException("sync: the test takes the task away");
        var failed = aborted.failed();
        assertFalse(failed.isDone());
        aborted.abort(reason);
        assertSame(reason, failed.get(30, TimeUnit.SECONDS));
        aborted.terminated().get(60, TimeUnit.SECONDS);
        assertSame(reason, aborted.failure().orElseThrow());
    }

    /** A unit that reads the binlog and selects no table. */
    private static SyncUnit idleUnit(ServerPair pair, String task, long serverId) throws Exception {
        return new SyncUnit(SyncConfig.builder(task, spec(pair.source()), spec(pair.target())).workerCount(2)
                .metaSchema("jdm_meta_ends").serverId(serverId).start(sourcePosition(pair.source()))
                .tableFilter((d, t) -> false).build());
    }

    @Test
    void ddlIsAppliedBehindABarrierAndRowsAfterItLineUp() throws Exception {
        String db = "syncbehaviourit_ddl";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_ddl");
        src.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, a VARCHAR(10))");
        tgt.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, a VARCHAR(10))");
        BinlogPosition from = sourcePosition(src);
        SyncUnit unit = new SyncUnit(SyncConfig.builder("ddltask", spec(src), spec(tgt)).workerCount(4)
                .metaSchema("jdm_meta_ddl").serverId(7101).start(from)
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        try {
            // Step by step, so each DDL also meets rows already in flight (StreamDdlIT covers a source
            // that is DDLs ahead of the reader).
            String[][] steps = {
                {"INSERT INTO `" + db + "`.t VALUES (1,'a'),(2,'b'),(3,'c')"},
                {"ALTER TABLE `" + db + "`.t ADD COLUMN b INT NOT NULL DEFAULT 7 AFTER id",
                    "INSERT INTO `" + db + "`.t (id, b, a) VALUES (4, 40, 'd')",
                    "UPDATE `" + db + "`.t SET b = b + 1 WHERE id < 3",
                    "CREATE TABLE `" + db + "`.t2 (k INT PRIMARY KEY)",
                    "INSERT INTO `" + db + "`.t2 VALUES (1),(2)"},
                {"ALTER TABLE `" + db + "`.t DROP COLUMN a",
                    "DELETE FROM `" + db + "`.t WHERE id = 3",
                    "INSERT INTO `" + db + "`.t VALUES (5, 50)"}};
            for (String[] step : steps) {
                src.execute(step);
                assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)),
                        () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            }
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertSameRows(src, tgt, new TableName(db, "t"));
            assertSameRows(src, tgt, new TableName(db, "t2"));
            assertTrue(unit.metrics().transactions() > 0);
            BinlogPosition to = sourcePosition(src);
            if (to.file().equals(from.file())) {
                // every event from the start to the end that the server sends (MariaDB keeps its
                // Annotate_rows to replicas that do not ask for them), and besides them only the
                // stream's own events (rotate, format description, heartbeats: a few KiB at most)
                long sent = 0;
                java.util.List<String> events = src.rows("SHOW BINLOG EVENTS IN '" + from.file() + "' FROM " + from.pos());
                for (int i = 0; i < events.size(); i++) {
                    // an event ends where the next begins (MariaDB's End_log_pos is 0 inside a transaction)
                    String[] f = events.get(i).split("\\|");
                    long start = Long.parseLong(f[1]);
                    long end = i + 1 < events.size() ? Long.parseLong(events.get(i + 1).split("\\|")[1]) : to.pos();
                    if (start < to.pos() && !f[2].equals("Annotate_rows")) {
                        sent += Math.min(end, to.pos()) - start;
                    }
                }
                long read = unit.metrics().binlogBytes();
                assertTrue(read >= sent && read <= sent + 8192, read + " bytes counted for the " + sent
                        + " sent from " + from + " to " + to);
            }
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
    }

    @Test
    void safeModeWritesReplaceAndDeletePlusReplaceAndConverges() throws Exception {
        String db = "syncbehaviourit_safe";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_safe");
        String ddl = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, uk INT NOT NULL, v VARCHAR(10), UNIQUE KEY (uk))";
        src.execute(ddl);
        tgt.execute(ddl);
        // a row the target already has (as after a replay): safe mode must overwrite, not fail
        tgt.execute("INSERT INTO `" + db + "`.t VALUES (1, 1, 'stale')");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("safetask", spec(src), spec(tgt)).workerCount(3)
                .metaSchema("jdm_meta_safe").serverId(7103).start(sourcePosition(src)).safeMode(true)
                .tableFilter((d, t) -> d.equals(db)).build());
        syncAndCompare(unit, src, tgt, new TableName(db, "t"),
                "INSERT INTO `" + db + "`.t VALUES (1,1,'a'),(2,2,'b'),(3,3,'c'),(4,4,'d')",
                "UPDATE `" + db + "`.t SET v = 'bb' WHERE id = 2",
                "UPDATE `" + db + "`.t SET id = 10 WHERE id = 3",
                "UPDATE `" + db + "`.t SET uk = 40 WHERE id = 4",
                "INSERT INTO `" + db + "`.t VALUES (5, 4, 'e')",
                "DELETE FROM `" + db + "`.t WHERE id = 1");
    }

    /**
     * compact merges a DELETE and a later INSERT of one key into one row written over the old: rows
     * deleted and inserted again in one transaction (and one inserted, deleted and inserted again,
     * which the target never held) end equal, in safe mode and not, with and without multi-row
     * statements.
     */
    @Test
    void rowsDeletedAndInsertedAgainInOneBatchConverge() throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        int n = 0;
        for (boolean safe : new boolean[] {false, true}) {
            for (boolean multipleRows : new boolean[] {false, true}) {
                n++;
                String db = "syncbehaviourit_reinsert" + n;
                src.freshDatabase(db);
                tgt.freshDatabase(db);
                tgt.execute("DROP DATABASE IF EXISTS jdm_meta_reinsert");
                String ddl = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, uk INT NOT NULL, k INT, v VARCHAR(10),"
                        + " UNIQUE KEY (uk), KEY (k))";
                src.execute(ddl, "INSERT INTO `" + db + "`.t VALUES (1,1,1,'a'),(2,2,2,'b'),(3,3,3,'c'),(4,4,4,'d')");
                tgt.execute(ddl, "INSERT INTO `" + db + "`.t VALUES (1,1,1,'a'),(2,2,2,'b'),(3,3,3,'c'),(4,4,4,'d')");
                SyncUnit unit = new SyncUnit(SyncConfig.builder("reinsert" + n, spec(src), spec(tgt)).workerCount(2)
                        .batch(1000).compact(true).multipleRows(multipleRows).metaSchema("jdm_meta_reinsert")
                        .serverId(7110 + n).start(sourcePosition(src)).safeMode(safe).safeModeDuration(Duration.ZERO)
                        .tableFilter((d, t) -> d.equals(db)).build());
                String t = "`" + db + "`.t";
                syncAndCompare(unit, src, tgt, new TableName(db, "t"), "BEGIN",
                        // sysbench write_only's shape: two updates, a delete and an insert of the same id
                        "UPDATE " + t + " SET k = k + 1 WHERE id = 1", "UPDATE " + t + " SET v = 'a2' WHERE id = 1",
                        "DELETE FROM " + t + " WHERE id = 1", "INSERT INTO " + t + " VALUES (1, 1, 7, 'a3')",
                        // inserted, deleted and inserted again: the target never held the first image
                        "INSERT INTO " + t + " VALUES (5, 5, 5, 'e')", "DELETE FROM " + t + " WHERE id = 5",
                        "INSERT INTO " + t + " VALUES (5, 50, 5, 'e2')",
                        // row 6 takes the unique value row 2 gave up; row 2 comes back with another
                        "DELETE FROM " + t + " WHERE id = 2", "INSERT INTO " + t + " VALUES (6, 2, 6, 'f')",
                        "INSERT INTO " + t + " VALUES (2, 20, 2, 'b2')",
                        // deleted and inserted again, then deleted for good
                        "DELETE FROM " + t + " WHERE id = 3", "INSERT INTO " + t + " VALUES (3, 3, 3, 'c2')",
                        "DELETE FROM " + t + " WHERE id = 3",
                        "COMMIT");
            }
        }
    }

    /** Starts {@code unit}, runs {@code writes} on the source; caught up, the table equals the source's row by row. */
    private static void syncAndCompare(SyncUnit unit, SqlServer src, SqlServer tgt, TableName table, String... writes)
            throws Exception {
        unit.start();
        try {
            src.execute(writes);
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertSameRows(src, tgt, table);
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
    }

    @Test
    void purgedStartPositionFailsWithOneClearLine() throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_purge");
        BinlogPosition old = sourcePosition(src);
        src.execute("FLUSH BINARY LOGS");
        BinlogPosition now = sourcePosition(src);
        // A dump thread of an earlier test may still hold the file for a moment: purge until it is gone.
        long deadline = System.nanoTime() + 15_000_000_000L;
        String why = "";
        while (true) {
            try (var c = src.connect(); var st = c.createStatement()) {
                st.execute("PURGE BINARY LOGS TO '" + now.file() + "'");
                StringBuilder warnings = new StringBuilder();
                try (var rs = st.executeQuery("SHOW WARNINGS")) {
                    while (rs.next()) {
                        warnings.append(rs.getString(3)).append("; ");
                    }
                }
                why = warnings.toString();
                boolean present = false;
                try (var rs = st.executeQuery("SHOW BINARY LOGS")) {
                    while (rs.next()) {
                        present |= rs.getString(1).equals(old.file());
                    }
                }
                if (!present) {
                    break;
                }
            }
            assertTrue(System.nanoTime() < deadline, old.file() + " could not be purged: " + why);
            Thread.sleep(200);
        }
        SyncUnit unit = new SyncUnit(SyncConfig.builder("purgetask", spec(src), spec(tgt)).workerCount(2)
                .metaSchema("jdm_meta_purge").serverId(7102).start(BinlogPosition.of(old.file(), old.pos())).build());
        JdmException e = assertThrows(JdmException.class, unit::start);
        assertTrue(e.getMessage().contains(old.file()) && e.getMessage().contains("full dump"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(unit.failure().isPresent());
    }

    @Test
    void noCheckpointAndNoStartFailsWithOneClearLine() {
        ServerPair pair = TestServers.shared();
        pair.target().execute("DROP DATABASE IF EXISTS jdm_meta_nostart");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("nostart", spec(pair.source()), spec(pair.target()))
                .metaSchema("jdm_meta_nostart").build());
        JdmException e = assertThrows(JdmException.class, unit::start);
        assertTrue(e.getMessage().contains("no start position"), e.getMessage());
    }
}
