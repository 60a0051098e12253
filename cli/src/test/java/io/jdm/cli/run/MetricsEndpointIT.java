package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * not installed (Debian package {@code prometheus}). And every series DM's alert rules and
 * dashboard in {@code conf/} query is on {@code /metrics} of a sharded task that dumped, loaded and
 * syncs, with the labels they match and the values of what happened; a real Prometheus evaluates
 * every rule without an error.
 */
class MetricsEndpointIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Series Prometheus makes for every target it scrapes, not the target itself. */
    private static final Set<String> PROMETHEUS_OWN = Set.of("up");
    /** Labels Prometheus gives every series of a target. */
    private static final Set<String> TARGET_LABELS = Set.of("instance", "job");
    /** What promtool says of DM's own names, which dashboards query as they are. */
    private static final Set<String> DM_NAMES_PROMTOOL_LINTS = Set.of(
            "dm_syncer_replication_lag_gauge metric name should not include type 'gauge'",
            "dm_loader_data_size_gauge metric name should not include type 'gauge'",
            "dm_loader_data_file_gauge metric name should not include type 'gauge'",
            "dm_loader_table_gauge metric name should not include type 'gauge'",
            "dm_validator_validator_error_count non-histogram and non-summary metrics should not have \"_count\" suffix");
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
            assertTrue(DM_NAMES_PROMTOOL_LINTS.contains(finding), "promtool check metrics: " + out + "\n" + text);
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

    @Test
    void everySeriesOfDmAlertRulesAndDashboardIsOnMetrics() throws Exception {
        String task = "metrics-dm";
        String db = "metrics_dm";
        String merged = "`" + db + "_merged`.`t`";
        startShardedTask(task, db);
        for (String shard : SHARDS) {
            source.execute("INSERT INTO " + db + "_" + shard + ".t VALUES (" + base(shard) + " + 2, 'second')");
        }
        // shard a1 reaches a group DDL its three fellows have not: source a waits for the lock
        source.execute("ALTER TABLE " + db + "_a1.t ADD COLUMN c2 INT");
        Scrape m = Scrape.of(awaitMetrics(t -> Scrape.of(t).value("dm_syncer_shard_lock_resolving", "source_id", "a")
                == 1 && Scrape.of(t).value("dm_syncer_finished_jobs_total", "source_id", "b", "type", "dml") >= 2));

        List<String> missing = new ArrayList<>();
        List<String> exprs = new ArrayList<>(DmMonitoring.ruleExpressions());
        exprs.addAll(DmMonitoring.dashboardExpressions());
        for (String expr : exprs) {
            for (DmMonitoring.Selector sel : DmMonitoring.selectors(expr)) {
                if (PROMETHEUS_OWN.contains(sel.metric())) {
                    continue;
                }
                if (!m.has(sel.metric())) {
                    missing.add(sel.metric() + " (in " + expr + ")");
                }
                for (String label : sel.labels()) {
                    if (!TARGET_LABELS.contains(label) && !m.labelled(sel.metric(), label)) {
                        missing.add(sel.metric() + " labelled " + label + " (in " + expr + ")");
                    }
                }
            }
        }
        assertTrue(missing.isEmpty(), "not on /metrics:\n" + String.join("\n", missing) + "\n" + m.text);

        // what happened, as DM's series say it
        for (String s : new String[] {"a", "b"}) {
            assertEquals(2, m.value("dumpling_dump_finished_rows", "source_id", s), "rows dumped of " + s);
            assertEquals(1, m.value("dm_loader_progress", "source_id", s), "load of " + s);
            assertEquals(2, m.value("dm_loader_table_gauge", "source_id", s), "tables loaded of " + s);
            for (String unit : new String[] {"mydumper", "dumpling", "loader", "syncer"}) {
                for (String resumable : new String[] {"true", "false"}) {
                    assertEquals(0, m.value("dm_" + unit + "_exit_with_error_count", "source_id", s, "resumable_err",
                            resumable), unit + " exits of " + s);
                }
            }
            assertEquals(2, m.value("dm_worker_task_state", "source_id", s), s + " Running");
            assertTrue(m.value("dm_syncer_remaining_time", "source_id", s) >= 0, "remaining time of " + s);
            assertTrue(m.value("dm_syncer_binlog_file", "source_id", s, "node", "master")
                    >= m.value("dm_syncer_binlog_file", "source_id", s, "node", "syncer"), "binlog files of " + s);
        }
        assertEquals(0, m.value("dm_syncer_shard_lock_resolving", "source_id", "b"), "b's shards wait on nothing");
        assertEquals(1, m.value("dm_syncer_unsynced_table_number", "source_id", "a", "table", merged),
                "a2 has not reached the DDL");
        assertFalse(m.has("dm_syncer_unsynced_table_number", "source_id", "b"), m.text);

        // the other shards reach it: it runs on the target, nothing waits, and the table's count stays, at 0
        source.execute("ALTER TABLE " + db + "_a2.t ADD COLUMN c2 INT", "ALTER TABLE " + db + "_b1.t ADD COLUMN c2 INT",
                "ALTER TABLE " + db + "_b2.t ADD COLUMN c2 INT");
        Scrape after = Scrape.of(awaitMetrics(t -> Scrape.of(t).value("dm_syncer_shard_lock_resolving",
                "source_id", "a") == 0));
        assertEquals(0, after.value("dm_syncer_unsynced_table_number", "source_id", "a", "table", merged));

        String binary = onPath("prometheus");
        assumeTrue(binary != null, "prometheus not installed (apt-get install prometheus): rule evaluation skipped");
        int port = freePort();
        startPrometheus(binary, port, http.port(), DmMonitoring.file(DmMonitoring.RULES));
        awaitReady(port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (query(port, "count(dm_syncer_binlog_file)") < 4 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertEquals(4, query(port, "count(dm_syncer_binlog_file)"), "master and syncer files of a and b scraped");
        assertEquals(1, query(port, "up{job=~\"jdm.*\"}"), "the target DM_worker_offline watches");
        awaitRulesEvaluated(port, Instant.now());
        panelsEvaluate(port);
    }

    /**
     * Every panel query of the dashboard, with its variables set as Grafana sets "All" and a 1m
     * interval, evaluates on the Prometheus scraping jdm (no error, such as a many-to-many match),
     * and each gives at least one series except those asking for what this task did not do.
     */
    private void panelsEvaluate(int port) throws Exception {
        Thread.sleep(3000); // rates over the interval need a few scrapes
        List<String> empty = new ArrayList<>();
        for (String expr : DmMonitoring.dashboardExpressions()) {
            String q = expr.replaceAll("\\$(task|source|instance|worker|type)\\b", ".*")
                    .replace("$__rate_interval", "1m").replace("$__auto_interval_interval", "1m")
                    .replace("$interval", "1m");
            JsonNode r = new ObjectMapper().readTree(get("http://127.0.0.1:" + port + "/api/v1/query?query="
                    + URLEncoder.encode(q, StandardCharsets.UTF_8)));
            assertEquals("success", r.path("status").asText(), q + ": " + r);
            if (r.path("data").path("result").isEmpty()) {
                empty.add(q.strip());
            }
        }
        // the one panel that lists tasks not running: every task here runs
        assertEquals(List.of("dm_worker_task_state != 2"), empty, "panels without data");
    }

    private static final List<String> SHARDS = List.of("a1", "a2", "b1", "b2");

    /** Shard {@code a1}'s ids start at 100, {@code b2}'s at 400: merged into one table, they do not collide. */
    private static int base(String shard) {
        return 100 * (SHARDS.indexOf(shard) + 1);
    }

    /**
     * A task in shard-mode pessimistic of two sources (a: shards a1, a2; b: b1, b2, each a database
     * with table t on the embedded source) merged by routes into one target table; dumped, loaded
     * and streaming.
     */
    private void startShardedTask(String task, String db) throws Exception {
        for (String shard : SHARDS) {
            source.freshDatabase(db + "_" + shard);
            source.execute("CREATE TABLE " + db + "_" + shard + ".t (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + db + "_" + shard + ".t VALUES (" + base(shard) + " + 1, 'first')");
        }
        target.execute("DROP DATABASE IF EXISTS " + db + "_merged");
        String meta = "jdm_meta_" + db;
        target.execute("DROP DATABASE IF EXISTS " + meta);
        String from = "from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}";
        start(task, String.join("\n",
                "name: " + task,
                "task-mode: all",
                "shard-mode: pessimistic",
                "meta-schema: " + meta,
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list:",
                "  a: {do-dbs: [\"" + db + "_a1\", \"" + db + "_a2\"]}",
                "  b: {do-dbs: [\"" + db + "_b1\", \"" + db + "_b2\"]}",
                "routes:",
                "  tables: {schema-pattern: \"" + db + "_*\", table-pattern: t, target-schema: " + db
                        + "_merged, target-table: t}",
                "  schemas: {schema-pattern: \"" + db + "_*\", target-schema: " + db + "_merged}",
                "mydumpers: {global: {threads: 2, rows: 100, dir: \"" + dir.resolve("dump") + "\"}}",
                "loaders: {global: {pool-size: 2}}",
                "syncers: {global: {worker-count: 2, batch: 20, checkpoint-flush-interval: 1}}",
                "mysql-instances:",
                "  - {source-id: a, block-allow-list: a, route-rules: [tables, schemas], " + from + "}",
                "  - {source-id: b, block-allow-list: b, route-rules: [tables, schemas], " + from + "}",
                ""));
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
        String from = "from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}";
        start(task, String.join("\n",
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
    }

    /** Runs the task file {@code yaml} with its status server until both its sources stream. */
    private void start(String task, String yaml) throws Exception {
        Path f = dir.resolve("task.yaml");
        Files.writeString(f, yaml);
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
        startPrometheus(binary, port, jdmPort, null);
    }

    /** Prometheus scraping jdm every second under job {@code jdm}, and evaluating {@code rules} if given. */
    private void startPrometheus(String binary, int port, int jdmPort, Path rules) throws IOException {
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global: {scrape_interval: 1s, evaluation_interval: 1s}",
                rules == null ? "" : "rule_files: [\"" + rules + "\"]",
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

    /**
     * Waits until Prometheus has evaluated every rule after {@code since} (when jdm's series were
     * there), then asserts none failed to evaluate (a rule whose expression matches several series
     * on both sides of a binary operator, say, is health {@code err}).
     */
    private void awaitRulesEvaluated(int port, Instant since) throws Exception {
        int expected = DmMonitoring.ruleExpressions().size();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode groups = null;
        while (System.nanoTime() < deadline) {
            groups = new ObjectMapper().readTree(get("http://127.0.0.1:" + port + "/api/v1/rules"))
                    .path("data").path("groups");
            List<Instant> evaluated = new ArrayList<>();
            groups.forEach(g -> g.path("rules").forEach(r -> evaluated.add(OffsetDateTime.parse(
                    r.path("lastEvaluation").asText()).toInstant())));
            if (evaluated.size() == expected && evaluated.stream().allMatch(t -> t.isAfter(since))) {
                break;
            }
            Thread.sleep(200);
        }
        assertTrue(groups != null && !groups.isEmpty(), "prometheus loaded no rules");
        int evaluated = 0;
        for (JsonNode g : groups) {
            for (JsonNode r : g.path("rules")) {
                assertEquals("ok", r.path("health").asText(), r.path("name").asText() + ": "
                        + r.path("lastError").asText() + " (" + r.path("query").asText() + ")");
                evaluated++;
            }
        }
        assertEquals(expected, evaluated, "rules evaluated: " + groups);
    }

    /**
     * One {@code /metrics} text, parsed: each sample's name, labels and value (the JVM's series
     * too), to ask which names and labels are there and what a series says.
     */
    private record Scrape(String text, List<Sample> samples) {
        record Sample(String name, Map<String, String> labels, double value) {
        }

        static Scrape of(String text) {
            List<Sample> out = new ArrayList<>();
            for (String line : text.lines().toList()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                Map<String, String> labels = new LinkedHashMap<>();
                int brace = line.indexOf('{');
                int space = line.indexOf(' ');
                int end = space;
                if (brace >= 0 && brace < space) {
                    end = labels(line, brace, labels);
                }
                String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
                String[] rest = line.substring(end).trim().split(" ");
                out.add(new Sample(name, labels, Double.parseDouble(rest[0])));
            }
            return new Scrape(text, out);
        }

        /** Reads {@code {k="v",...}} from {@code open} into {@code labels}; returns the index after it. */
        private static int labels(String line, int open, Map<String, String> labels) {
            int i = open + 1;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                String key = line.substring(i, eq);
                StringBuilder v = new StringBuilder();
                i = eq + 2;
                while (line.charAt(i) != '"') {
                    if (line.charAt(i) == '\\') {
                        i++;
                    }
                    v.append(line.charAt(i++));
                }
                labels.put(key, v.toString());
                i++;
                if (line.charAt(i) == ',') {
                    i++;
                }
            }
            return i + 1;
        }

        /** Whether a sample named {@code name} has the label values {@code kv} (name, value, ...). */
        boolean has(String name, String... kv) {
            return samples.stream().anyMatch(s -> s.name().equals(name) && matches(s, kv));
        }

        boolean labelled(String name, String label) {
            return samples.stream().anyMatch(s -> s.name().equals(name) && s.labels().containsKey(label));
        }

        /** The value of the one sample named {@code name} with the label values {@code kv}; NaN when none. */
        double value(String name, String... kv) {
            List<Sample> found = samples.stream().filter(s -> s.name().equals(name) && matches(s, kv)).toList();
            assertTrue(found.size() <= 1, name + " " + List.of(kv) + ": more than one series: " + found);
            return found.isEmpty() ? Double.NaN : found.get(0).value();
        }

        private static boolean matches(Sample s, String... kv) {
            for (int i = 0; i < kv.length; i += 2) {
                if (!kv[i + 1].equals(s.labels().get(kv[i]))) {
                    return false;
                }
            }
            return true;
        }
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
