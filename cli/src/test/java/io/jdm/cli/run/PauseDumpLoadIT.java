package io.jdm.cli.run;

import io.jdm.embedded.Seq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.daemon.DmOpenApiSpec;
import io.jdm.cli.daemon.StatusServer;
import io.jdm.cli.daemon.TaskOp;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.SyncUnit;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * pause-task while a source dumps or loads (the load following the dump, as {@code jdm run} does):
 * the running units end at a safe point and nothing more reaches the target; resume-task goes on
 * as a restart would (the load from its checkpoint, an incomplete dump from scratch, the abandoned
 * snapshot's rows undone), and the task reaches its sync with the target equal to the source row by
 * row. stop-task works while paused, and a new run resumes as after any stop.
 *
 * <p>The target is slowed down by a trigger that sleeps for every row of one table, so the load
 * is still at work when the pause comes. The load refuses duplicate keys ({@code on-duplicate:
 * error}), so a row loaded twice fails the task.
 */
class PauseDumpLoadIT {
    private static final int SLOW_ROWS = 1600;
    private static final ObjectMapper JSON = new ObjectMapper();
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
    void aPauseDuringTheLoadHoldsItAndResumeGoesOnFromItsCheckpoint() throws Exception {
        String db = "pause_load";
        String slow = "z_slow"; // dumped last: the dump completes while its files still load
        TaskRunner runner = runner("pause-load", db, slow);
        BackgroundTask run = BackgroundTask.start(runner, "pause-load");
        try {
            await(() -> Files.exists(dir.resolve("dump").resolve(DumpFileNames.METADATA)), "the dump never completed");
            runner.operate(TaskOp.PAUSE);

            assertEquals(List.of("Paused", "Load"), stageAndUnit(runner));
            assertEquals(3.0, taskState(runner, "pause-load"), "dm_worker_task_state is not Paused (3)");
            long paused = count(db, slow);
            assertTrue(paused < SLOW_ROWS, "the load completed before the pause: " + paused);
            assertStaysAt(db, slow, paused);
            assertEquals(StageStore.Stage.DUMP_LOAD, stage(db, "pause-load"));

            runner.operate(TaskOp.RESUME);
            assertEquals("Running", stageAndUnit(runner).get(0));
            SyncUnit sync = run.awaitSync(Duration.ofSeconds(60));
            assertNotNull(sync, () -> "the task did not reach its sync: " + run.failure());
            assertSameRows(db, "t1", slow);
            assertEquals(StageStore.Stage.SYNC, stage(db, "pause-load"));
            assertGoesOnSyncing(db);
        } finally {
            assertTrue(run.stop(Duration.ofSeconds(60)), "the task did not stop");
        }
        assertNull(run.failure(), () -> "the task failed: " + run.failure());
    }

    @Test
    void aPauseDuringTheDumpEndsItAndResumeDumpsAgainUndoingWhatWasLoaded() throws Throwable {
        statementByStatement(this::pauseDuringTheDump);
    }

    private void pauseDuringTheDump() throws Exception {
        String db = "pause_dump";
        String slow = "a_slow"; // dumped first: the dump waits for its slow load, far from complete
        TaskRunner runner = runner("pause-dump", db, slow);
        runner.overlapAheadBytes = 1; // the dump of these few KB waits while one file is not loaded
        BackgroundTask run = BackgroundTask.start(runner, "pause-dump");
        Logger log = (Logger) LoggerFactory.getLogger("jdm");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            await(() -> count(db, slow) > 0, "nothing was loaded");
            runner.operate(TaskOp.PAUSE);

            assertFalse(Files.exists(dir.resolve("dump").resolve(DumpFileNames.METADATA)),
                    "the dump completed before the pause");
            assertEquals(List.of("Paused", "Dump"), stageAndUnit(runner));
            assertEquals(3.0, taskState(runner, "pause-dump"), "dm_worker_task_state is not Paused (3)");
            long paused = count(db, slow);
            assertStaysAt(db, slow, paused);

            // the source moves on: the next snapshot differs from the abandoned one
            List<String> loaded = target.rows("SELECT id FROM " + db + "." + slow + " ORDER BY id LIMIT 5");
            source.execute("DELETE FROM " + db + "." + slow + " WHERE id IN (" + String.join(",", loaded) + ")",
                    "UPDATE " + db + "." + slow + " SET v = 'changed' WHERE id BETWEEN 10 AND 20");
            runner.operate(TaskOp.RESUME);
            SyncUnit sync = run.awaitSync(Duration.ofSeconds(60));
            assertNotNull(sync, () -> "the task did not reach its sync: " + run.failure());
            assertSameRows(db, "t1", slow);
            assertGoesOnSyncing(db);
        } finally {
            log.detachAppender(lines);
            assertTrue(run.stop(Duration.ofSeconds(60)), "the task did not stop");
        }
        assertNull(run.failure(), () -> "the task failed: " + run.failure());
        assertEquals(1, lines.list.stream().filter(e -> e.getFormattedMessage().contains("its load is undone")).count(),
                lines.list.toString());
    }

    @Test
    void stopTaskWhilePausedStopsAndTheNextRunResumes() throws Throwable {
        statementByStatement(this::stopWhilePaused);
    }

    private void stopWhilePaused() throws Exception {
        String db = "pause_stop";
        String slow = "z_slow";
        TaskRunner runner = runner("pause-stop", db, slow);
        BackgroundTask run = BackgroundTask.start(runner, "pause-stop");
        HttpClient http = HttpClient.newHttpClient();
        try (StatusServer server = StatusServer.start("pause-stop", "127.0.0.1:0", runner)) {
            String base = "http://127.0.0.1:" + server.port();
            await(() -> count(db, slow) > 0, "nothing was loaded");
            assertEquals(200, post(http, base + "/tasks/pause").statusCode());
            JsonNode sub = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/status")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).path("sources").path(0).path("subTaskStatus").path(0);
            assertEquals("Paused", sub.path("stage").asText(), sub.toString());
            assertOpenApiShows(http, base + "/api/v1/tasks/pause-stop/status", sub);
            long paused = count(db, slow);
            assertTrue(paused < SLOW_ROWS, "the load completed before the pause: " + paused);

            assertEquals(200, post(http, base + "/tasks/stop").statusCode());
            await(() -> "Stopped".equals(stageAndUnit(runner).get(0)), "stop-task did not end the paused task");
            assertTrue(run.stop(Duration.ofSeconds(30)), "the task did not end");
        }
        assertNull(run.failure(), () -> "the task failed: " + run.failure());
        assertNull(run.awaitSync(Duration.ofSeconds(1)), "the stopped task went on to sync");

        // a paused task is not remembered: the next run goes on from the recorded stage
        BackgroundTask again = BackgroundTask.start(runner("pause-stop"), "pause-stop-again");
        try {
            assertNotNull(again.awaitSync(Duration.ofSeconds(60)), () -> "no sync after the restart: " + again.failure());
            assertSameRows(db, "t1", slow);
        } finally {
            assertTrue(again.stop(Duration.ofSeconds(60)), "the task did not stop");
        }
        assertNull(again.failure(), () -> "the task failed: " + again.failure());
    }

    /**
     * DM's OpenAPI status of the paused task shows what {@code /status} showed ({@code sub}), the
     * paused unit's numbers staying put: DM's names, int64 values as numbers instead of strings.
     */
    private static void assertOpenApiShows(HttpClient http, String uri, JsonNode sub) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(uri)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode api = JSON.readTree(r.body());
        DmOpenApiSpec.assertShape("GetTaskStatusResponse", api);
        JsonNode s = api.path("data").path(0);
        assertEquals(List.of("s1", "Paused", sub.path("unit").asText()), List.of(s.path("source_name").asText(),
                s.path("stage").asText(), s.path("unit").asText()), api.toString());
        assertTrue(sub.has("load") || sub.has("dump"), "a paused unit shows its numbers: " + sub);
        if (sub.has("load")) {
            assertSame(sub.path("load"), s.path("load_status"), Map.of("finishedBytes", "finished_bytes",
                    "totalBytes", "total_bytes", "progress", "progress", "metaBinlog", "meta_binlog"));
            assertTrue(s.path("load_status").path("finished_bytes").isIntegralNumber(), s.toString());
        }
        if (sub.has("dump")) {
            assertSame(sub.path("dump"), s.path("dump_status"), Map.of("totalTables", "total_tables",
                    "completedTables", "completed_tables", "finishedBytes", "finished_bytes", "finishedRows",
                    "finished_rows", "progress", "progress"));
            assertTrue(s.path("dump_status").path("total_tables").isIntegralNumber(), s.toString());
        }
    }

    /** The same values under {@code /status}'s and DM's OpenAPI's names; int64 strings read as numbers. */
    private static void assertSame(JsonNode status, JsonNode api, Map<String, String> names) {
        names.forEach((statusName, apiName) -> assertEquals(status.path(statusName).asText(),
                api.path(apiName).asText(), statusName + " / " + apiName + ": " + status + " " + api));
    }

    /** Source {@code t1} (10 files that load at once) and {@code slow} (8 files, a second each on the target). */
    /**
     * Runs {@code test} with the target's {@code local_infile} off, so files load statement by
     * statement and the slow table's rows arrive a statement at a time (as one LOAD DATA they would
     * all arrive at its commit), and the dump is held by the bound on files ahead of the load (a
     * table's files are not held back for one LOAD DATA).
     */
    private static void statementByStatement(Executable test) throws Throwable {
        target.execute("SET GLOBAL local_infile = 0");
        try {
            test.execute();
        } finally {
            target.execute("SET GLOBAL local_infile = 1");
        }
    }

    private TaskRunner runner(String name, String db, String slow) throws Exception {
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".t1 (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO " + db + ".t1 SELECT seq, CONCAT('t', seq) FROM " + Seq.upTo(4000),
                "CREATE TABLE " + db + "." + slow + " (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO " + db + "." + slow + " SELECT seq, CONCAT('s', seq) FROM " + Seq.upTo(SLOW_ROWS),
                "ANALYZE TABLE " + db + ".t1, " + db + "." + slow);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_meta_" + db,
                "CREATE DATABASE " + db, "CREATE TABLE " + db + "." + slow + " (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TRIGGER " + db + ".slow BEFORE INSERT ON " + db + "." + slow + " FOR EACH ROW DO SLEEP(0.005)");
        Files.writeString(dir.resolve(name + ".yaml"), String.join("\n",
                "name: " + name,
                "task-mode: all",
                "meta-schema: jdm_meta_" + db,
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [\"" + db + "\"]}}",
                // 200 rows a file, about 25 a statement: a stopped worker ends within a few rows
                "mydumpers: {global: {threads: 2, rows: 200, statement-size: 400, dir: \"" + dir.resolve("dump")
                        + "\"}}",
                "loaders: {global: {pool-size: 1, on-duplicate: error}}",
                "syncers: {global: {worker-count: 2, checkpoint-flush-interval: 1}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
        return runner(name);
    }

    private TaskRunner runner(String name) throws Exception {
        return new TaskRunner(new TaskConfigLoader().load(dir.resolve(name + ".yaml")), TaskRunner.Stages.FROM_TASK_MODE);
    }

    private static HttpResponse<String> post(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** While paused, the slow table (and every other) stays as it is. */
    private static void assertStaysAt(String db, String slow, long rows) throws Exception {
        long t1 = count(db, "t1");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < until) {
            assertEquals(rows, count(db, slow), "rows reached the target while paused");
            assertEquals(t1, count(db, "t1"), "rows reached the target while paused");
            Thread.sleep(200);
        }
    }

    /** A row written on the source once the task syncs reaches the target. */
    private static void assertGoesOnSyncing(String db) throws Exception {
        source.execute("INSERT INTO " + db + ".t1 VALUES (100000, 'after')");
        await(() -> !target.rows("SELECT v FROM " + db + ".t1 WHERE id = 100000").isEmpty(), "the sync did not apply");
        assertSameRows(db, "t1");
    }

    /** Each table equals the source's, row by row. */
    private static void assertSameRows(String db, String... tables) throws Exception {
        for (String table : tables) {
            String q = "SELECT id, v FROM " + db + "." + table + " ORDER BY id";
            List<String> want = source.rows(q);
            assertFalse(want.isEmpty());
            assertEquals(want, target.rows(q), q);
        }
    }

    private static long count(String db, String table) throws Exception {
        try {
            return Long.parseLong(target.rows("SELECT COUNT(*) FROM " + db + "." + table).get(0));
        } catch (java.sql.SQLException e) {
            return 0; // not created yet
        }
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void await(Check check, String failure) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!check.holds()) {
            assertTrue(System.nanoTime() < deadline, failure);
            Thread.sleep(20);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> stageAndUnit(TaskRunner runner) {
        List<?> sources = (List<?>) runner.status().get("sources");
        Map<String, Object> sub = (Map<String, Object>) ((List<?>) ((Map<?, ?>) sources.get(0)).get("subTaskStatus"))
                .get(0);
        return List.of(String.valueOf(sub.get("stage")), String.valueOf(sub.get("unit")));
    }

    /** dm_worker_task_state of source s1 as /metrics prints it. */
    private static double taskState(TaskRunner runner, String task) {
        String prefix = "dm_worker_task_state{source_id=\"s1\",task=\"" + task + "\"";
        String metrics = runner.metrics();
        String line = metrics.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + " in " + metrics));
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static StageStore.Stage stage(String db, String task) throws Exception {
        StageStore.Entry e = new StageStore(ConnectionSpec.of(target.host(), target.port(), "root", ""),
                "jdm_meta_" + db, task).read("s1").orElse(null);
        assertNotNull(e, "no stage recorded");
        return e.stage();
    }
}
