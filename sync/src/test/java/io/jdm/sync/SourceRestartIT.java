package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.BinlogPosition;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the source does to its binlogs while the sync is stopped, on a source of its own (the tests
 * purge binlogs): a binlog_checksum change is no purge, and a task that was caught up resumes after
 * every binlog it applied is purged, from its GTID set, as a native replica does.
 */
class SourceRestartIT {
    private static SqlServer src;
    private static SqlServer tgt;

    @BeforeAll
    static void servers() {
        src = TestServers.startSource("restart-src", ServerProfile.SOURCE);
        tgt = TestServers.shared().target();
    }

    @AfterAll
    static void close() throws Exception {
        if (src != null) {
            src.close();
        }
    }

    private static SyncConfig config(String task, String db, BinlogPosition start, boolean gtid) {
        return builder(task, db, start, gtid).build();
    }

    private static SyncConfig.Builder builder(String task, String db, BinlogPosition start, boolean gtid) {
        return SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(2).serverId(7107).metaSchema("jdm_meta_rs")
                .enableGtid(gtid).start(start).safeModeDuration(Duration.ZERO).tableFilter((d, t) -> d.equals(db))
                .retryBudget(Duration.ofSeconds(10));
    }

    private static BinlogPosition prepare(String db, String task) throws Exception {
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("CREATE DATABASE IF NOT EXISTS jdm_meta_rs", "DROP TABLE IF EXISTS jdm_meta_rs." + task
                + "_syncer_checkpoint", "DROP TABLE IF EXISTS jdm_meta_rs." + task + "_syncer_ddl");
        String ddl = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARBINARY(40))";
        src.execute(ddl);
        tgt.execute(ddl);
        return sourcePosition(src);
    }

    private static void write(String db, int from, int to) {
        for (int i = from; i <= to; i++) {
            src.execute("INSERT INTO `" + db + "`.t VALUES (" + i + ", 'v" + i + "')",
                    "UPDATE `" + db + "`.t SET v = CONCAT(v, X'00FF') WHERE id = " + (from + i % 3));
        }
    }

    /** Runs the task from its checkpoint (or {@code start}) until it has applied what the source has now. */
    private static SyncUnit runUntilCaughtUp(String task, String db, BinlogPosition start, boolean gtid)
            throws Exception {
        SyncUnit unit = new SyncUnit(config(task, db, start, gtid));
        unit.start();
        try {
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        return unit;
    }

    /**
     * Killed rather than stopped (halted: nothing more committed, no final checkpoint) after a quiet
     * spell: the boundary after the last transaction went on at a heartbeat and every writer stored
     * it, so the stored GTID set is the source's and the binlogs it applied may go.
     */
    @Test
    void aTaskKilledAfterAQuietSpellResumesByGtidAfterEveryBinlogItAppliedIsPurged() throws Exception {
        String db = "restart_purged_kill";
        String task = "rspurgekill";
        BinlogPosition start = prepare(db, task);
        write(db, 1, 20);
        SyncUnit first = new SyncUnit(builder(task, db, start, true).heartbeatInterval(Duration.ofSeconds(1))
                .checkpointFlushInterval(Duration.ofSeconds(1)).build());
        first.start();
        String source = sourcePosition(src).gtidSet().replace("\n", "");
        try {
            assertTrue(first.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)), "not caught up");
            String stored = "SELECT DISTINCT gtid_before FROM jdm_meta_rs." + task + "_syncer_checkpoint WHERE writer >= 0";
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!tgt.rows(stored).equals(List.of(source)) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(List.of(source), tgt.rows(stored), "every writer's stored position after a quiet spell");
        } finally {
            first.abort(new io.jdm.common.error.FatalException("test: killed"));
            first.awaitTermination();
        }
        src.execute("FLUSH BINARY LOGS");
        src.execute("PURGE BINARY LOGS TO '" + sourcePosition(src).file() + "'");
        write(db, 21, 30);
        runUntilCaughtUp(task, db, null, true);
        assertSameHexRows(db);
    }

    private static void assertSameHexRows(String db) throws Exception {
        String q = "SELECT id, HEX(v) FROM `" + db + "`.t ORDER BY id";
        assertEquals(src.rows(q), tgt.rows(q));
    }

    @Test
    void aChecksumSwitchedWhileStoppedIsNoPurgeAndAPlainRestartGoesOn() throws Exception {
        for (boolean gtid : new boolean[] {false, true}) {
            String db = "restart_checksum_" + gtid;
            String task = "rschk" + gtid;
            BinlogPosition start = prepare(db, task);
            try {
                write(db, 1, 10);
                runUntilCaughtUp(task, db, start, gtid);
                src.execute("SET GLOBAL binlog_checksum = NONE");
                write(db, 11, 20);
                runUntilCaughtUp(task, db, null, gtid);
                src.execute("SET GLOBAL binlog_checksum = CRC32");
                write(db, 21, 30);
                runUntilCaughtUp(task, db, null, gtid);
                assertSameHexRows(db);
            } finally {
                src.execute("SET GLOBAL binlog_checksum = CRC32");
            }
        }
    }

    @Test
    void aCaughtUpTaskResumesByGtidAfterEveryBinlogItAppliedIsPurged() throws Exception {
        String db = "restart_purged";
        String task = "rspurge";
        BinlogPosition start = prepare(db, task);
        write(db, 1, 20);
        SyncUnit first = runUntilCaughtUp(task, db, start, true);
        BinlogPosition last = sourcePosition(src);
        assertEquals(last.gtidSet().replace("\n", ""), first.checkpoint().gtidSet(),
                "a caught-up task's checkpoint holds every GTID the source has");
        src.execute("FLUSH BINARY LOGS");
        String current = sourcePosition(src).file();
        src.execute("PURGE BINARY LOGS TO '" + current + "'");
        write(db, 21, 30);
        runUntilCaughtUp(task, db, null, true);
        assertSameHexRows(db);
    }
}
