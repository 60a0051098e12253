package io.jdm.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.cli.TestTasks;
import io.jdm.common.config.TaskConfig;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page in headless Chromium over a {@code /status} of states a short live run does not
 * reach: a load that failed (its error as text, not markup, and {@code jdm run} next), a sync paused
 * with a shard lock ({@code jdm resume-task} next), and an ETA the page computes from the load's
 * progress as it grows between polls. Skipped when no {@code chromium} is on the PATH.
 */
class StatusPageTest {
    @TempDir
    Path dir;

    @Test
    void showsErrorsShardLocksTheNextCommandAndAnEta() throws Exception {
        String chromium = onPath("chromium");
        assumeTrue(chromium != null, "chromium not installed (apt-get install chromium): skipped");
        AtomicInteger polls = new AtomicInteger();
        StatusProvider provider = new StatusProvider() {
            @Override
            public TaskConfig task() {
                return TestTasks.unrun("provided");
            }

            @Override
            public Map<String, Object> status() {
                // 10 % more at every poll: 5 %/s at the page's 2 s
                return statusAt(10 * polls.incrementAndGet());
            }

            @Override
            public String metrics() {
                return "";
            }

            @Override
            public Map<String, Object> operate(TaskOp op) {
                throw new AssertionError("the page sent " + op);
            }
        };
        String dom;
        try (StatusServer server = StatusServer.start("page", "127.0.0.1:0", provider)) {
            dom = chromium(chromium, "http://127.0.0.1:" + server.port() + "/ui");
        }
        assertTrue(polls.get() >= 2, "the page polled " + polls.get() + " times");
        assertTrue(dom.contains("task paged"), dom);
        assertTrue(dom.contains("&lt;b&gt;Duplicate entry '1' for key 'PRIMARY'&lt;/b&gt;"), "error as text:\n" + dom);
        assertFalse(dom.contains("<b>Duplicate"), dom);
        assertTrue(dom.contains("Shard lock on `m`.`t`: ALTER TABLE `m`.`t` ADD COLUMN c2 INT"), dom);
        assertTrue(dom.contains("waiting for `s2`.`t`"), dom);
        List<String> next = all(dom, "data-field=\"next\"[^>]*>([^<]*)<");
        assertEquals(List.of("jdm run TASK.yaml", "jdm resume-task TASK.yaml"), next, "next commands, a then b");
        List<String> eta = all(dom, "data-field=\"loadEta\"[^>]*>([^<]*)<");
        assertEquals(1, eta.size(), dom);
        Matcher seconds = Pattern.compile("(\\d+)s").matcher(eta.get(0));
        assertTrue(seconds.matches(), "ETA " + eta.get(0));
        // at 5 %/s, from 20 % or more: at most 16 s left
        int left = Integer.parseInt(seconds.group(1));
        assertTrue(left > 0 && left <= 16, "ETA " + eta.get(0) + " after " + polls.get() + " polls");
    }

    private static Map<String, Object> statusAt(int loadPercent) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("ErrCode", 0);
        error.put("Message", "<b>Duplicate entry '1' for key 'PRIMARY'</b>");
        error.put("RawCause", "");
        error.put("Workaround", "");
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("finishedBytes", Integer.toString(loadPercent * 1000));
        load.put("totalBytes", "100000");
        load.put("progress", String.format(Locale.ROOT, "%.2f %%", (double) Math.min(100, loadPercent)));
        load.put("bps", "5000");
        Map<String, Object> a = subTask("Paused", "Load");
        a.put("result", Map.of("isCanceled", false, "errors", List.of(error)));
        a.put("load", load);
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("target", "`m`.`t`");
        group.put("DDLs", List.of("ALTER TABLE `m`.`t` ADD COLUMN c2 INT"));
        group.put("synced", List.of("`s1`.`t`"));
        group.put("unsynced", List.of("`s2`.`t`"));
        Map<String, Object> sync = new LinkedHashMap<>();
        sync.put("totalRows", "12");
        sync.put("recentRps", "0");
        sync.put("secondsBehindMaster", "3");
        sync.put("synced", false);
        sync.put("unresolvedGroups", List.of(group));
        Map<String, Object> b = subTask("Paused", "Sync");
        b.put("sync", sync);
        List<Object> sources = new ArrayList<>();
        sources.add(Map.of("result", true, "sourceStatus", Map.of("source", "a"), "subTaskStatus", List.of(a)));
        sources.add(Map.of("result", true, "sourceStatus", Map.of("source", "b"), "subTaskStatus", List.of(b)));
        return Map.of("result", true, "msg", "", "sources", sources);
    }

    private static Map<String, Object> subTask(String stage, String unit) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "paged");
        m.put("stage", stage);
        m.put("unit", unit);
        m.put("result", null);
        return m;
    }

    private static List<String> all(String text, String regex) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The DOM after 5 s of page time: the first poll and two more. */
    private String chromium(String binary, String url) throws Exception {
        Path log = dir.resolve("chromium.log");
        Process p = new ProcessBuilder(binary, "--headless", "--disable-gpu", "--no-sandbox",
                "--user-data-dir=" + dir.resolve("chromium"), "--virtual-time-budget=5000", "--dump-dom", url)
                .redirectError(log.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish: " + Files.readString(log));
        }
        assertEquals(0, p.exitValue(), "chromium: " + Files.readString(log));
        return out;
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
