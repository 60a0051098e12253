package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.JdmCommandLineTest.Run;
import io.jdm.cli.run.BackgroundTask;
import io.jdm.cli.run.TaskRunner;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdm verify} from the command line. With {@code --snapshot} while {@code jdm run} replicates
 * the task and the source keeps updating the same rows: exit 0 with every table MATCH, and exit 1
 * naming the row once a row is changed on the target behind the sync's back. Exit 2 when the
 * comparison cannot be done: no sync to hold, or a table missing on the target.
 */
class VerifyCommandIT {
    @TempDir
    Path dir;

    @Test
    void snapshotVerifyOfARunningTaskUnderWrites() throws Exception {
        ServerPair p = TestServers.shared();
        SqlServer source = p.source();
        SqlServer target = p.target();
        String db = "verify_snapshot_cli";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS `" + db + "`", "DROP DATABASE IF EXISTS jdm_meta_vs");
        source.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, n BIGINT NOT NULL, v VARCHAR(40))");
        StringBuilder ins = new StringBuilder("INSERT INTO `" + db + "`.t VALUES ");
        for (int i = 1; i <= 1000; i++) {
            ins.append(i > 1 ? "," : "").append('(').append(i).append(",0,'v").append(i).append("')");
        }
        source.execute(ins.toString());
        Path taskFile = taskFile(source, target, db);
        BackgroundTask run = BackgroundTask.start(new TaskRunner(new TaskConfigLoader().load(taskFile),
                TaskRunner.Stages.FROM_TASK_MODE), "verify-snap");
        AtomicLong writes = new AtomicLong();
        AtomicReference<Throwable> writeFailure = new AtomicReference<>();
        Thread writer = null;
        try {
            assertTrue(run.awaitSync(Duration.ofMinutes(2)) != null, "sync never started: " + run.failure());
            writer = new Thread(() -> {
                Random rnd = new Random(3);
                try (Connection c = source.connect(); Statement st = c.createStatement()) {
                    while (!Thread.currentThread().isInterrupted()) {
                        st.execute("UPDATE `" + db + "`.t SET n = n + 1, v = UUID() WHERE id = " + (1 + rnd.nextInt(50)));
                        writes.incrementAndGet();
                    }
                } catch (SQLException e) {
                    writeFailure.set(e);
                }
            }, "hot-writer");
            writer.start();
            Thread.sleep(1000);

            long before = writes.get();
            Run same = JdmCommandLineTest.run("verify", "--snapshot", "--chunk-rows", "100", taskFile.toString());
            assertEquals(0, same.code(), same.out() + same.err());
            assertTrue(same.out().contains("MATCH"), same.out());
            assertTrue(writes.get() > before, "the source was written meanwhile");

            target.execute("UPDATE `" + db + "`.t SET v = 'changed on the target' WHERE id = 777");
            Run diff = JdmCommandLineTest.run("verify", "--snapshot", "--json", taskFile.toString());
            assertEquals(1, diff.code(), diff.out() + diff.err());
            assertTrue(diff.out().contains("changed on the target"), diff.out());
            assertTrue(diff.out().contains("777"), diff.out());
        } finally {
            if (writer != null) {
                writer.interrupt();
                writer.join(10_000);
            }
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), () -> "runner failed: " + run.failure());
        assertNull(writeFailure.get(), () -> "writer failed: " + writeFailure.get());
    }

    private Path taskFile(SqlServer source, SqlServer target, String db) throws java.io.IOException {
        return TestTasks.allMode(dir, "verify-snap", "jdm_meta_vs", source, target, db);
    }

    @Test
    void aComparisonThatCannotBeDoneExitsWith2() throws Exception {
        ServerPair p = TestServers.shared();
        String db = "verify_cli_errors";
        p.source().freshDatabase(db);
        p.target().execute("DROP DATABASE IF EXISTS `" + db + "`", "CREATE DATABASE `" + db + "`");
        p.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)", "INSERT INTO `" + db + "`.t VALUES (1)");
        Path task = taskFile(p.source(), p.target(), db);

        Run missing = JdmCommandLineTest.run("verify", task.toString());
        assertEquals(2, missing.code(), missing.out() + missing.err());
        assertTrue(missing.out().contains("ERROR"), missing.out());

        p.target().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)", "INSERT INTO `" + db + "`.t VALUES (1)");
        Run noSync = JdmCommandLineTest.run("verify", "--snapshot", "--snapshot-timeout", "2", task.toString());
        assertEquals(2, noSync.code(), noSync.out() + noSync.err());
        assertTrue(noSync.err().startsWith("jdm: verify --snapshot: no running sync of task verify-snap (source s1)"),
                noSync.err());
    }

    @Test
    void snapshotTimeoutOutOfRangeIsAUsageError() {
        Run r = JdmCommandLineTest.run("verify", "--snapshot", "--snapshot-timeout", "0", "nope.yaml");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--snapshot-timeout: must be 1..86400 seconds, got 0"), r.err());
    }
}
