package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.JdmCommandLineTest.Run;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdm verify} of a task whose expression filters keep rows off the target, loaded by
 * {@code jdm dump} and {@code jdm load}: a table chunked by its key, a table without a key, and a
 * shard of a merged table, each with rows its {@code insert-value-expr} rule leaves out (a NULL
 * value keeps its row, as in the dump and the sync). Verify finds every table equal and counts
 * the rows left out; then a kept row changed on the target is reported and its fix SQL repairs only
 * it, while left-out rows changed on the source are not, and a left-out row put on the target is
 * extra.
 */
class VerifyFilterCommandIT {
    private static final String DB = "verify_filter";

    @TempDir
    Path dir;

    @Test
    void rowsTheTasksExpressionFiltersLeaveOutAreCountedNotCompared() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        source.freshDatabase(DB);
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS jdm_meta_vf");
        StringBuilder t = new StringBuilder("INSERT INTO " + DB + ".t VALUES ");
        for (int id = 1; id <= 40; id++) {
            String v = id % 9 == 0 ? "NULL" : Integer.toString(id * 37 % 100);
            t.append(id > 1 ? ", " : "").append('(').append(id).append(", ").append(v).append(", 'r").append(id)
                    .append("')");
        }
        source.execute("CREATE TABLE " + DB + ".t (id INT PRIMARY KEY, v INT, s VARCHAR(20))", t.toString(),
                "CREATE TABLE " + DB + ".nokey (v INT, s VARCHAR(20))",
                "INSERT INTO " + DB + ".nokey VALUES (1, 'keep'), (2, 'skip'), (3, 'keep'), (3, 'skip'), (NULL, NULL)",
                "CREATE TABLE " + DB + ".part_1 (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE " + DB + ".part_2 (id INT PRIMARY KEY, v INT)",
                "INSERT INTO " + DB + ".part_1 VALUES (1, 5), (3, -1), (5, 7), (7, -3)",
                "INSERT INTO " + DB + ".part_2 VALUES (2, -2), (4, 4), (6, -6)");
        Path task = task(source, target);
        for (String unit : new String[] {"dump", "load"}) {
            Run r = JdmCommandLineTest.run(unit, task.toString());
            assertEquals(0, r.code(), unit + ": " + r.out() + r.err());
        }
        long tLeftOut = count(source, "t WHERE v >= 70");
        assertTrue(tLeftOut > 0 && count(source, "t WHERE v IS NULL") > 0, "the data has left-out and NULL rows");
        assertEquals(40 - tLeftOut, count(target, "t"), "the dump left them out");

        Map<String, JsonNode> same = verify(task, null, 0);
        assertEquals(List.of("verify_filter.nokey", "verify_filter.part_1", "verify_filter.t"),
                List.copyOf(same.keySet()));
        same.forEach((table, r) -> assertEquals("MATCH", r.get("result").asText(), table + ": " + r));
        assertEquals(tLeftOut, same.get("verify_filter.t").get("rowsFiltered").asLong());
        assertEquals(40 - tLeftOut, same.get("verify_filter.t").get("rowsSource").asLong());
        assertEquals(2, same.get("verify_filter.nokey").get("rowsFiltered").asLong());
        assertEquals(2, same.get("verify_filter.part_1").get("rowsFiltered").asLong(), "part_1's rule only");
        assertEquals(5, same.get("verify_filter.part_1").get("rowsSource").asLong(), "2 of part_1, 3 of part_2");

        Run text = JdmCommandLineTest.run("verify", "--chunk-rows", "4", task.toString());
        assertEquals(0, text.code(), text.out() + text.err());
        assertTrue(text.out().matches("(?s).*FILTERED\n.*verify_filter\\.t\\s+MATCH\\s+" + (40 - tLeftOut) + "\\s.*\\s"
                + tLeftOut + "\n.*"), text.out());
        // one report for t and nokey, one for the merged table
        assertTrue(text.out().contains("(and " + (tLeftOut + 2) + " filtered out by the task's expression filters)")
                && text.out().contains("(and 2 filtered out by the task's expression filters)"), text.out());

        String kept = source.rows("SELECT MIN(id) FROM " + DB + ".t WHERE v < 70").get(0);
        String leftOut = source.rows("SELECT MIN(id) FROM " + DB + ".t WHERE v >= 70").get(0);
        target.execute("UPDATE " + DB + ".t SET s = 'changed' WHERE id = " + kept,
                "INSERT INTO " + DB + ".part VALUES (3, -1)"); // a row part_1's rule leaves out
        source.execute("UPDATE " + DB + ".t SET s = 'changed' WHERE id = " + leftOut,
                "UPDATE " + DB + ".nokey SET v = 4 WHERE s = 'skip' AND v = 2",
                "UPDATE " + DB + ".part_1 SET v = -4 WHERE id = 7");
        Path fix = dir.resolve("fix");
        Map<String, JsonNode> diff = verify(task, fix, 1);
        assertEquals(List.of("CHANGED id=" + kept + " s: 'r" + kept + "' -> 'changed'"),
                diffs(diff.get("verify_filter.t")));
        assertEquals(List.of("EXTRA id=3"), diffs(diff.get("verify_filter.part_1")));
        assertEquals("MATCH", diff.get("verify_filter.nokey").get("result").asText());
        String tFix = Files.readString(fix.resolve(DB + ".t.fix.sql"));
        List<String> statements = tFix.lines().filter(l -> !l.isBlank() && !l.startsWith("--")
                && !l.startsWith("/*") && !l.startsWith("SET ")).toList();
        assertEquals(1, statements.size(), tFix);
        assertTrue(statements.get(0).startsWith("REPLACE INTO `" + DB + "`.`t`")
                && statements.get(0).contains("(" + kept + ","), tFix);
        assertFalse(tFix.contains("(" + leftOut + ","), "a left-out row is not put back: " + tFix);
    }

    private static long count(SqlServer s, String from) throws Exception {
        return Long.parseLong(s.rows("SELECT COUNT(*) FROM " + DB + "." + from).get(0));
    }

    /** jdm verify --json of the task (exit {@code code}): each compared table's result, by its first source table. */
    private static Map<String, JsonNode> verify(Path task, Path fixDir, int code) throws Exception {
        List<String> args = new ArrayList<>(List.of("verify", "--json", "--chunk-rows", "4"));
        if (fixDir != null) {
            args.addAll(List.of("--fix-sql", fixDir.toString()));
        }
        args.add(task.toString());
        Run r = JdmCommandLineTest.run(args.toArray(String[]::new));
        assertEquals(code, r.code(), r.out() + r.err());
        Map<String, JsonNode> tables = new TreeMap<>();
        try (MappingIterator<JsonNode> reports = new ObjectMapper().readerFor(JsonNode.class).readValues(r.out())) {
            while (reports.hasNext()) {
                reports.next().get("tables").forEach(t -> assertNull(tables.put(t.get("source").asText(), t), r.out()));
            }
        }
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

    /** Full mode; part_1 and part_2 merge into part; a rule per table, none for part_2. */
    private Path task(SqlServer source, SqlServer target) throws java.io.IOException {
        return Files.writeString(dir.resolve("task.yaml"), String.join("\n",
                "name: verify-filter",
                "task-mode: full",
                "meta-schema: jdm_meta_vf",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [\"" + DB + "\"]}}",
                "routes:",
                "  parts: {schema-pattern: " + DB + ", table-pattern: \"part_*\", target-schema: " + DB
                        + ", target-table: part}",
                "expression-filter:",
                "  t_big: {schema: " + DB + ", table: t, insert-value-expr: \"v >= 70\"}",
                "  nokey_skip: {schema: " + DB + ", table: nokey, insert-value-expr: \"s = 'skip'\"}",
                "  part_negative: {schema: " + DB + ", table: part_1, insert-value-expr: \"v < 0\"}",
                "mydumpers: {global: {threads: 2, rows: 4, dir: \"" + dir.resolve("dump") + "\"}}",
                "loaders: {global: {pool-size: 2}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    route-rules: [parts]",
                "    expression-filters: [t_big, nokey_skip, part_negative]",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
    }
}
