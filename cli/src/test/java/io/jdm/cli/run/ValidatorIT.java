package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.Jdm;
import io.jdm.common.position.BinlogPosition;
import io.jdm.cli.TestTasks;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Continuous validation with DM's validator_basic data: its rows loaded, then its increment (six
 * inserts of temporals, floats and doubles, an update and a delete) synced and each row read back and
 * compared, through the route DM's test uses (t1 into t1_down). One row is changed on the target
 * behind the task's back (a trigger rewrites its name as the writer inserts it): the validator counts
 * exactly that row as an error after row-error-delay, show-error gives both sides, resolve-error
 * resolves it, stop makes the validator ignore new rows and start takes them again; the status is
 * still read after the task has exited.
 */
class ValidatorIT {
    private static final String DB = "validator_basic";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path dir;
    /** The task {@link #started} last. */
    private TaskRunner runner;

    @BeforeAll
    static void servers() {
        source = TestServers.shared().source();
        target = TestServers.shared().target();
    }

    @Test
    void aRowChangedBehindTheTaskIsAnErrorRowUntilResolved() throws Exception {
        fresh();
        Path task = task();
        BackgroundTask run = started(task);
        try {
            changeRowFiveBehindTheTasksBack();
            script("db1.increment.sql");

            JsonNode v = awaitStatus(task, s -> s.path("errorRowsStatus").asText().equals("new/ignored/resolved: 1/0/0")
                    && s.path("pendingRowsStatus").asText().equals("insert/update/delete: 0/0/0"));
            assertEquals("insert/update/delete: 6/1/1", v.path("processedRowsStatus").asText(), v.toString());
            assertEquals("full", v.path("mode").asText());
            assertEquals("Running", v.path("stage").asText());
            // query-status shows the same under DM's validation
            awaitQueryStatus(q -> q.path("processedRowsStatus").asText().equals("insert/update/delete: 6/1/1")
                    && q.path("errorRowsStatus").asText().equals("new/ignored/resolved: 1/0/0")
                    && q.path("stage").asText().equals("Running") && q.path("mode").asText().equals("full"));
            String metrics = io.jdm.common.metrics.ProcessMetrics.scrape();
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith("dm_validator_validator_error_count{")
                    && l.contains("task=\"validator-it\"") && l.endsWith(" 1.0")), metrics);

            JsonNode errors = jdm(0, "validation", "show-error", task.toString()).path("error");
            assertEquals(1, errors.size(), errors.toString());
            JsonNode e = errors.get(0);
            assertEquals("`validator_basic`.`t1`", e.path("srcTable").asText());
            assertEquals("`validator_basic`.`t1_down`", e.path("dstTable").asText());
            assertEquals("Column data not matched", e.path("errorType").asText());
            assertEquals("NewErr", e.path("status").asText());
            assertEquals("5", JSON.readTree(e.path("srcData").asText()).get(0).asText());
            assertEquals("'e'", JSON.readTree(e.path("srcData").asText()).get(1).asText());
            assertEquals("'x'", JSON.readTree(e.path("dstData").asText()).get(1).asText());

            jdm(0, "validation", "resolve-error", task.toString(), e.path("id").asText());
            assertEquals("new/ignored/resolved: 0/0/1", status(task).path("errorRowsStatus").asText());
            assertEquals(0, jdm(0, "validation", "show-error", task.toString()).path("error").size(),
                    "a resolved row is no longer unprocessed");
            jdm(1, "validation", "ignore-error", task.toString(), "999");

            jdm(0, "validation", "stop", task.toString());
            awaitStatus(task, s -> s.path("stage").asText().equals("Stopped"));
            Thread.sleep(1500); // the running validator reads its stage every check-interval (1s)
            source.execute("INSERT INTO " + DB + ".t1 (id, name) VALUES (8, 'h')");
            awaitRow(8);
            Thread.sleep(2500); // two validate-intervals: a running validator would have counted it
            assertEquals("insert/update/delete: 6/1/1", status(task).path("processedRowsStatus").asText(),
                    "a stopped validator takes no rows");

            jdm(0, "validation", "start", task.toString());
            Thread.sleep(1500);
            source.execute("INSERT INTO " + DB + ".t1 (id, name) VALUES (9, 'i')");
            awaitStatus(task, s -> s.path("processedRowsStatus").asText().equals("insert/update/delete: 7/1/1")
                    && s.path("pendingRowsStatus").asText().equals("insert/update/delete: 0/0/0"));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        JsonNode after = status(task);
        assertEquals("insert/update/delete: 7/1/1", after.path("processedRowsStatus").asText(), after.toString());
        assertEquals("new/ignored/resolved: 0/0/1", after.path("errorRowsStatus").asText());
        JsonNode tables = jdm(0, "validation", "status", task.toString()).path("tableStatuses");
        assertEquals(1, tables.size(), tables.toString());
        assertEquals("Running", tables.get(0).path("stage").asText());
        jdm(0, "validation", "clear-error", task.toString(), "--all");
        assertEquals(0, jdm(0, "validation", "show-error", "--error", "all", task.toString()).path("error").size());
    }

    /**
     * A row still differing when the task stops is saved with when it began to differ, and the next
     * run compares it again: its change lies before the checkpoint, so the sync does not write it again,
     * and only the saved pending row can make it an error.
     */
    @Test
    void aPendingRowOutlivesARestart() throws Exception {
        fresh();
        Path task = Files.writeString(dir.resolve("restart.yaml"), Files.readString(task()).replace(
                "row-error-delay: 2s", "row-error-delay: 5s"));
        BackgroundTask run = started(task);
        try {
            changeRowFiveBehindTheTasksBack();
            source.execute("INSERT INTO " + DB + ".t1 (id, name) VALUES (5, 'e')");
            awaitStatus(task, s -> s.path("processedRowsStatus").asText().equals("insert/update/delete: 1/0/0"));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        assertEquals(0, jdm(0, "validation", "show-error", task.toString()).path("error").size(),
                "stopped before row-error-delay");
        assertEquals(List.of("validator_basic|t1"), target.rows("SELECT CONCAT(schema_name, '|', table_name) FROM "
                + "jdm_meta_validator.`validator-it_validator_pending`"));

        BackgroundTask again = started(task);
        try {
            JsonNode v = awaitStatus(task, s -> s.path("errorRowsStatus").asText()
                    .equals("new/ignored/resolved: 1/0/0"));
            assertEquals("insert/update/delete: 1/0/0", v.path("processedRowsStatus").asText(),
                    "the counts go on from the last run's");
        } finally {
            again.stop(Duration.ofSeconds(60));
        }
        assertNull(again.failure(), "task failed: " + again.failure());
        JsonNode e = jdm(0, "validation", "show-error", task.toString()).path("error").get(0);
        assertEquals("'x'", JSON.readTree(e.path("dstData").asText()).get(1).asText());
    }

    /**
     * A latin1 row holding the five bytes Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90,
     * 0x9D) replicates as itself and validates without an error row.
     */
    @Test
    void everyLatin1ByteValidates() throws Exception {
        fresh();
        source.execute("CREATE TABLE " + DB + ".l1 (id INT PRIMARY KEY, v VARCHAR(40)) DEFAULT CHARSET = latin1");
        Path task = task();
        BackgroundTask run = started(task);
        try {
            awaitStatus(task, s -> s.path("stage").asText().equals("Running"));
            source.execute("INSERT INTO " + DB + ".l1 VALUES (1, CONVERT(UNHEX('41818D8F909D80E9') USING latin1))");
            JsonNode v = awaitStatus(task, s -> s.path("processedRowsStatus").asText().equals("insert/update/delete: 1/0/0")
                    && s.path("pendingRowsStatus").asText().equals("insert/update/delete: 0/0/0"));
            Thread.sleep(3000); // past row-error-delay: a row compared unequal would be an error row by now
            v = status(task);
            assertEquals("new/ignored/resolved: 0/0/0", v.path("errorRowsStatus").asText(), v.toString());
            assertEquals(source.rows("SELECT HEX(v) FROM " + DB + ".l1"), target.rows("SELECT HEX(v) FROM " + DB + ".l1"));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
    }

    /**
     * More pending rows than max-pending-row-count stop the validator, saying why in its status; the
     * sync goes on.
     */
    @Test
    void tooManyPendingRowsStopTheValidatorNotTheSync() throws Exception {
        fresh();
        Path task = Files.writeString(dir.resolve("bounded.yaml"), Files.readString(task())
                .replace("validate-interval: 1s", "validate-interval: 1m").replace("max-pending-row-count: 1000",
                        "max-pending-row-count: 3"));
        BackgroundTask run = started(task);
        try {
            script("db1.increment.sql");
            JsonNode v = awaitStatus(task, s -> s.path("stage").asText().equals("Stopped"));
            String why = v.path("result").path("errors").path(0).path("message").asText();
            assertTrue(why.startsWith("more pending rows than max-pending-row-count (3)"), v.toString());
            source.execute("INSERT INTO " + DB + ".t1 (id, name) VALUES (8, 'h')");
            awaitRow(8);
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
    }

    /**
     * {@code validation start --start-time}: a change the source logged before that time is not
     * compared, one logged after it is.
     */
    @Test
    void startTimeLeavesOutChangesLoggedBeforeIt() throws Exception {
        fresh();
        Path task = task();
        BackgroundTask run = started(task);
        try {
            awaitStatus(task, s -> s.path("stage").asText().equals("Running"));
            jdm(0, "validation", "stop", task.toString());
            awaitStatus(task, s -> s.path("stage").asText().equals("Stopped"));
            java.time.LocalDateTime at = java.time.LocalDateTime.now().plusSeconds(8).withNano(0);
            // DM's --start-time format, with the seconds (LocalDateTime.toString() leaves them out when they are 0)
            jdm(0, "validation", "start", "--start-time",
                    at.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")), task.toString());
            JsonNode v = awaitStatus(task, s -> s.path("stage").asText().equals("Running"));
            Thread.sleep(1500); // the running validator reads its start time with its stage, every check-interval
            org.junit.jupiter.api.Assumptions.assumeTrue(java.time.LocalDateTime.now().isBefore(at.minusSeconds(2)),
                    "this machine took too long to get here for the test to mean anything");
            String before = v.path("processedRowsStatus").asText();
            source.execute("INSERT INTO " + DB + ".t1 (id, name) VALUES (8, 'h')");
            awaitRow(8);
            while (java.time.LocalDateTime.now().isBefore(at.plusSeconds(1))) {
                Thread.sleep(100);
            }
            source.execute("INSERT INTO " + DB + ".t1 (id, name) VALUES (9, 'i')");
            awaitRow(9);
            String[] n = before.replace("insert/update/delete: ", "").split("/");
            String after = "insert/update/delete: " + (Integer.parseInt(n[0]) + 1) + "/" + n[1] + "/" + n[2];
            awaitStatus(task, s -> s.path("processedRowsStatus").asText().equals(after));
            Thread.sleep(2500); // two validate-intervals: row 8 would have been counted by now
            assertEquals(after, status(task).path("processedRowsStatus").asText(), "only row 9 is compared");
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        jdm(2, "validation", "start", "--start-time", "yesterday", task().toString());
    }

    /** In fast mode only a row's existence is checked: the same changed row is no error. */
    @Test
    void fastModeChecksOnlyThatTheRowExists() throws Exception {
        fresh();
        Path task = Files.writeString(dir.resolve("fast.yaml"), Files.readString(task()).replace("mode: full",
                "mode: fast"));
        BackgroundTask run = started(task);
        try {
            // DM's validation update: a cutover ahead of the sync is shown until the sync passes it
            awaitStatus(task, s -> s.path("stage").asText().equals("Running"));
            assertTrue(Jdm.execute("validation", "update", "--cutover-binlog-pos", "(mysql-bin.000001, 4)",
                    "--cutover-binlog-gtid", "0-1-1", task.toString()) != 0, "one of the two, as DM has it");
            assertTrue(Jdm.execute("validation", "update", "--cutover-binlog-pos", "mysql-bin.000001:4",
                    task.toString()) != 0, "DM's (file, pos) text only");
            String[] at = source.rows("SHOW MASTER STATUS").get(0).split("\\|");
            String cutover = "(" + at[0] + ", " + (Long.parseLong(at[1]) + 1) + ")";
            jdm(0, "validation", "update", "--cutover-binlog-pos", "( " + at[0] + " , " + (Long.parseLong(at[1]) + 1)
                    + " )", task.toString());
            Thread.sleep(1500); // beyond check-interval: still ahead of the sync, so still shown
            assertEquals(cutover, status(task).path("cutoverBinlogPos").asText());
            changeRowFiveBehindTheTasksBack();
            script("db1.increment.sql");
            JsonNode v = awaitStatus(task, s -> s.path("processedRowsStatus").asText()
                    .equals("insert/update/delete: 6/1/1")
                    && s.path("pendingRowsStatus").asText().equals("insert/update/delete: 0/0/0")
                    && s.path("cutoverBinlogPos").asText().isEmpty());
            assertEquals("fast", v.path("mode").asText());
            assertTrue(BinlogPosition.parseDmText(v.path("validatorBinlog").asText())
                    .compareTo(BinlogPosition.parseDmText(cutover)) >= 0, v.toString());
            Thread.sleep(3000); // beyond row-error-delay: a full validator would have recorded row 5 by now
            assertEquals("new/ignored/resolved: 0/0/0", status(task).path("errorRowsStatus").asText());
            assertEquals(List.of("x"), target.rows("SELECT name FROM " + DB + ".t1_down WHERE id = 5"));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
    }

    /** DM's validator_basic database as its prepare file leaves it, and no target copy or meta schema. */
    private static void fresh() throws IOException {
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS jdm_meta_validator");
        script("db1.prepare.sql");
    }

    /** The task running in this process, its sync started. */
    private BackgroundTask started(Path task) throws Exception {
        BackgroundTask run = InProcess.started(task, "validator-it");
        runner = run.runner();
        return run;
    }

    /** A trigger on the target that writes row 5 with another name than the sync gives it. */
    private static void changeRowFiveBehindTheTasksBack() throws Exception {
        target.execute("CREATE TRIGGER " + DB + ".behind_its_back BEFORE INSERT ON " + DB + ".t1_down "
                + "FOR EACH ROW SET NEW.name = IF(NEW.id = 5, 'x', NEW.name)");
    }

    /** DM's dm-task-standalone.yaml shape: the route to t1_down and its validator, with a short row-error-delay. */
    private Path task() throws IOException {
        Path task = TestTasks.allMode(dir, "validator-it", "jdm_meta_validator", source, target, DB);
        String text = Files.readString(task).replace("mysql-instances:\n", String.join("\n",
                "routes:",
                "  t1: {schema-pattern: " + DB + ", table-pattern: t1, target-schema: " + DB
                        + ", target-table: t1_down}",
                "validators:",
                "  global: {mode: full, worker-count: 4, validate-interval: 1s, check-interval: 1s, "
                        + "row-error-delay: 2s, meta-flush-interval: 1s, max-pending-row-size: 500m, "
                        + "max-pending-row-count: 1000}",
                "mysql-instances:", ""));
        return Files.writeString(task, text + "    route-rules: [t1]\n    validator-config-name: global\n");
    }

    /** The validation of query-status of the running task, once {@code until} holds (30 s at most). */
    private void awaitQueryStatus(Predicate<JsonNode> until) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            JsonNode v = JSON.valueToTree(runner.status()).path("sources").path(0).path("subTaskStatus").path(0)
                    .path("validation");
            if (until.test(v)) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "query-status's validation never became as expected: " + v);
            Thread.sleep(200);
        }
    }

    private static void awaitRow(int id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (target.rows("SELECT id FROM " + DB + ".t1_down WHERE id = " + id).isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "row " + id + " never synced");
            Thread.sleep(100);
        }
    }

    /**
     * The first validator of {@code jdm validation status}, once {@code until} holds (30 s at most);
     * before the task's validator has saved its state, status finds none.
     */
    private static JsonNode awaitStatus(Path task, Predicate<JsonNode> until) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            JsonNode out = jdm(-1, "validation", "status", task.toString());
            JsonNode s = out.path("validators").path(0);
            if (until.test(s)) {
                return s;
            }
            assertTrue(System.nanoTime() < deadline, "validation status never became as expected: " + out);
            Thread.sleep(200);
        }
    }

    private static JsonNode status(Path task) throws Exception {
        JsonNode out = jdm(0, "validation", "status", task.toString());
        assertTrue(out.path("result").asBoolean(), out.toString());
        return out.path("validators").get(0);
    }

    /** Runs jdm in this process and reads its JSON output, checking the exit code. */
    private static JsonNode jdm(int exit, String... args) throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            code = Jdm.execute(args);
        } finally {
            System.setOut(old);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        if (exit >= 0) {
            assertEquals(exit, code, String.join(" ", args) + ": " + text);
        }
        return JSON.readTree(text);
    }

    /** Runs one of DM's data files in one session, statement by statement. */
    private static void script(String file) throws IOException {
        List<String> statements = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        try (InputStream in = ValidatorIT.class.getResourceAsStream("/dm-validator-basic/" + file)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String l = line.strip();
                int comment = l.indexOf("--");
                l = comment >= 0 ? l.substring(0, comment).strip() : l;
                if (l.isEmpty()) {
                    continue;
                }
                sb.append(l).append('\n');
                if (l.endsWith(";")) {
                    String s = sb.toString().strip();
                    statements.add(s.substring(0, s.length() - 1));
                    sb.setLength(0);
                }
            }
        }
        source.execute(statements.toArray(String[]::new));
    }
}
