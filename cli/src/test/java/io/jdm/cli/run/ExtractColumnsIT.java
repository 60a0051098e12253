package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.Jdm;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * DM's extend_column case through a whole task (dump, load, then sync): routes with
 * extract-table, extract-schema and extract-source merge shards whose primary keys collide
 * (extend_column1.t1 on one source and extend_column2.t2 on another, both holding c1 = 1 and 2, into
 * extend_column.t; y1 and y2 of one source, with a generated column, into extend_column.y), the
 * target tables created by the user with the extra columns in their primary keys. After the load,
 * after inserts, and after an update that moves a key and deletes, every target row is its shard's
 * row (values as hex) with the values DM gives the extra columns. Run with both load paths: LOAD
 * DATA (on-duplicate error) and statements (on-duplicate ignore). Then jdm verify compares each
 * shard with its rows of the merged table, finds rows changed behind the task, and fixes them. The
 * validator compares each shard's changed rows with its own rows of the merged table.
 */
class ExtractColumnsIT {
    private static SqlServer source1;
    private static SqlServer source2;
    private static SqlServer target;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        source1 = TestServers.shared().source();
        target = TestServers.shared().target();
        source2 = TestServers.secondSource();
    }

    @ParameterizedTest
    @ValueSource(strings = {"error", "ignore"})
    void shardsWithCollidingKeysMergeWithTheirExtractedNames(String onDuplicate) throws Exception {
        source1.freshDatabase("extend_column1");
        source2.freshDatabase("extend_column2");
        target.freshDatabase("extend_column");
        target.execute("DROP DATABASE IF EXISTS jdm_meta_extract");
        source1.execute("CREATE TABLE extend_column1.t1 (c1 INT, c2 INT, c3 INT, PRIMARY KEY (c1))",
                "INSERT INTO extend_column1.t1 VALUES (1, 1, 1), (2, 2, 2)",
                "CREATE TABLE extend_column1.y1 (c1 INT, c2 INT, c3 INT, gc3 INT AS (c1 + 1) VIRTUAL, PRIMARY KEY (c1))",
                "INSERT INTO extend_column1.y1 (c1, c2, c3) VALUES (1, 1, 1), (2, 2, 2)",
                "CREATE TABLE extend_column1.y2 (c1 INT, c2 INT, c3 INT, gc3 INT AS (c1 + 1) VIRTUAL, PRIMARY KEY (c1))",
                "INSERT INTO extend_column1.y2 (c1, c2, c3) VALUES (1, 1, 1), (2, 2, 2)");
        source2.execute("CREATE TABLE extend_column2.t2 (c1 INT, c2 INT, c3 INT, PRIMARY KEY (c1))",
                "INSERT INTO extend_column2.t2 VALUES (1, 1, 1), (2, 2, 2)");
        target.execute("CREATE TABLE extend_column.t (c1 INT, c2 INT, c3 INT, c_table VARCHAR(64), "
                        + "c_schema VARCHAR(64), c_source VARCHAR(64), PRIMARY KEY (c1, c_table, c_schema, c_source))",
                "CREATE TABLE extend_column.y (c1 INT, c2 INT, c3 INT, gc3 INT AS (c1 + 1) VIRTUAL, "
                        + "c_table VARCHAR(64), PRIMARY KEY (c1, c_table))");

        Path taskFile = taskFile(onDuplicate);
        TaskConfig task = new TaskConfigLoader().load(taskFile);
        BackgroundTask run = BackgroundTask.start(new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE), "extract-it");
        try {
            assertTrue(run.awaitSync(Duration.ofMinutes(2)) != null, "sync never started: " + run.failure());
            awaitMerged(run);
            assertEquals(4, target.rows("SELECT * FROM extend_column.t").size());

            source1.execute("INSERT INTO extend_column1.t1 VALUES (3, 3, 3)",
                    "INSERT INTO extend_column1.y1 (c1, c2, c3) VALUES (3, 3, 3)",
                    "INSERT INTO extend_column1.y2 (c1, c2, c3) VALUES (3, 3, 3)");
            source2.execute("INSERT INTO extend_column2.t2 VALUES (3, 3, 3)");
            awaitMerged(run);

            source1.execute("UPDATE extend_column1.y2 SET c1 = 4 WHERE c1 = 3",
                    "UPDATE extend_column1.t1 SET c2 = 30 WHERE c1 = 3");
            source2.execute("UPDATE extend_column2.t2 SET c1 = 4 WHERE c1 = 3");
            awaitMerged(run);

            source1.execute("DELETE FROM extend_column1.y2 WHERE c1 = 4");
            source2.execute("DELETE FROM extend_column2.t2 WHERE c1 > 1");
            awaitMerged(run);
            assertEquals(List.of("1|1|1|1|extend_column1|replica01", "1|1|1|2|extend_column2|replica02",
                    "2|2|2|1|extend_column1|replica01", "3|30|3|1|extend_column1|replica01"),
                    target.rows("SELECT * FROM extend_column.t ORDER BY c1, c_table"));
            validatorFindsEachShardsRow(run, taskFile);
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        verifyComparesEachShardWithItsRows(taskFile);
    }

    /**
     * The validator looks a shard's row up by its extracted values as well as by its key: with the
     * first shard's row of key 1 changed on the target behind the task's back, a change of the second
     * shard's row of that key is compared with the second shard's row only, and nothing is pending.
     */
    private static void validatorFindsEachShardsRow(BackgroundTask run, Path taskFile) throws Exception {
        awaitValidation(taskFile, v -> v.path("pendingRowsStatus").asText().equals("insert/update/delete: 0/0/0"));
        String before = validators(taskFile).get("mysql-replica-02").path("processedRowsStatus").asText();
        target.execute("UPDATE extend_column.t SET c3 = 99 WHERE c1 = 1 AND c_table = '1'");
        source2.execute("UPDATE extend_column2.t2 SET c3 = 5 WHERE c1 = 1");
        awaitValidation(taskFile, v -> v.path("pendingRowsStatus").asText().equals("insert/update/delete: 0/0/0")
                && !validators(taskFile).get("mysql-replica-02").path("processedRowsStatus").asText().equals(before));
        Thread.sleep(2500); // two validate-intervals: a row compared with the other shard's would be pending now
        for (JsonNode v : validators(taskFile).values()) {
            assertEquals("insert/update/delete: 0/0/0", v.path("pendingRowsStatus").asText(), v.toString());
            assertEquals("new/ignored/resolved: 0/0/0", v.path("errorRowsStatus").asText(), v.toString());
        }
        // as it was, for verify
        target.execute("UPDATE extend_column.t SET c3 = 1 WHERE c1 = 1 AND c_table = '1'");
        source2.execute("UPDATE extend_column2.t2 SET c3 = 1 WHERE c1 = 1");
        awaitMerged(run);
    }

    /** Waits until {@code until} holds of each source's validator (60 s at most). */
    private static void awaitValidation(Path taskFile, java.util.function.Predicate<JsonNode> until)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Map<String, JsonNode> v = Map.of();
        while (System.nanoTime() < deadline) {
            v = validators(taskFile);
            if (v.size() == 2 && v.values().stream().allMatch(until)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("validation never became as expected: " + v);
    }

    /** {@code jdm validation status}'s validators by source id. */
    private static Map<String, JsonNode> validators(Path taskFile) {
        Map<String, JsonNode> by = new TreeMap<>();
        InProcess.json("validation", "status", taskFile.toString()).path("validators")
                .forEach(v -> by.put(v.path("source").asText(), v));
        return by;
    }

    /**
     * jdm verify compares each shard with the target's rows that hold its extracted values (the
     * keys collide across shards, so a merged comparison would see collisions); then a changed row
     * of extend_column2.t2, a deleted row of y1 and a row added to y2's part of the target (whose key
     * y1 also holds there) are exactly what it reports, and its fix SQL puts them back.
     */
    private void verifyComparesEachShardWithItsRows(Path taskFile) throws Exception {
        Map<String, JsonNode> clean = verify(taskFile, null);
        assertEquals(Set.of("extend_column1.t1", "extend_column2.t2", "extend_column1.y1", "extend_column1.y2"),
                clean.keySet());
        clean.forEach((source, t) -> assertEquals("MATCH", t.get("result").asText(), source + ": " + t));
        assertEquals(3, clean.get("extend_column1.t1").get("rowsTarget").asLong(), "its rows only");

        target.execute("UPDATE extend_column.t SET c3 = 99 WHERE c1 = 1 AND c_table = '2'",
                "DELETE FROM extend_column.y WHERE c1 = 2 AND c_table = '1'",
                "INSERT INTO extend_column.y (c1, c2, c3, c_table) VALUES (3, 3, 3, '2')");
        Path fix = dir.resolve("fix");
        Map<String, JsonNode> diff = verify(taskFile, fix);
        assertEquals(List.of(), diffs(diff.get("extend_column1.t1")));
        assertEquals(List.of("CHANGED c1=1 c3: 1 -> 99"), diffs(diff.get("extend_column2.t2")));
        assertEquals(List.of("MISSING c1=2"), diffs(diff.get("extend_column1.y1")));
        assertEquals(List.of("EXTRA c1=3"), diffs(diff.get("extend_column1.y2")));

        String t2 = Files.readString(fix.resolve(
                "extend_column.t.c_table=2.c_schema=extend_column2.c_source=replica02.fix.sql"));
        assertTrue(t2.contains("REPLACE INTO `extend_column`.`t` (`c1`,`c2`,`c3`,`c_table`,`c_schema`,`c_source`) "
                + "VALUES (1,1,1,_utf8mb4 X'32',_utf8mb4 X'657874656e645f636f6c756d6e32',"
                + "_utf8mb4 X'7265706c6963613032');"), t2);
        String y2 = Files.readString(fix.resolve("extend_column.y.c_table=2.fix.sql"));
        assertTrue(y2.contains("DELETE FROM `extend_column`.`y` WHERE `c1` = 3 AND `c_table` = _utf8mb4 X'32';"), y2);
        applyFix(fix);
        verify(taskFile, null).forEach((source, t) -> assertEquals("MATCH", t.get("result").asText(),
                source + " after the fix: " + t));
        List<String> t = new ArrayList<>(target.rows("SELECT HEX(c1), HEX(c2), HEX(c3), HEX(c_table), HEX(c_schema), "
                + "HEX(c_source) FROM extend_column.t"));
        List<String> y = new ArrayList<>(target.rows("SELECT HEX(c1), HEX(c2), HEX(c3), HEX(gc3), HEX(c_table) "
                + "FROM extend_column.y"));
        Collections.sort(t);
        Collections.sort(y);
        assertEquals(expectedT(), t, "extend_column.t after the fix");
        assertEquals(expectedY(), y, "extend_column.y after the fix");
    }

    /** jdm verify --json of the task: each compared source table's result, by its name. */
    private static Map<String, JsonNode> verify(Path taskFile, Path fixDir) throws Exception {
        List<String> args = new ArrayList<>(List.of("verify", "--json", "--chunk-rows", "2"));
        if (fixDir != null) {
            args.addAll(List.of("--fix-sql", fixDir.toString()));
        }
        args.add(taskFile.toString());
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            code = Jdm.execute(args.toArray(String[]::new));
        } finally {
            System.setOut(old);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        Map<String, JsonNode> tables = new TreeMap<>();
        boolean same = true;
        try (MappingIterator<JsonNode> reports = new ObjectMapper().readerFor(JsonNode.class).readValues(text)) {
            while (reports.hasNext()) {
                JsonNode r = reports.next();
                same &= r.get("matches").asBoolean();
                r.get("tables").forEach(t -> assertNull(tables.put(t.get("source").asText(), t), text));
            }
        }
        assertEquals(same ? 0 : 1, code, text);
        return tables;
    }

    /** {@code KIND key} per differing row, with {@code column: source -> target} for a changed one. */
    private static List<String> diffs(JsonNode table) {
        List<String> out = new ArrayList<>();
        table.get("rows").forEach(r -> {
            StringBuilder sb = new StringBuilder(r.get("kind").asText()).append(' ').append(r.get("key").asText());
            r.get("columns").forEach(c -> sb.append(' ').append(c.get("column").asText()).append(": ")
                    .append(c.get("source").asText()).append(" -> ").append(c.get("target").asText()));
            out.add(sb.toString());
        });
        return out;
    }

    /** Runs every statement of the fix files (one a line) on the target. */
    private static void applyFix(Path fixDir) throws Exception {
        List<String> statements = new ArrayList<>();
        try (Stream<Path> files = Files.list(fixDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".fix.sql")).sorted().toList()) {
                Files.readAllLines(f, StandardCharsets.UTF_8).stream()
                        .filter(l -> !l.isBlank() && !l.startsWith("--")).forEach(statements::add);
            }
        }
        target.execute(statements.toArray(String[]::new));
    }

    /** Every shard's rows with DM's values for the extra columns, as hex. */
    private static List<String> expectedT() throws Exception {
        List<String> rows = new ArrayList<>(source1.rows("SELECT HEX(c1), HEX(c2), HEX(c3), HEX('1'), "
                + "HEX('extend_column1'), HEX('replica01') FROM extend_column1.t1"));
        rows.addAll(source2.rows("SELECT HEX(c1), HEX(c2), HEX(c3), HEX('2'), HEX('extend_column2'), "
                + "HEX('replica02') FROM extend_column2.t2"));
        Collections.sort(rows);
        return rows;
    }

    private static List<String> expectedY() throws Exception {
        List<String> rows = new ArrayList<>(source1.rows("SELECT HEX(c1), HEX(c2), HEX(c3), HEX(gc3), HEX('1') "
                + "FROM extend_column1.y1"));
        rows.addAll(source1.rows("SELECT HEX(c1), HEX(c2), HEX(c3), HEX(gc3), HEX('2') FROM extend_column1.y2"));
        Collections.sort(rows);
        return rows;
    }

    private static void awaitMerged(BackgroundTask run) throws Exception {
        List<String> wantT = expectedT();
        List<String> wantY = expectedY();
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        List<String> t = List.of();
        List<String> y = List.of();
        while (System.nanoTime() < deadline && run.failure() == null) {
            t = new ArrayList<>(target.rows("SELECT HEX(c1), HEX(c2), HEX(c3), HEX(c_table), HEX(c_schema), "
                    + "HEX(c_source) FROM extend_column.t"));
            y = new ArrayList<>(target.rows("SELECT HEX(c1), HEX(c2), HEX(c3), HEX(gc3), HEX(c_table) "
                    + "FROM extend_column.y"));
            Collections.sort(t);
            Collections.sort(y);
            if (t.equals(wantT) && y.equals(wantY)) {
                return;
            }
            Thread.sleep(200);
        }
        assertNull(run.failure(), "task failed");
        assertFalse(wantT.isEmpty());
        assertEquals(wantT, t, "extend_column.t is not its shards' rows with their extracted names");
        assertEquals(wantY, y, "extend_column.y is not its shards' rows with their extracted names");
    }

    /** DM's extend_column routes: source 1 merges t* and y*, source 2 only t*. */
    private Path taskFile(String onDuplicate) throws Exception {
        String t = "{schema-pattern: \"extend_column*\", target-schema: extend_column, table-pattern: \"t*\", "
                + "target-table: t, extract-table: {table-regexp: \"t(.*)\", target-column: c_table}, "
                + "extract-schema: {schema-regexp: \"(.*)\", target-column: c_schema}, "
                + "extract-source: {source-regexp: \"mysql-(.*)-([0-9]+)\", target-column: c_source}}";
        String y = "{schema-pattern: \"extend_column*\", target-schema: extend_column, table-pattern: \"y*\", "
                + "target-table: y, extract-table: {table-regexp: \"y([0-9a-zA-Z]+)\", target-column: c_table}}";
        return Files.writeString(dir.resolve("task.yaml"), String.join("\n",
                "name: extract-it",
                "task-mode: all",
                "meta-schema: jdm_meta_extract",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {instance: {do-dbs: [\"extend_column*\"]}}",
                "routes:",
                "  extend-column-table-rules: " + y,
                "  extend-column-table-source-schema-rules: " + t,
                "mydumpers: {global: {threads: 2, dir: \"" + dir.resolve("dump") + "\"}}",
                "loaders: {global: {pool-size: 4, on-duplicate: " + onDuplicate + "}}",
                "syncers: {global: {worker-count: 4, batch: 100, checkpoint-flush-interval: 1}}",
                // a difference stays pending, never an error, while the task runs
                "validators: {global: {mode: full, worker-count: 2, validate-interval: 1s, check-interval: 1s, "
                        + "row-error-delay: 30m, meta-flush-interval: 1s}}",
                "mysql-instances:",
                "  - source-id: mysql-replica-01",
                "    block-allow-list: instance",
                "    route-rules: [extend-column-table-rules, extend-column-table-source-schema-rules]",
                "    validator-config-name: global",
                "    from: {host: 127.0.0.1, port: " + source1.port() + ", user: root, password: \"\"}",
                "  - source-id: mysql-replica-02",
                "    block-allow-list: instance",
                "    route-rules: [extend-column-table-source-schema-rules]",
                "    validator-config-name: global",
                "    from: {host: 127.0.0.1, port: " + source2.port() + ", user: root, password: \"\"}",
                ""));
    }
}
