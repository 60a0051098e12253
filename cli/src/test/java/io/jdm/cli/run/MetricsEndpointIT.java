package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.daemon.StatusServer;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} of a running task with two sources and four writers each, read by Prometheus's
 * own tools: {@code promtool check metrics} accepts it, and a real Prometheus server scraping it
 * answers queries for the replication lag and the rows per second. Each test skips when the tool is
 * not installed (Debian package {@code prometheus}).
 */
class MetricsEndpointIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Set<String> DM_NAMES_WITH_TYPE = Set.of(
            "dm_syncer_replication_lag_gauge metric name should not include type 'gauge'",
            "dm_loader_data_size_gauge metric name should not include type 'gauge'",
            "dm_loader_data_file_gauge metric name should not include type 'gauge'");
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path dir;
    private BackgroundTask run;
    private StatusServer http;
    private Process prometheus;

    @BeforeAll
    static void servers() {
        ServerPair p = TestServers.shared();
        source = p.source();
        target = p.target();
    }

    @AfterEach
    void stop() throws Exception {
        if (prometheus != null) {
            prometheus.destroy();
            if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        }
        if (run != null) {
            run.stop(Duration.ofSeconds(60));
        }
        if (http != null) {
            http.close();
        }
    }

    @Test
    void metricsOfTwoSourcesAndFourWritersPassPromtool() throws Exception {
        String promtool = onPath("promtool");
        assumeTrue(promtool != null, "promtool not installed (apt-get install prometheus): skipped");
        String task = "metrics-promtool";
        startTask(task, "metrics_pt");
        source.execute("INSERT INTO metrics_pt_a.t (v) VALUES ('x'), ('y')", "INSERT INTO metrics_pt_b.t (v) VALUES ('z')");
        String text = awaitMetrics(m -> m.contains("dm_syncer_finished_jobs_total{source_id=\"a\",task=\"" + task)
                && m.contains("dm_syncer_finished_jobs_total{source_id=\"b\",task=\"" + task)
                && m.contains("dm_syncer_queue_size{queue_id=\"q_3\",source_id=\"b\""));
        assertTrue(text.contains("# TYPE dm_worker_task_state gauge"), text);
        assertTrue(text.contains("# TYPE dm_syncer_replication_lag histogram"), text);
        assertTrue(text.contains("# TYPE jvm_memory_used_bytes gauge"), text);

        Process check = new ProcessBuilder(promtool, "check", "metrics").redirectErrorStream(true).start();
        check.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        check.getOutputStream().close();
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        // 1 is a format error; 3 lint findings, allowed only for DM's own names, which promtool lints
        // for the type in the name however they are typed
        assertTrue(check.exitValue() == 0 || check.exitValue() == 3, "promtool check metrics: " + out + "\n" + text);
        for (String finding : out.lines().toList()) {
            assertTrue(DM_NAMES_WITH_TYPE.contains(finding), "promtool check metrics: " + out + "\n" + text);
        }
    }

    @Test
    void prometheusScrapesReplicationLagAndRowRate() throws Exception {
        String binary = onPath("prometheus");
        assumeTrue(binary != null, "prometheus not installed (apt-get install prometheus): skipped");
        String task = "metrics-scrape";
        startTask(task, "metrics_sc");
        int port = freePort();
        startPrometheus(binary, port, http.port());
        awaitReady(port);

        // Rows keep arriving while Prometheus scrapes, so the rate over its window is above zero.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        double rate = 0;
        double lag = -1;
        while (System.nanoTime() < deadline && (rate <= 0 || lag < 0)) {
            source.execute("INSERT INTO metrics_sc_a.t (v) VALUES ('a'), ('b'), ('c')");
            rate = query(port, "sum(rate(dm_syncer_finished_jobs_total{task=\"" + task + "\",type=\"dml\"}[5s]))");
            lag = query(port, "max(dm_syncer_replication_lag_gauge{task=\"" + task + "\",source_id=\"a\"})");
            Thread.sleep(200);
        }
        assertTrue(rate > 0, "rows/s as Prometheus computes it: " + rate);
        assertTrue(rate < 1000, "a few rows every 200ms cannot be " + rate + " rows/s");
        assertTrue(lag >= 0 && lag < 60, "replication lag as Prometheus scraped it: " + lag);
        double commits = query(port, "sum(dm_syncer_replication_lag_count{task=\"" + task + "\"})");
        assertTrue(commits > 0, "lag histogram observations: " + commits);
        assertEquals(2, query(port, "dm_worker_task_state{task=\"" + task + "\",source_id=\"b\"}"),
                "source b is Running");
    }

    /** A task of two sources (a, b) on the embedded source, each with its own database, streaming. */
    private void startTask(String task, String db) throws Exception {
        for (String s : new String[] {"a", "b"}) {
            source.freshDatabase(db + "_" + s);
            target.execute("DROP DATABASE IF EXISTS `" + db + "_" + s + "`");
            source.execute("CREATE TABLE " + db + "_" + s + ".t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + db + "_" + s + ".t (v) VALUES ('first')");
        }
        String meta = "jdm_meta_" + db;
        target.execute("DROP DATABASE IF EXISTS " + meta);
        Path f = dir.resolve("task.yaml");
        String from = "from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}";
        Files.writeString(f, String.join("\n",
                "name: " + task,
                "task-mode: all",
                "meta-schema: " + meta,
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list:",
                "  a: {do-dbs: [\"" + db + "_a\"]}",
                "  b: {do-dbs: [\"" + db + "_b\"]}",
                "mydumpers: {global: {threads: 2, rows: 100, dir: \"" + dir.resolve("dump") + "\"}}",
                "loaders: {global: {pool-size: 2}}",
                "syncers: {global: {worker-count: 4, batch: 20}}",
                "mysql-instances:",
                "  - {source-id: a, block-allow-list: a, " + from + "}",
                "  - {source-id: b, block-allow-list: b, " + from + "}",
                ""));
        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(f), TaskRunner.Stages.FROM_TASK_MODE);
        http = StatusServer.start(task, "127.0.0.1:0", runner);
        run = BackgroundTask.start(runner, task);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (runner.syncUnits().size() < 2 && System.nanoTime() < deadline && run.failure() == null) {
            Thread.sleep(50);
        }
        assertEquals(2, runner.syncUnits().size(), "both sources streaming: " + run.failure());
    }

    /** Polls {@code /metrics} until {@code ready} holds; returns that text. */
    private String awaitMetrics(Predicate<String> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String text = "";
        while (System.nanoTime() < deadline) {
            text = get("http://127.0.0.1:" + http.port() + "/metrics");
            if (ready.test(text)) {
                return text;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("/metrics never showed what the test waits for:\n" + text);
    }

    private void startPrometheus(String binary, int port, int jdmPort) throws IOException {
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global: {scrape_interval: 1s, evaluation_interval: 1s}",
                "scrape_configs:",
                "  - job_name: jdm",
                "    static_configs: [{targets: [\"127.0.0.1:" + jdmPort + "\"]}]",
                ""));
        prometheus = new ProcessBuilder(binary, "--config.file=" + config, "--web.listen-address=127.0.0.1:" + port,
                "--storage.tsdb.path=" + dir.resolve("tsdb"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    }

    /** Prometheus answers 503 until its storage is open; its own readiness endpoint says when. */
    private void awaitReady(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!prometheus.isAlive()) {
                throw new AssertionError("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            try {
                HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("prometheus not ready in 60 s: " + Files.readString(dir.resolve("prometheus.log")));
    }

    /** The value of a one-element instant query, or -1 while Prometheus has no answer yet. */
    private double query(int port, String promql) throws Exception {
        String body;
        try {
            body = get("http://127.0.0.1:" + port + "/api/v1/query?query="
                    + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        } catch (IOException e) {
            if (!prometheus.isAlive()) {
                throw new AssertionError("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            return -1; // not listening yet
        }
        JsonNode result = new ObjectMapper().readTree(body).path("data").path("result");
        return result.isEmpty() ? -1 : Double.parseDouble(result.get(0).path("value").get(1).asText());
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), url + ": " + r.body());
        return r.body();
    }

    private static String onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, name);
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
