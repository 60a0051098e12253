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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page at {@code /} of a running task, as a real browser renders it: headless Chromium
 * loads it, its script (allowed by the page's Content-Security-Policy, or nothing would render)
 * fetches {@code /status}, and the DOM shows the task, its source's unit and stage and the rows the
 * sync applied, as {@code /status} says them. A screenshot is kept in {@code target/status-page/}.
 * Skipped when no {@code chromium} is on the PATH.
 */
class StatusPageIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Rows inserted once the sync streams: an odd count no other number on the page is likely to be. */
    private static final int ROWS = 37;
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path dir;
    private BackgroundTask run;
    private StatusServer http;

    @BeforeAll
    static void servers() {
        ServerPair p = TestServers.shared();
        source = p.source();
        target = p.target();
    }

    @AfterEach
    void stop() throws Exception {
        if (run != null) {
            run.stop(Duration.ofSeconds(60));
        }
        if (http != null) {
            http.close();
        }
    }

    @Test
    void chromiumShowsTheTaskItsStageAndItsRows() throws Exception {
        String chromium = onPath("chromium");
        assumeTrue(chromium != null, "chromium not installed (apt-get install chromium): skipped");
        String task = "status-page";
        String db = "status_page";
        startTask(task, db);
        source.execute("INSERT INTO " + db + ".t (v) SELECT 'x' FROM (" + digits(ROWS) + ") d");
        JsonNode sub = awaitStatus(s -> s.path("sync").path("totalRows").asText().equals(String.valueOf(ROWS)));
        String url = "http://127.0.0.1:" + http.port() + "/";

        String dom = chromium(chromium, "--dump-dom", url);
        assertTrue(dom.contains("task " + task), "task name on the page:\n" + dom);
        assertField(dom, "unit", sub.path("unit").asText());
        assertField(dom, "stage", sub.path("stage").asText());
        assertEquals("Sync", sub.path("unit").asText());
        assertEquals("Running", sub.path("stage").asText());
        assertField(dom, "totalRows", String.valueOf(ROWS));

        Path png = Path.of("target", "status-page", "status-page.png").toAbsolutePath();
        Files.createDirectories(png.getParent());
        Files.deleteIfExists(png);
        chromium(chromium, "--screenshot=" + png, "--window-size=1280,900", url);
        assertTrue(Files.exists(png), "screenshot written: " + png);
        // an empty white 1280x900 PNG is a few KB; the page with its cards, text and chart is more
        assertTrue(Files.size(png) > 20_000, "screenshot of " + Files.size(png) + " bytes: " + png);
    }

    /** The element marked {@code data-field="field"} reads {@code value}. */
    private static void assertField(String dom, String field, String value) {
        Pattern p = Pattern.compile("data-field=\"" + field + "\"[^>]*>" + Pattern.quote(value) + "<");
        assertTrue(p.matcher(dom).find(), field + " = " + value + " on the page:\n" + dom);
    }

    /** Runs headless Chromium on the page with 5 s of page time (the first poll and two more). */
    private String chromium(String binary, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(binary, "--headless", "--disable-gpu", "--no-sandbox",
                "--user-data-dir=" + dir.resolve("chromium"), "--virtual-time-budget=5000"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(dir.resolve("chromium.log").toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish: " + Files.readString(dir.resolve("chromium.log")));
        }
        assertEquals(0, p.exitValue(), "chromium: " + Files.readString(dir.resolve("chromium.log")));
        return out;
    }

    /** {@code SELECT 1 UNION ALL SELECT 2 …} of n rows. */
    private static String digits(int n) {
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            rows.add("SELECT " + i + " AS n");
        }
        return String.join(" UNION ALL ", rows);
    }

    /** Polls {@code /status} until the one subtask satisfies {@code ready}; returns that subtask. */
    private JsonNode awaitStatus(java.util.function.Predicate<JsonNode> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode sub = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
                    + "/status")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            sub = new ObjectMapper().readTree(r.body()).path("sources").path(0).path("subTaskStatus").path(0);
            if (ready.test(sub)) {
                return sub;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("/status never showed what the test waits for: " + sub);
    }

    /** A task of one source, dumped, loaded and streaming. */
    private void startTask(String task, String db) throws Exception {
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS `" + db + "`");
        source.execute("CREATE TABLE " + db + ".t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO " + db + ".t (v) VALUES ('first')");
        String meta = "jdm_meta_" + db;
        target.execute("DROP DATABASE IF EXISTS " + meta);
        Path f = dir.resolve("task.yaml");
        Files.writeString(f, String.join("\n",
                "name: " + task,
                "task-mode: all",
                "meta-schema: " + meta,
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list:",
                "  a: {do-dbs: [\"" + db + "\"]}",
                "mydumpers: {global: {threads: 2, rows: 100, dir: \"" + dir.resolve("dump") + "\"}}",
                "mysql-instances:",
                "  - {source-id: a, block-allow-list: a, from: {host: 127.0.0.1, port: " + source.port()
                        + ", user: root, password: \"\"}}",
                ""));
        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(f), TaskRunner.Stages.FROM_TASK_MODE);
        http = StatusServer.start(task, "127.0.0.1:0", runner);
        run = BackgroundTask.start(runner, task);
        assertTrue(run.awaitSync(Duration.ofMinutes(1)) != null, "the source streams: " + run.failure());
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
}
