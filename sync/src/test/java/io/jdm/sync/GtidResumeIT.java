package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * MariaDB GTIDs: a sync that reads by file and position still records the source's own GTIDs
 * (domain-server-sequence, as {@code @@gtid_binlog_pos} shows them) in its checkpoint, so a restart
 * with enable-gtid streams from that GTID state and loses nothing written while the sync was down.
 */
class GtidResumeIT {
    private static SyncConfig config(SqlServer src, SqlServer tgt, String db, BinlogPosition start, boolean gtid) {
        return SyncConfig.builder("gtidtask", spec(src), spec(tgt)).workerCount(3).serverId(7104)
                .metaSchema("jdm_meta_gtid").enableGtid(gtid).start(start).tableFilter((d, t) -> d.equals(db))
                .build();
    }

    /** The source's GTID set as SHOW MASTER STATUS or @@gtid_binlog_pos gives it, on one line. */
    private static String gtidBinlogPos(SqlServer s) throws Exception {
        return sourcePosition(s).gtidSet().replace("\n", "");
    }

    private static void write(SqlServer src, String db, int from, int to) {
        for (int i = from; i <= to; i++) {
            src.execute("INSERT INTO `" + db + "`.t VALUES (" + i + ", 'v" + i + "')",
                    "UPDATE `" + db + "`.t SET v = CONCAT(v, 'x') WHERE id = " + (from + (i % 5)));
        }
    }

    @Test
    void theCheckpointHoldsTheSourcesGtidsAndARestartResumesFromThem() throws Exception {
        String db = "gtidresumeit";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_gtid");
        String ddl = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(200))";
        src.execute(ddl);
        tgt.execute(ddl);
        SyncUnit first = new SyncUnit(config(src, tgt, db, sourcePosition(src), false));
        first.start();
        try {
            write(src, db, 1, 50);
            assertTrue(first.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + first.failure());
        } finally {
            first.stop();
        }
        // a clean stop moves the checkpoint past the last transaction read: its GTID state is the source's
        assertEquals(gtidBinlogPos(src), first.checkpoint().gtidSet(), "checkpoint GTIDs");
        write(src, db, 51, 100); // while no sync runs
        SyncUnit second = new SyncUnit(config(src, tgt, db, null, true));
        second.start();
        try {
            write(src, db, 101, 120);
            assertTrue(second.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + second.failure());
            assertTrue(second.failure().isEmpty(), () -> second.failure().get().getMessage());
            assertSameRows(src, tgt, new TableName(db, "t"));
        } finally {
            second.stop();
        }
    }
}
