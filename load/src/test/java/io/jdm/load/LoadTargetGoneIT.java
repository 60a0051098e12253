package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The target server dies (SIGKILL) in the middle of a load: retried within the budget, or a clean stop and resume. */
class LoadTargetGoneIT {
    private static final String DB = "LoadTargetGoneIT_src";
    private static SqlServer source;
    private static EmbeddedMariaDb target;
    @TempDir
    static Path tmp;
    private static Path dump;

    @BeforeAll
    static void fixture() throws Exception {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = (EmbeddedMariaDb) pair.target();
        TestData.create(source, DB, 30000);
        dump = tmp.resolve("dump");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, DB, dump, 25, 3000, t -> "");
        }
    }

    private static LoadConfig config(String task, String targetDb, int retries) {
        target.execute("DROP DATABASE IF EXISTS " + targetDb, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta." + task + "_loader_checkpoint");
        return LoadConfig.of(task, "src1", ConnectionSpec.of(target.host(), target.port(), "root", ""), dump)
                .withPoolSize(2).withTransactionBytes(1).withRetry(retries, 1)
                .withRouter(t -> new TableName(targetDb, t.table()));
    }

    /**
     * Two loads run while the target stops: one with a budget longer than the outage finishes
     * after the restart; one with a short budget stops with one line, and its rerun resumes.
     */
    @Test
    void aTargetBackWithinTheBudgetIsRetriedAndOneThatStaysDownStopsTheLoadResumably() throws Exception {
        LoadUnit patient = new LoadUnit(config("gone_back", "LoadTargetGoneIT_back", 120));
        LoadConfig shortCfg = config("gone_down", "LoadTargetGoneIT_down", 3);
        CompletableFuture<LoadResult> back = CompletableFuture.supplyAsync(patient::run);
        CompletableFuture<LoadResult> down = CompletableFuture.supplyAsync(new LoadUnit(shortCfg)::run);
        waitFor(() -> committed("gone_back") > 0 && committed("gone_down") > 0, "first commits");
        JdmException failure;
        target.kill();
        try {
            ExecutionException e = assertThrows(ExecutionException.class, () -> down.get(60, TimeUnit.SECONDS));
            failure = (JdmException) e.getCause();
            assertFalse(back.isDone(), "the patient load must still be retrying while the target is down");
        } finally {
            target.restart();
        }
        String msg = failure.getMessage();
        assertFalse(msg.contains("\n"), msg);
        assertTrue(msg.matches(".*file " + DB + "\\..+\\.\\d{9}\\.sql at byte offset \\d+: gave up after 3 retries.*"),
                msg);
        assertTrue(msg.contains("checkpoint is intact"), msg);

        LoadResult r = back.get(120, TimeUnit.SECONDS);
        assertTrue(r.completed());
        assertTrue(((Number) patient.metrics().status().get("retries")).intValue() > 0);
        assertSameAsSource("LoadTargetGoneIT_back");

        long committedAtFailure = committed("gone_down");
        assertTrue(committedAtFailure > 0);
        LoadResult rerun = new LoadUnit(shortCfg).run();
        assertTrue(rerun.completed());
        assertTrue(rerun.rows() < 30000 + 506, "the rerun resumed instead of starting over: " + rerun.rows());
        assertSameAsSource("LoadTargetGoneIT_down");
    }

    private static void assertSameAsSource(String targetDb) throws SQLException {
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : new String[] {"types", TestData.ODD_TABLE, "sbtest1"}) {
                TestData.assertSameRows(s, new TableName(DB, table), t, new TableName(targetDb, table));
            }
        }
    }

    private static long committed(String task) {
        try (Connection c = target.connect()) {
            return TestData.count(c, "SELECT IFNULL(SUM(`offset`), 0) FROM jdm_meta." + task + "_loader_checkpoint");
        } catch (SQLException e) {
            return 0;
        }
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            Thread.sleep(20);
        }
        assertNotNull(what);
    }
}
