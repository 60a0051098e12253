package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.TestTasks;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.dumpdir.ChunkJournal;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.SyncUnit;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * task-mode all over a lock-free dump, from a source user with neither RELOAD nor LOCK TABLES,
 * under a workload of inserts, deletes, key changes and unique-key swaps: the target ends equal to
 * the source row by row.
 */
class LockFreeRunIT {
    private static final String DB = "lock_free_run";
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        ServerPair p = TestServers.shared();
        source = p.source();
        target = p.target();
    }

    @Test
    void aUserWithoutReloadNorLockTablesMigratesAWorkloadRowByRowThroughALockFreeDump() throws Exception {
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS jdm_meta_lf");
        source.execute("CREATE USER IF NOT EXISTS 'lf_user'@'127.0.0.1' IDENTIFIED BY 'pw'",
                "GRANT SELECT, SHOW VIEW, REPLICATION SLAVE, " + source.binlogMonitorPrivilege() + " ON *.* TO 'lf_user'@'127.0.0.1'");
        TaskConfig task = new TaskConfigLoader().load(task("auto"));

        TaskRunner runner = new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE);
        BackgroundTask run = null;
        long ops;
        try (LockFreeWorkload workload = LockFreeWorkload.start(source, DB, 6000, 20261203L)) {
            run = BackgroundTask.start(runner, "lock-free-run");
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            Thread.sleep(1500); // the workload goes on into the sync
            workload.close();
            ops = workload.ops();
            BinlogPosition end;
            try (Connection c = DataSources.connect(ConnectionSpec.of(source.host(), source.port(), "root", ""))) {
                end = Flavor.detect(c).currentPosition(c);
            }
            assertTrue(sync.awaitCaughtUp(end, Duration.ofMinutes(1)), "not caught up: " + sync.failure());
        } finally {
            if (run != null) {
                run.stop(Duration.ofSeconds(60));
            }
        }
        assertNull(run.failure(), "runner failed: " + run.failure());
        assertTrue(ops > 100, "the workload wrote " + ops + " changes");
        assertEquals("lock-free", DumpMetadata.readFrom(dir.resolve("dump")).orElseThrow().consistency());
        List<ChunkJournal.Done> chunks = ChunkJournal.readFrom(dir.resolve("dump"));
        assertTrue(ChunkJournal.lowest(chunks).orElseThrow().compareTo(ChunkJournal.highest(chunks).orElseThrow()) < 0,
                "the chunks were read while the workload wrote");
        assertSameRows();
    }

    @Test
    void anEmptyDatabaseStartsTheSyncAtThePositionReadAsTheDumpStarted() throws Exception {
        emptyDatabaseRun("lock_free_empty", "lock-free", "root", "");
    }

    /** {@code auto} for a user without RELOAD goes lock-free: the same start on an empty database. */
    @Test
    void autoWithoutReloadOnAnEmptyDatabaseStartsTheSyncTheSameWay() throws Exception {
        source.execute("CREATE USER IF NOT EXISTS 'lf_user'@'127.0.0.1' IDENTIFIED BY 'pw'",
                "GRANT SELECT, SHOW VIEW, REPLICATION SLAVE, " + source.binlogMonitorPrivilege() + " ON *.* TO 'lf_user'@'127.0.0.1'");
        emptyDatabaseRun("lock_free_empty_auto", "auto", "lf_user", "pw");
    }

    private void emptyDatabaseRun(String db, String consistency, String user, String password) throws Exception {
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_meta_lfe");
        TaskConfig task = new TaskConfigLoader().load(TestTasks.allMode(dir, "lock-free-empty", "jdm_meta_lfe",
                source, user, password, target, db, "threads: 2, rows: 200, consistency: " + consistency,
                "pool-size: 2", "worker-count: 2, batch: 50"));
        BackgroundTask run = BackgroundTask.start(new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE),
                "lock-free-empty");
        try {
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARBINARY(20))",
                    "INSERT INTO " + db + ".t VALUES (1, 'after the dump'), (2, X'00FF')",
                    "UPDATE " + db + ".t SET v = 'updated' WHERE id = 1");
            BinlogPosition end;
            try (Connection c = DataSources.connect(ConnectionSpec.of(source.host(), source.port(), "root", ""))) {
                end = Flavor.detect(c).currentPosition(c);
            }
            assertTrue(sync.awaitCaughtUp(end, Duration.ofMinutes(1)), "not caught up: " + sync.failure());
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "runner failed: " + run.failure());
        assertEquals("lock-free", DumpMetadata.readFrom(dir.resolve("dump")).orElseThrow().consistency());
        String q = "SELECT id, HEX(v) FROM " + db + ".t ORDER BY id";
        assertEquals(List.of("1|75706461746564", "2|00FF"), source.rows(q));
        assertEquals(source.rows(q), target.rows(q));
    }

    static void assertSameRows() throws Exception {
        String q = "SELECT id, u, HEX(v) FROM " + DB + ".t ORDER BY id";
        List<String> want = source.rows(q);
        assertTrue(want.size() > 1000, "rows: " + want.size());
        assertEquals(want, target.rows(q));
    }

    private Path task(String consistency) throws Exception {
        // no safe-mode-duration: only the dump's highest HIGH keeps the sync safe
        return TestTasks.allMode(dir, "lock-free-run", "jdm_meta_lf", source, "lf_user", "pw", target, DB,
                "threads: 2, rows: 200, consistency: " + consistency, "pool-size: 2",
                "worker-count: 4, batch: 50, safe-mode-duration: 0s");
    }
}
