package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.error.JdmException;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The source's binlog changes under a stopped task: the same server restarted with another
 * {@code log-bin} basename (its files count from 000001 again), or another server behind the
 * task's address. With GTIDs the task resumes from its GTID set and every row arrives once; without
 * them a file and an offset mean nothing in the new files, so the task refuses to start with one
 * line and leaves its checkpoint as it was. MySQL only: the embedded MariaDB restarts with its first
 * options, and MariaDB logs GTIDs always (a MariaDB replica with another basename: FailoverIT).
 */
class SourceSwitchIT {
    private static final String DB = "sourceswitchit";
    private static final TableName T = new TableName(DB, "t");
    private static final List<String> GTID_OFF = List.of("--gtid-mode=OFF", "--enforce-gtid-consistency=OFF");

    @Test
    void withGtidsANewBasenameIsReadFromTheCheckpointsGtidsAndNothingIsSkipped() throws Exception {
        assumeMySql();
        SqlServer tgt = TestServers.shared().target();
        try (SqlServer src = TestServers.startSource("switch-gtid", ServerProfile.SOURCE)) {
            prepare(src, tgt, "jdm_meta_switch_gtid");
            syncOnce(src, tgt, "jdm_meta_switch_gtid", 1, 40);
            // (rows written now would be in files the restarted server no longer lists: a native
            // replica could not read them either, and the task says so as for a purge)
            src.stopServer();
            src.restart(List.of("--log-bin=newbin"));
            write(src, 41, 80);
            assertTrue(sourcePosition(src).file().startsWith("newbin."), sourcePosition(src).toString());

            SyncUnit again = new SyncUnit(config(src, tgt, "jdm_meta_switch_gtid").build());
            again.start();
            try {
                assertTrue(again.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                        () -> "not caught up: " + again.failure());
            } finally {
                again.stop();
            }
            assertTrue(again.failure().isEmpty(), () -> again.failure().get().getMessage());
            assertEquals(List.of("80"), tgt.rows("SELECT COUNT(*) FROM " + T.quoted()));
            assertEquals(src.hexRows(DB, "t"), tgt.hexRows(DB, "t"));
        }
    }

    @Test
    void withoutGtidsANewBasenameStopsTheTaskWithOneLineAndTheCheckpointKept() throws Exception {
        assumeMySql();
        SqlServer tgt = TestServers.shared().target();
        String meta = "jdm_meta_switch_base";
        try (SqlServer src = TestServers.sourceFlavor().start("switch-base", ServerProfile.SOURCE, GTID_OFF)) {
            prepare(src, tgt, meta);
            syncOnce(src, tgt, meta, 1, 40);
            assertTrue(sourcePosition(src).gtidSet().isEmpty(), "GTIDs are off: " + sourcePosition(src));
            List<String> checkpoint = checkpointRows(tgt, meta);
            src.stopServer();
            src.restart(List.of("--log-bin=newbin"));
            write(src, 41, 60);

            JdmException e = assertThrows(JdmException.class,
                    () -> new SyncUnit(config(src, tgt, meta).build()).start());
            assertTrue(e.getMessage().contains("mysql-bin.*, but the source now logs to newbin.*"), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
            assertEquals(checkpoint, checkpointRows(tgt, meta));
            assertEquals(List.of("40"), tgt.rows("SELECT COUNT(*) FROM " + T.quoted()));
        }
    }

    @Test
    void withoutGtidsAnotherServerAtTheSourceAddressStopsTheTask() throws Exception {
        assumeMySql();
        SqlServer tgt = TestServers.shared().target();
        String meta = "jdm_meta_switch_server";
        try (SqlServer first = TestServers.sourceFlavor().start("switch-one", ServerProfile.SOURCE, GTID_OFF);
             SqlServer second = TestServers.sourceFlavor().start("switch-two", ServerProfile.SOURCE, GTID_OFF)) {
            prepare(first, tgt, meta);
            syncOnce(first, tgt, meta, 1, 40);
            List<String> checkpoint = checkpointRows(tgt, meta);
            second.execute("CREATE DATABASE `" + DB + "`", "CREATE TABLE " + T.quoted()
                    + " (id INT PRIMARY KEY, v VARCHAR(40))");
            write(second, 41, 60); // same basename, same file numbers, other binlog

            JdmException e = assertThrows(JdmException.class,
                    () -> new SyncUnit(config(second, tgt, meta).build()).start());
            String secondUuid = second.rows("SELECT @@server_uuid").get(0);
            assertTrue(e.getMessage().contains("the source is now server uuid:" + secondUuid), e.getMessage());
            assertEquals(checkpoint, checkpointRows(tgt, meta));
        }
    }

    private static void assumeMySql() {
        assumeTrue(TestServers.sourceFlavor() != ServerFlavor.MARIADB,
                "the embedded MariaDB cannot restart with other options and always logs GTIDs (see FailoverIT)");
    }

    private static void prepare(SqlServer src, SqlServer tgt, String meta) {
        String ddl = "CREATE TABLE " + T.quoted() + " (id INT PRIMARY KEY, v VARCHAR(40))";
        src.execute("CREATE DATABASE `" + DB + "`", ddl);
        tgt.execute("DROP DATABASE IF EXISTS `" + DB + "`", "DROP DATABASE IF EXISTS `" + meta + "`",
                "CREATE DATABASE `" + DB + "`", ddl);
    }

    /** A first run from the current position that syncs rows {@code from}..{@code to} and stops. */
    private static void syncOnce(SqlServer src, SqlServer tgt, String meta, int from, int to) throws Exception {
        SyncUnit first = new SyncUnit(config(src, tgt, meta).start(sourcePosition(src)).build());
        first.start();
        try {
            write(src, from, to);
            assertTrue(first.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + first.failure());
        } finally {
            first.stop();
        }
        assertEquals(src.hexRows(DB, "t"), tgt.hexRows(DB, "t"));
    }

    private static List<String> checkpointRows(SqlServer tgt, String meta) throws Exception {
        return tgt.rows("SELECT gen, writer, binlog_name, txn_pos, event_idx, row_idx, gtid_before, source_server FROM `"
                + meta + "`.`switch_syncer_checkpoint` ORDER BY gen, writer");
    }

    private static SyncConfig.Builder config(SqlServer src, SqlServer tgt, String meta) {
        return SyncConfig.builder("switch", spec(src), spec(tgt)).sourceId("orders-db").workerCount(2)
                .serverId(7311).metaSchema(meta).tableFilter((d, t) -> d.equals(DB));
    }

    private static void write(SqlServer s, int from, int to) {
        for (int i = from; i <= to; i++) {
            s.execute("INSERT INTO " + T.quoted() + " VALUES (" + i + ", 'v" + i + "')",
                    "UPDATE " + T.quoted() + " SET v = CONCAT(v, '+') WHERE id = " + (from + i % 7));
        }
    }
}
