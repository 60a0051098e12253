package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.TestTasks;
import io.jdm.cli.daemon.StatusServer;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.SyncUnit;
import io.jdm.verify.Verifier;
import io.jdm.verify.VerifyReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** task-mode all through the runner: stages recorded, /status and /metrics served, a restart resumes in sync. */
class TaskRunnerIT {
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

    private TaskConfig task(String db) throws Exception {
        Path f = TestTasks.allMode(dir, "runner-it", "jdm_meta", source, target, db);
        return new TaskConfigLoader().load(f);
    }

    @Test
    void allModeDumpsLoadsSyncsAndResumesInSyncAfterARestart() throws Exception {
        String db = "runner_it";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS `" + db + "`", "DROP DATABASE IF EXISTS jdm_meta");
        source.execute("CREATE TABLE runner_it.t (id INT PRIMARY KEY, v VARCHAR(20))");
        StringBuilder ins = new StringBuilder("INSERT INTO runner_it.t VALUES ");
        for (int i = 1; i <= 500; i++) {
            ins.append(i > 1 ? "," : "").append('(').append(i).append(",'v").append(i).append("')");
        }
        source.execute(ins.toString());
        TaskConfig task = task(db);

        runUntilCaughtUp(task, "UPDATE runner_it.t SET v = 'first' WHERE id <= 50", true);
        // Second run: the stage table says the load is done, so it must go straight to sync.
        source.execute("DELETE FROM runner_it.t WHERE id > 450", "INSERT INTO runner_it.t VALUES (1000, 'new')");
        runUntilCaughtUp(task, "UPDATE runner_it.t SET v = 'second' WHERE id BETWEEN 100 AND 120", false);

        ConnectionSpec src = ConnectionSpec.of(source.host(), source.port(), "root", "");
        ConnectionSpec tgt = ConnectionSpec.of(target.host(), target.port(), "root", "");
        VerifyReport r = Verifier.compare(src, tgt, List.of(new io.jdm.verify.TablePair(
                new io.jdm.common.sql.TableName(db, "t"), new io.jdm.common.sql.TableName(db, "t"))));
        assertTrue(r.matches(), r.renderTable());
        StageStore.Entry stage = new StageStore(tgt, "jdm_meta", "runner-it").read("s1").orElseThrow();
        assertEquals(StageStore.Stage.SYNC, stage.stage());
    }

    private void runUntilCaughtUp(TaskConfig task, String write, boolean firstRun) throws Exception {
        TaskRunner runner = new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE);
        BackgroundTask run = null;
        try (StatusServer http = StatusServer.start("runner-it", "127.0.0.1:0", runner)) {
            run = BackgroundTask.start(runner, "runner-it");
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            source.execute(write);
            BinlogPosition end;
            try (Connection c = DataSources.connect(ConnectionSpec.of(source.host(), source.port(), "root", ""))) {
                end = Flavor.detect(c).currentPosition(c);
            }
            assertTrue(sync.awaitCaughtUp(end, Duration.ofMinutes(1)), "not caught up: " + sync.failure());

            HttpClient client = HttpClient.newHttpClient();
            String status = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/status"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            JsonNode src = new ObjectMapper().readTree(status).path("sources").path(0);
            assertEquals("s1", src.path("sourceStatus").path("source").asText(), status);
            JsonNode sub = src.path("subTaskStatus").path(0);
            assertEquals("runner-it", sub.path("name").asText(), status);
            assertEquals("Running", sub.path("stage").asText(), status);
            assertEquals("Sync", sub.path("unit").asText(), status);
            String metrics = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("dm_worker_task_state{source_id=\"s1\",task=\"runner-it\""), metrics);
            assertTrue(metrics.contains("jdm_sync_rows_total{source_id=\"s1\",task=\"runner-it\"}"), metrics);
        } finally {
            if (run != null) {
                run.stop(Duration.ofSeconds(60));
            }
        }
        assertTrue(run.failure() == null, "runner failed: " + run.failure());
    }
}
