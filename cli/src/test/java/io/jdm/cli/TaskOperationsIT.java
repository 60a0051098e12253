package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.JdmCommandLineTest.Run;
import io.jdm.cli.daemon.DmOpenApiSpec;
import io.jdm.cli.run.KeylessRows;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dmctl's verbs against a real {@code jdm run} process: query-status in DM's shape, pause-task holds
 * the sync (rows written meanwhile stay away from the target), resume-task lets them through,
 * stop-task ends the process with exit 0 and a restart goes on without loss or duplicates. The task
 * has passwords and a status-token: the verbs need the token (from the task's token file, from
 * {@code --token-file}, from the environment), and neither /status, /metrics nor the log show a secret.
 */
class TaskOperationsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "dmctl_pw";
    private static final String SOURCE_PASSWORD = "src-Pw-7d1e4a";
    private static final String TARGET_PASSWORD = "tgt-Pw-93c2b8";
    private static final String TOKEN = "c0ffee11deadbeef2468ace013579bdf";
    private static final List<String> SECRETS = List.of(SOURCE_PASSWORD, TARGET_PASSWORD, TOKEN);
    private static final List<String> SUBTASK_FIELDS = List.of("name", "stage", "unit", "result",
            "unresolvedDDLLockID", "sync", "validation", "jdm");
    private static final List<String> SYNC_FIELDS = List.of("totalEvents", "totalTps", "recentTps", "masterBinlog",
            "masterBinlogGtid", "syncerBinlog", "syncerBinlogGtid", "blockingDDLs", "unresolvedGroups", "synced",
            "binlogType", "secondsBehindMaster", "blockDDLOwner", "conflictMsg", "totalRows", "totalRps",
            "recentRps");

    @TempDir
    Path dir;

    private final SqlServer source = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();

    @Test
    void queryPauseResumeStopAndRestart() throws Exception {
        String db = "dmctl_ops";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_meta_dmctl");
        source.execute("CREATE TABLE " + db + ".t (a INT, b VARCHAR(20))"); // keyless: a double apply shows
        insertRows(db, 0, 50);
        Path task = taskFile(db);

        Process jdm = start("first", task);
        try {
            // syncerBinlog is "" until the sync unit has read its checkpoint
            JsonNode status = awaitStatus(task, jdm, "first", s -> "Sync".equals(subTask(s).path("unit").asText())
                    && !subTask(s).path("sync").path("syncerBinlog").asText().isEmpty());
            assertQueryStatusShape(status);
            String printed = JdmCommandLineTest.run("query-status", task.toString()).out();
            assertTrue(printed.startsWith("{\n    \"result\": true,\n    \"msg\": \"\",\n    \"sources\": [\n"),
                    "not laid out as dmctl prints it: " + printed);
            assertTrue(printed.contains("\"blockingDDLs\": [],"), printed);
            String metrics = JdmCommandLineTest.run("status", "--metrics", task.toString()).out();
            assertTrue(metrics.contains("dm_worker_task_state"), metrics);
            assertNoSecret("query-status", printed);
            assertNoSecret("/metrics", metrics);
            insertRows(db, 50, 60);
            awaitSameRows(db);
            awaitStatus(task, jdm, "first", s -> subTask(s).path("sync").path("synced").asBoolean());

            Run anonymous = JdmCommandLineTest.run("pause-task", "--address", address(task));
            assertEquals(2, anonymous.code(), anonymous.out());
            assertEquals("jdm: pause-task: the jdm at " + address(task) + " needs its status-token: give the task "
                    + "file that sets it, --token-file FILE or $JDM_STATUS_TOKEN\n", anonymous.err());
            Path wrong = Files.writeString(dir.resolve("wrong-token"), TOKEN.replace('c', 'd'));
            Run refused = JdmCommandLineTest.run("stop-task", "--address", address(task), "--token-file",
                    wrong.toString());
            assertEquals(2, refused.code(), refused.out());
            assertTrue(refused.err().contains(" refused the token from --token-file " + wrong + ": it is not the "
                    + "status-token that jdm was started with"), refused.err());
            assertEquals("Running", subTask(queryStatus(task)).path("stage").asText());

            Run paused = JdmCommandLineTest.run("pause-task", task.toString());
            assertEquals(0, paused.code(), paused.err());
            assertEquals("Pause", JSON.readTree(paused.out()).path("op").asText(), paused.out());
            assertEquals("Paused", subTask(queryStatus(task)).path("stage").asText());
            insertRows(db, 1000, 1010);
            source.execute("UPDATE " + db + ".t SET b = CONCAT(b, 'u') WHERE a < 10");
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
            while (System.nanoTime() < until) {
                assertEquals(0, count(target, db, "a >= 1000 OR b LIKE '%u'"), "rows reached the target while paused");
                Thread.sleep(200);
            }

            Process resume = JdmChild.start(dir.resolve("resume.log"), List.of(), Map.of("JDM_STATUS_TOKEN", TOKEN),
                    "resume-task", "--address", address(task));
            assertTrue(resume.waitFor(60, TimeUnit.SECONDS), "resume-task did not end");
            assertEquals(0, resume.exitValue(), read("resume"));
            assertEquals("Running", subTask(queryStatus(task)).path("stage").asText());
            awaitSameRows(db);
            openApiStopAndStart(task, db);

            insertRows(db, 2000, 2010); // possibly in flight when the stop comes
            Run stopped = JdmCommandLineTest.run("stop-task", task.toString());
            assertEquals(0, stopped.code(), stopped.err());
            assertTrue(jdm.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
            assertEquals(0, jdm.exitValue(), read("first"));
            assertNoSecret("the log of jdm run", read("first"));
        } finally {
            jdm.destroyForcibly();
        }

        insertRows(db, 3000, 3010);
        source.execute("DELETE FROM " + db + ".t WHERE a % 7 = 0");
        Process again = start("second", task);
        try {
            awaitStatus(task, again, "second", s -> "Sync".equals(subTask(s).path("unit").asText()));
            awaitSameRows(db);
            Run stopped = JdmCommandLineTest.run("stop-task", task.toString());
            assertEquals(0, stopped.code(), stopped.err());
            assertTrue(again.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
            assertEquals(0, again.exitValue(), read("second"));
        } finally {
            again.destroyForcibly();
        }
    }

    /**
     * A pause outlives the process (a kill -9 here, a restart by systemd or Kubernetes in life): the
     * next start is paused until resume-task; stop-task ends the task, pause included.
     */
    @Test
    void aPauseIsKeptAcrossAKillUntilResumeTaskAndStopTaskEndsIt() throws Exception {
        String db = "dmctl_pause_kept";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_meta_dmctl");
        source.execute("CREATE TABLE " + db + ".t (a INT, b VARCHAR(20))");
        insertRows(db, 0, 20);
        Path task = taskFile(db);
        Process first = start("kept-first", task);
        try {
            awaitStatus(task, first, "kept-first", s -> "Sync".equals(subTask(s).path("unit").asText()));
            awaitSameRows(db);
            Run paused = JdmCommandLineTest.run("pause-task", task.toString());
            assertEquals(0, paused.code(), paused.err());
        } finally {
            first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        insertRows(db, 1000, 1010);
        Process second = start("kept-second", task);
        try {
            awaitStatus(task, second, "kept-second", s -> "Paused".equals(subTask(s).path("stage").asText()));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < until) {
                assertEquals(0, count(target, db, "a >= 1000"), "rows reached the target while paused");
                Thread.sleep(200);
            }
            assertTrue(read("kept-second").contains("paused by pause-task before this process started"),
                    read("kept-second"));
            Run resumed = JdmCommandLineTest.run("resume-task", task.toString());
            assertEquals(0, resumed.code(), resumed.err());
            awaitSameRows(db);
            assertEquals(0, JdmCommandLineTest.run("pause-task", task.toString()).code());
            Run stopped = JdmCommandLineTest.run("stop-task", task.toString());
            assertEquals(0, stopped.code(), stopped.err());
            assertTrue(second.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
        } finally {
            second.destroyForcibly();
        }
        insertRows(db, 2000, 2010);
        Process third = start("kept-third", task);
        try {
            awaitStatus(task, third, "kept-third", s -> "Sync".equals(subTask(s).path("unit").asText())
                    && "Running".equals(subTask(s).path("stage").asText()));
            awaitSameRows(db);
            assertEquals(0, JdmCommandLineTest.run("stop-task", task.toString()).code());
            assertTrue(third.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
        } finally {
            third.destroyForcibly();
        }
    }

    /**
     * DM's start-task --remove-meta: the task's meta tables go, and its sync starts from meta as a new
     * task's does, not from the checkpoint; a task that would load again is refused.
     */
    @Test
    void removeMetaStartsTheSyncFromMetaAgain() throws Exception {
        String db = "dmctl_remove_meta";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_meta_dmctl");
        source.execute("CREATE TABLE " + db + ".t (a INT PRIMARY KEY, b VARCHAR(20))");
        insertRows(db, 0, 20);
        Path task = taskFile(db);
        Process first = start("remove-first", task);
        try {
            awaitStatus(task, first, "remove-first", s -> "Sync".equals(subTask(s).path("unit").asText()));
            awaitSameRows(db);
            assertEquals(0, JdmCommandLineTest.run("stop-task", task.toString()).code());
            assertTrue(first.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
        } finally {
            first.destroyForcibly();
        }
        Run refused = JdmCommandLineTest.run("run", "--remove-meta", task.toString());
        assertEquals(1, refused.code(), refused.out());
        assertTrue(refused.err().contains("--remove-meta: task dmctl-ops has task-mode all, and a new start would "
                + "load its dump again"), refused.err());

        insertRows(db, 100, 110); // after the checkpoint, before meta: a resume applies them, a new start does not
        String file;
        long pos;
        try (Connection c = source.connect(); Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
            assertTrue(rs.next());
            file = rs.getString(1);
            pos = rs.getLong(2);
        }
        Path incremental = Files.writeString(dir.resolve("incremental.yaml"), Files.readString(task)
                .replace("task-mode: all", "task-mode: incremental")
                .replace("    block-allow-list: only", "    block-allow-list: only\n    meta: {binlog-name: " + file
                        + ", binlog-pos: " + pos + "}"));
        insertRows(db, 200, 210);
        Process second = JdmChild.start(dir.resolve("remove-second.log"), "run", "--remove-meta",
                incremental.toString());
        try {
            awaitStatus(incremental, second, "remove-second", s -> subTask(s).path("sync").path("synced").asBoolean());
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (count(target, db, "a >= 200") < 10 && System.nanoTime() < until) {
                Thread.sleep(200);
            }
            assertEquals(10, count(target, db, "a >= 200"), read("remove-second"));
            assertEquals(0, count(target, db, "a >= 100 AND a < 110"), "the sync started from meta, not from "
                    + "the checkpoint");
            assertTrue(read("remove-second").contains("--remove-meta: dropped dmctl-ops_stage"), read("remove-second"));
            assertEquals(0, JdmCommandLineTest.run("stop-task", incremental.toString()).code());
            assertTrue(second.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
        } finally {
            second.destroyForcibly();
        }
    }

    /**
     * DM's start-task --start-time: the sync starts at the first transaction at or after the time,
     * whatever the checkpoint says; later than the checkpoint skips what lies between, earlier
     * replays what is on the target already in safe mode.
     */
    @Test
    void startTimeStartsTheSyncAtThatTimeWhateverTheCheckpoint() throws Exception {
        String db = "dmctl_start_time";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_meta_dmctl");
        java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        String before = java.time.LocalDateTime.now().minusSeconds(2).format(f);
        source.execute("CREATE TABLE " + db + ".t (a INT PRIMARY KEY, b VARCHAR(20))");
        insertRows(db, 0, 20);
        Path task = taskFile(db);
        Process first = start("time-first", task);
        try {
            awaitStatus(task, first, "time-first", s -> "Sync".equals(subTask(s).path("unit").asText()));
            awaitSameRows(db);
            assertEquals(0, JdmCommandLineTest.run("stop-task", task.toString()).code());
            assertTrue(first.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
        } finally {
            first.destroyForcibly();
        }
        insertRows(db, 100, 110); // after the checkpoint, before the time
        // the binlog's times are whole seconds: the next one is past every row above
        java.time.LocalDateTime at = java.time.LocalDateTime.now().withNano(0).plusSeconds(1);
        while (java.time.LocalDateTime.now().isBefore(at.plusNanos(500_000_000))) {
            Thread.sleep(100);
        }
        insertRows(db, 200, 210);
        Process second = JdmChild.start(dir.resolve("time-second.log"), "sync", "--start-time", at.format(f),
                task.toString());
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (count(target, db, "a >= 200") < 10 && System.nanoTime() < until && second.isAlive()) {
                Thread.sleep(200);
            }
            assertEquals(10, count(target, db, "a >= 200"), read("time-second"));
            assertEquals(0, count(target, db, "a >= 100 AND a < 110"), "started at the time, not the checkpoint");
            Run stop = JdmCommandLineTest.run("stop-task", task.toString());
            assertEquals(0, stop.code(), stop.err() + read("time-second"));
            assertTrue(second.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
        } finally {
            second.destroyForcibly();
        }
        // earlier than the checkpoint: everything from the table's creation on is replayed, in safe mode
        Process third = JdmChild.start(dir.resolve("time-third.log"), "sync", "--start-time", before, task.toString());
        try {
            awaitSameRows(db);
            assertTrue(read("time-third").contains("in safe mode up to the checkpoint it replaces"), read("time-third"));
            assertEquals(0, JdmCommandLineTest.run("stop-task", task.toString()).code());
            assertTrue(third.waitFor(90, TimeUnit.SECONDS), "no exit after stop-task");
            assertEquals(0, third.exitValue(), read("time-third"));
        } finally {
            third.destroyForcibly();
        }
        Run bad = JdmCommandLineTest.run("sync", "--start-time", "yesterday", task.toString());
        assertEquals(2, bad.code(), bad.out());
        assertTrue(bad.err().contains("must be a time such as '2021-10-21 00:01:00'"), bad.err());
    }

    /**
     * DM's OpenAPI on the same address: the task's status in DM's shape with no secret in it or in the
     * task and source lists; stop (DM's v1 stop is a pause) and start need the token, and hold and let
     * through the sync as pause-task and resume-task do.
     */
    private void openApiStopAndStart(Path task, String db) throws Exception {
        String api = "http://" + address(task) + "/api/v1";
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> status = http.send(HttpRequest.newBuilder(URI.create(api + "/tasks/dmctl-ops/status"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, status.statusCode(), status.body());
        JsonNode data = JSON.readTree(status.body()).path("data").path(0);
        DmOpenApiSpec.assertShape("GetTaskStatusResponse", JSON.readTree(status.body()));
        assertEquals(List.of("s1", "Running", "Sync"), List.of(data.path("source_name").asText(),
                data.path("stage").asText(), data.path("unit").asText()), data.toString());
        assertTrue(data.path("sync_status").path("syncer_binlog").asText().matches("\\(.+\\.\\d+, \\d+\\)"),
                data.toString());
        assertNoSecret("/api/v1/tasks/dmctl-ops/status", status.body());
        for (String read : List.of("/tasks?with_status=true", "/sources?with_status=true")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(api + read)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertNoSecret("/api/v1" + read, r.body());
        }

        // the POSTs on a connection of their own, as curl and dmctl send them: a POST is not sent
        // again by the client when the server has closed the kept-alive connection it picked
        http = HttpClient.newHttpClient();
        HttpRequest.Builder stop = HttpRequest.newBuilder(URI.create(api + "/tasks/dmctl-ops/stop"))
                .POST(HttpRequest.BodyPublishers.noBody());
        assertEquals(401, http.send(stop.build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals("Running", subTask(queryStatus(task)).path("stage").asText());
        HttpResponse<String> stopped = http.send(stop.header("Authorization", "Bearer " + TOKEN).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, stopped.statusCode(), stopped.body());
        assertEquals("Paused", subTask(queryStatus(task)).path("stage").asText());
        insertRows(db, 1500, 1510);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(1); // the pause-task above holds 4 s
        while (System.nanoTime() < until) {
            assertEquals(0, count(target, db, "a >= 1500"), "rows reached the target after the OpenAPI's stop");
            Thread.sleep(200);
        }
        HttpResponse<String> started = http.send(HttpRequest.newBuilder(URI.create(api + "/tasks/dmctl-ops/start"))
                .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, started.statusCode(), started.body());
        assertEquals("Running", subTask(queryStatus(task)).path("stage").asText());
        awaitSameRows(db);
    }

    private static void assertNoSecret(String where, String text) {
        for (String secret : SECRETS) {
            assertFalse(text.contains(secret), where + " shows a secret: " + text);
        }
    }

    private void assertQueryStatusShape(JsonNode s) {
        assertTrue(s.path("result").asBoolean(), s.toString());
        assertEquals("", s.path("msg").asText(), s.toString());
        JsonNode src = s.path("sources").path(0);
        assertEquals(List.of("result", "msg", "sourceStatus", "subTaskStatus"), names(src));
        assertEquals(List.of("source", "worker", "result", "relayStatus"), names(src.path("sourceStatus")));
        assertEquals("s1", src.path("sourceStatus").path("source").asText());
        JsonNode sub = subTask(s);
        assertEquals(SUBTASK_FIELDS, names(sub));
        assertEquals("dmctl-ops", sub.path("name").asText());
        assertEquals("Running", sub.path("stage").asText());
        assertTrue(sub.path("result").isNull(), sub.toString());
        JsonNode sync = sub.path("sync");
        assertEquals(SYNC_FIELDS, names(sync));
        for (String int64 : List.of("totalEvents", "totalRows", "totalRps", "recentRps", "secondsBehindMaster")) {
            assertTrue(sync.path(int64).isTextual() && sync.path(int64).asText().matches("\\d+"),
                    int64 + " is not an int64 string as jsonpb prints it: " + sync);
        }
        assertTrue(sync.path("masterBinlog").asText().matches("\\(.+\\.\\d+, \\d+\\)"), sync.toString());
        assertTrue(sync.path("syncerBinlog").asText().matches("\\(.+\\.\\d+, \\d+\\)"), sync.toString());
        assertTrue(sync.path("blockingDDLs").isArray() && sync.path("blockingDDLs").isEmpty(), sync.toString());
        assertEquals("remote", sync.path("binlogType").asText());
    }

    private static JsonNode subTask(JsonNode status) {
        return status.path("sources").path(0).path("subTaskStatus").path(0);
    }

    private static List<String> names(JsonNode n) {
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    private JsonNode queryStatus(Path task) throws IOException {
        Run r = JdmCommandLineTest.run("query-status", task.toString());
        assertEquals(0, r.code(), r.err());
        return JSON.readTree(r.out());
    }

    /** Polls query-status until {@code until} holds; the process must stay alive meanwhile. */
    private JsonNode awaitStatus(Path task, Process p, String log, Predicate<JsonNode> until) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        Run last = null;
        while (System.nanoTime() < deadline) {
            assertTrue(p.isAlive(), () -> "jdm exited early: " + read(log));
            last = JdmCommandLineTest.run("query-status", task.toString());
            if (last.code() == 0) {
                JsonNode s = JSON.readTree(last.out());
                if (until.test(s)) {
                    return s;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("status never reached the expected state: " + (last == null ? "" : last.out()
                + last.err()));
    }

    private String address(Path task) throws IOException {
        String yaml = Files.readString(task);
        int at = yaml.indexOf("status-addr: \"") + "status-addr: \"".length();
        return yaml.substring(at, yaml.indexOf('"', at));
    }

    /** A task run as a user with a password on each server, its status-token in a file beside it. */
    private Path taskFile(String db) throws Exception {
        source.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + SOURCE_PASSWORD + "'",
                "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'127.0.0.1'");
        target.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + TARGET_PASSWORD + "'",
                "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'127.0.0.1'");
        Files.writeString(dir.resolve("status-token"), TOKEN + "\n");
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        return Files.writeString(dir.resolve("task.yaml"), String.join("\n",
                "name: dmctl-ops",
                "task-mode: all",
                "meta-schema: jdm_meta_dmctl",
                "status-addr: \"127.0.0.1:" + port + "\"",
                "status-token-file: status-token",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: " + USER + ", password: \""
                        + TARGET_PASSWORD + "\"}",
                "block-allow-list: {only: {do-dbs: [" + db + "]}}",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve("dump") + "\"}}",
                "syncers: {global: {worker-count: 2, checkpoint-flush-interval: 1}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: " + USER + ", password: \""
                        + SOURCE_PASSWORD + "\"}",
                ""));
    }

    private Process start(String log, Path task) throws IOException {
        return JdmChild.start(dir.resolve(log + ".log"), "run", task.toString());
    }

    private String read(String log) {
        try {
            return Files.readString(dir.resolve(log + ".log"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private void insertRows(String db, int from, int to) throws Exception {
        StringBuilder sb = new StringBuilder("INSERT INTO " + db + ".t VALUES ");
        for (int i = from; i < to; i++) {
            sb.append(i > from ? "," : "").append('(').append(i).append(", 'r").append(i).append("')");
        }
        source.execute(sb.toString());
    }

    private static long count(SqlServer s, String db, String where) throws Exception {
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + db + ".t WHERE " + where)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Polls until the target's table equals the source's row by row, then asserts it. */
    private void awaitSameRows(String db) throws Exception {
        KeylessRows.awaitSame(source, target, db);
        assertFalse(KeylessRows.rows(source, db).isEmpty());
    }
}
