package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.JdmException;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every writer's stored position follows the stream, also for writers that receive no rows, so the
 * restart point never needs a binlog the source could purge once the changes in it are applied.
 */
class CheckpointProgressIT {
    private static final Duration FLUSH = Duration.ofSeconds(2);
    private final ServerPair pair = TestServers.shared();
    private final SqlServer src = pair.source();
    private final SqlServer tgt = pair.target();

    private SyncConfig.Builder config(String task, long serverId) {
        return SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(4).metaSchema("jdm_meta_" + task)
                .serverId(serverId).checkpointFlushInterval(FLUSH);
    }

    @Test
    void idleWritersFollowTheStreamAndARestartSurvivesAPurge() throws Exception {
        String db = "ckptprogressit_hot";
        String task = "ckpthot";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_" + task);
        String create = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v INT NOT NULL)";
        src.execute(create);
        tgt.execute(create);
        src.execute("INSERT INTO `" + db + "`.t VALUES (1, 0)");
        tgt.execute("INSERT INTO `" + db + "`.t VALUES (1, 0)");
        SyncUnit unit = new SyncUnit(config(task, 7311).start(sourcePosition(src))
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        try {
            hotUpdates(db, 50); // one key: one writer gets every row, three stay idle
            src.execute("ALTER TABLE `" + db + "`.t ADD COLUMN w INT NULL");
            hotUpdates(db, 200);
            BinlogPosition end = sourcePosition(src);
            assertTrue(unit.awaitCaughtUp(end, Duration.ofSeconds(60)), "not caught up");
            // within two flush intervals every writer has stored a position in the last transaction
            BinlogPosition lastTxn = lastTransactionStart(db, end);
            long deadline = System.nanoTime() + FLUSH.multipliedBy(2).plusMillis(500).toNanos();
            List<BinlogPosition> stored = writerPositions(task);
            while (!allAtOrAfter(stored, lastTxn) && System.nanoTime() < deadline) {
                Thread.sleep(50);
                stored = writerPositions(task);
            }
            assertEquals(4, stored.size(), "writer rows: " + stored);
            assertTrue(allAtOrAfter(stored, lastTxn), "stored writer positions " + stored
                    + " should all be at the last transaction " + lastTxn + " (the DDL was before it)");
            // The source moves to a new binlog; the rows after it go to one writer again. Once
            // stopped, the source keeps only the new binlog: the restart must not need an older one.
            src.execute("FLUSH BINARY LOGS");
            hotUpdates(db, 20);
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)), "not caught up");
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        purgeTo(sourcePosition(src).file());
        hotUpdates(db, 30);
        src.execute("INSERT INTO `" + db + "`.t (id, v, w) VALUES (2, 2, 2), (3, 3, 3)");
        SyncUnit again = new SyncUnit(config(task, 7311).tableFilter((d, t) -> d.equals(db)).build());
        try {
            again.start();
            assertTrue(again.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + again.failure().map(JdmException::getMessage).orElse(""));
            assertSameRows(src, tgt, new TableName(db, "t"));
        } finally {
            again.stop();
        }
        assertTrue(again.failure().isEmpty(), () -> again.failure().get().getMessage());
    }

    @Test
    void aRestartPastPurgedBinlogsStopsWithWhatCanHelpAndKeepsTheCheckpoint() throws Exception {
        String db = "ckptprogressit_purged";
        String task = "ckptpurged";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_" + task);
        String create = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v INT NOT NULL)";
        src.execute(create);
        tgt.execute(create);
        // by file and position: by GTID a caught-up task resumes past the purge (see SourceRestartIT)
        SyncUnit unit = new SyncUnit(config(task, 7312).start(sourcePosition(src)).enableGtid(false)
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        src.execute("INSERT INTO `" + db + "`.t VALUES (1, 1), (2, 2)");
        assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)), "not caught up");
        unit.stop();
        List<BinlogPosition> before = writerPositions(task);
        String needed = before.get(0).file();

        src.execute("FLUSH BINARY LOGS");
        String oldest = sourcePosition(src).file();
        purgeTo(oldest);
        src.execute("INSERT INTO `" + db + "`.t VALUES (3, 3)");
        SyncUnit again = new SyncUnit(config(task, 7312).enableGtid(false).tableFilter((d, t) -> d.equals(db))
                .build());
        String message;
        try {
            again.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (again.failure().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            message = again.failure().map(JdmException::getMessage).orElse("");
        } catch (JdmException e) {
            message = e.getMessage();
        } finally {
            again.stop();
        }
        assertTrue(again.failure().isPresent(), "the restart should have failed");
        String said = message;
        assertTrue(!said.contains("\n"), said);
        for (String words : List.of("needs binlog " + needed, "no longer has it", "oldest binlog is " + oldest,
                "restore the purged binlogs on the source", "start over from a new full dump",
                "DELETE FROM `jdm_meta_" + task + "`.`" + task + "_syncer_checkpoint` WHERE source_id = 'source'",
                "`" + task + "_stage`", "task-mode all")) {
            assertTrue(said.contains(words), () -> "missing '" + words + "' in: " + said);
        }
        assertEquals(before, writerPositions(task), "the checkpoint must stay as it was");
    }

    @Test
    void positionsFollowAStreamOfUnselectedTablesIntoANewBinlog() throws Exception {
        String db = "ckptprogressit_quiet";
        String busy = "ckptprogressit_other";
        String task = "ckptquiet";
        src.freshDatabase(db);
        src.freshDatabase(busy);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_" + task);
        String create = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v INT NOT NULL)";
        src.execute(create);
        tgt.execute(create);
        src.execute("CREATE TABLE `" + busy + "`.t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
        SyncUnit unit = new SyncUnit(config(task, 7313).start(sourcePosition(src))
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        String newFile;
        try {
            src.execute("INSERT INTO `" + db + "`.t VALUES (1, 1), (2, 2)");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)), "not caught up");
            src.execute("FLUSH BINARY LOGS");
            newFile = sourcePosition(src).file();
            // only tables the task does not select change from here on
            long deadline = System.nanoTime() + FLUSH.multipliedBy(3).toNanos();
            List<BinlogPosition> stored = writerPositions(task);
            while (!allAtOrAfter(stored, BinlogPosition.of(newFile, 4)) && System.nanoTime() < deadline) {
                src.execute("INSERT INTO `" + busy + "`.t (v) VALUES (1)");
                Thread.sleep(100);
                stored = writerPositions(task);
            }
            assertTrue(allAtOrAfter(stored, BinlogPosition.of(newFile, 4)), "stored writer positions " + stored
                    + " should have followed the stream into " + newFile);
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        purgeTo(newFile);
        src.execute("UPDATE `" + db + "`.t SET v = 20 WHERE id = 2", "INSERT INTO `" + db + "`.t VALUES (3, 3)");
        SyncUnit again = new SyncUnit(config(task, 7313).tableFilter((d, t) -> d.equals(db)).build());
        try {
            again.start();
            assertTrue(again.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + again.failure().map(JdmException::getMessage).orElse(""));
            assertSameRows(src, tgt, new TableName(db, "t"));
        } finally {
            again.stop();
        }
        assertTrue(again.failure().isEmpty(), () -> again.failure().get().getMessage());
    }

    /** Purges every binlog before {@code file}; a dump thread still closing keeps its file until it is gone. */
    private void purgeTo(String file) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String first = null;
        while (!file.equals(first) && System.nanoTime() < deadline) {
            try (Connection c = src.connect(); Statement st = c.createStatement()) {
                st.execute("PURGE BINARY LOGS TO '" + file + "'");
                try (ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
                    first = rs.next() ? rs.getString(1) : null;
                }
            }
            if (!file.equals(first)) {
                Thread.sleep(100);
            }
        }
        assertEquals(file, first, "the source's oldest binlog after PURGE BINARY LOGS TO");
    }

    private void hotUpdates(String db, int n) throws Exception {
        try (Connection c = src.connect(); Statement st = c.createStatement()) {
            for (int i = 0; i < n; i++) {
                st.execute("UPDATE `" + db + "`.t SET v = v + 1 WHERE id = 1");
            }
        }
    }

    /** The start of the last transaction before {@code end}: the event position of its last UPDATE's GTID/BEGIN. */
    private BinlogPosition lastTransactionStart(String db, BinlogPosition end) throws Exception {
        BinlogPosition last = null;
        try (Connection c = src.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW BINLOG EVENTS IN '" + end.file() + "'")) {
            while (rs.next()) {
                String type = rs.getString("Event_type");
                if (type.equals("Gtid") || (type.equals("Query") && rs.getString("Info").startsWith("BEGIN"))) {
                    BinlogPosition p = BinlogPosition.of(end.file(), rs.getLong("Pos"));
                    if (p.compareTo(end) < 0) {
                        last = p;
                    }
                }
            }
        }
        return last;
    }

    private static boolean allAtOrAfter(List<BinlogPosition> stored, BinlogPosition p) {
        return !stored.isEmpty() && stored.stream().allMatch(s -> s.compareTo(p) >= 0);
    }

    private List<BinlogPosition> writerPositions(String task) throws Exception {
        List<BinlogPosition> out = new ArrayList<>();
        try (Connection c = tgt.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT binlog_name, txn_pos FROM jdm_meta_" + task + "." + task
                     + "_syncer_checkpoint WHERE writer >= 0 AND gen = (SELECT MAX(gen) FROM jdm_meta_" + task + "."
                     + task + "_syncer_checkpoint) ORDER BY writer")) {
            while (rs.next()) {
                out.add(BinlogPosition.of(rs.getString(1), rs.getLong(2)));
            }
        }
        return out;
    }
}
