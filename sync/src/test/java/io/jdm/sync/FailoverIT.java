package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A failover: the task syncs from a primary, stops, the primary's replica (native replication,
 * GTIDs, binlog files of its own basename numbered from 000001) takes over with writes in between,
 * and the task resumes against the replica from its checkpoint's GTIDs. Every row written on either
 * server arrives exactly once: positions are ordered by GTID, not by the two servers' file names.
 * Runs on the shared source's flavour (MariaDB, MySQL 8.0, 5.7).
 */
class FailoverIT {
    private static final String DB = "failoverit";

    @Test
    void aReplicaThatTookOverIsReadFromTheCheckpointsGtidsAndNothingIsSkipped() throws Exception {
        SqlServer tgt = TestServers.shared().target();
        try (SqlServer primary = TestServers.startSource("failover-primary", ServerProfile.SOURCE);
             SqlServer replica = TestServers.sourceFlavor().start("failover-replica", ServerProfile.SOURCE,
                     List.of("--server-id=5", "--log-bin=replbin"))) {
            replicate(replica, primary);
            // the primary's files are numbered past the replica's, as on any primary that ran a while
            primary.execute("FLUSH BINARY LOGS", "FLUSH BINARY LOGS", "FLUSH BINARY LOGS");
            String ddl = "CREATE TABLE `" + DB + "`.t (id INT PRIMARY KEY, v VARCHAR(40))";
            primary.execute("CREATE DATABASE `" + DB + "`", ddl);
            tgt.execute("DROP DATABASE IF EXISTS `" + DB + "`", "DROP DATABASE IF EXISTS jdm_meta_failover",
                    "CREATE DATABASE `" + DB + "`", ddl);

            SyncUnit first = new SyncUnit(config(primary, tgt).start(sourcePosition(primary)).build());
            first.start();
            try {
                write(primary, 1, 40);
                assertTrue(first.awaitCaughtUp(sourcePosition(primary), Duration.ofSeconds(60)),
                        () -> "not caught up: " + first.failure());
            } finally {
                first.stop();
            }
            write(primary, 41, 80); // replicated, not yet synced
            awaitReplicated(replica, primary);
            replica.execute("STOP SLAVE");
            write(replica, 81, 120); // the replica is the primary now

            SyncUnit second = new SyncUnit(config(replica, tgt).build());
            second.start();
            try {
                assertTrue(second.awaitCaughtUp(sourcePosition(replica), Duration.ofSeconds(60)),
                        () -> "not caught up: " + second.failure());
                assertTrue(second.failure().isEmpty(), () -> second.failure().get().getMessage());
            } finally {
                second.stop();
            }
            assertTrue(sourcePosition(replica).file().startsWith("replbin."), sourcePosition(replica).toString());
            TableName t = new TableName(DB, "t");
            assertEquals(List.of("120"), tgt.rows("SELECT COUNT(*) FROM " + t.quoted()));
            assertSameRows(replica, tgt, t);
            assertEquals(replica.rows("SELECT id, HEX(v) FROM " + t.quoted() + " ORDER BY id"),
                    tgt.rows("SELECT id, HEX(v) FROM " + t.quoted() + " ORDER BY id"));
        }
    }

    private static SyncConfig.Builder config(SqlServer src, SqlServer tgt) {
        return SyncConfig.builder("failover", spec(src), spec(tgt)).sourceId("orders-db").workerCount(3)
                .serverId(7301).metaSchema("jdm_meta_failover").enableGtid(true)
                .tableFilter((d, t) -> d.equals(DB));
    }

    private static void write(SqlServer s, int from, int to) {
        for (int i = from; i <= to; i++) {
            s.execute("INSERT INTO `" + DB + "`.t VALUES (" + i + ", 'v" + i + "')",
                    "UPDATE `" + DB + "`.t SET v = CONCAT(v, '+') WHERE id = " + (from + i % 7));
        }
    }

    /** Native GTID replication of {@code primary} on {@code replica}, from the primary's first transaction. */
    private static void replicate(SqlServer replica, SqlServer primary) {
        String common = "MASTER_HOST = '127.0.0.1', MASTER_PORT = " + primary.port()
                + ", MASTER_USER = 'root', MASTER_PASSWORD = ''";
        if (replica.flavor().equals("mariadb")) {
            replica.execute("CHANGE MASTER TO " + common + ", MASTER_USE_GTID = slave_pos, MASTER_SSL = 0",
                    "START SLAVE");
        } else {
            boolean eight = version(replica).startsWith("8.");
            replica.execute("CHANGE MASTER TO " + common + ", MASTER_AUTO_POSITION = 1"
                    + (eight ? ", GET_MASTER_PUBLIC_KEY = 1" : ""), "START SLAVE");
        }
    }

    private static void awaitReplicated(SqlServer replica, SqlServer primary) throws Exception {
        String want = primary.rows("SELECT COUNT(*), COALESCE(SUM(CRC32(v)), 0) FROM `" + DB + "`.t").get(0);
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            List<String> got = replica.rows("SELECT COUNT(*), COALESCE(SUM(CRC32(v)), 0) FROM `" + DB + "`.t");
            if (got.equals(List.of(want))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the replica did not catch up with the primary: "
                + replica.rows("SHOW SLAVE STATUS"));
    }

    private static String version(SqlServer s) {
        try {
            return s.rows("SELECT VERSION()").get(0);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
