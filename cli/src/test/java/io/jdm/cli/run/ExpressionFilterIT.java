package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.jdm.cli.TestTasks;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.SyncUnit;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DM's expression_filter case through {@code jdm run} (dump, load, sync): DM's rules (its
 * dm-task.yaml and dm-task2.yaml) and its data files, run twice each: rows there before the task
 * starts go through the dump (which keeps only the rows the sync would insert), and the same
 * statements run again while it syncs. The target holds, as hex, the source's rows less the filtered
 * ones; UPDATEs filtered by their old and new values leave the target's row as it was.
 */
class ExpressionFilterIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DB = "expr_filter";
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

    /** DM's run(): one rule per column type of t1, each filtering the rows whose should_skip is 1. */
    @Test
    void everyColumnTypesRuleFiltersItsRowsInTheDumpAndInTheSync() throws Exception {
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS jdm_exprfilter");
        script("db1.prepare.sql");
        script("db1.increment.sql"); // rows the dump reads
        BackgroundTask run = start("dm-task.yaml", "exprfilter-types", "");
        try {
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            assertEquals(60, source.rows("SELECT id FROM " + DB + ".t1").size());
            // the timestamp rule's literal has a UTC offset (+08:00), which MariaDB and MySQL 5.7 do not
            // read; the dump's WHERE gives it as its UTC time, so every server leaves out the rows the sync does
            assertEquals(kept("t1", "should_skip = 0"), target.hexRows(DB, "t1"), "dumped and loaded");
            assertEquals(30, target.hexRows(DB, "t1").size());

            source.execute("ALTER TABLE " + DB + ".t1 DROP COLUMN dummy"); // the script adds it again
            script("db1.increment.sql"); // the same rows again, now read from the binlog
            awaitCaughtUp(sync);
            assertEquals(120, source.rows("SELECT id FROM " + DB + ".t1").size());
            assertEquals(kept("t1", "should_skip = 0"), target.hexRows(DB, "t1"), "synced");
            assertEquals(60, target.hexRows(DB, "t1").size());
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertTrue(run.failure() == null, "runner failed: " + run.failure());
    }

    /**
     * DM's complex_behaviour(): a rule that loses its column with a DDL filters nothing until the
     * column is back (as a generated one); UPDATE rules on old and new values; a latin1 table; and a
     * row of t8 that an UPDATE rule filters, then lets through, then filters again.
     */
    @Test
    void updateRulesAndSchemaChangesAsDmsComplexCase() throws Exception {
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS jdm_exprfilter");
        script("db1.prepare2.sql");
        source.execute("CREATE TABLE " + DB + ".t8 (id INT PRIMARY KEY, c INT)",
                "INSERT INTO " + DB + ".t8 VALUES (1, 50), (2, 500)");
        String t8Rule = "  over_100: {schema: expr_filter, table: t8, update-new-value-expr: \"c > 100\"}\n";
        BackgroundTask run = start("dm-task2.yaml", "exprfilter-complex", t8Rule);
        try {
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            script("db1.increment2.sql");
            source.execute("UPDATE " + DB + ".t8 SET c = 150 WHERE id = 1", // filtered: the target keeps 50
                    "UPDATE " + DB + ".t8 SET c = 60 WHERE id = 1", // not filtered
                    "UPDATE " + DB + ".t8 SET c = 200 WHERE id = 1", // filtered again: the target keeps 60
                    "DELETE FROM " + DB + ".t8 WHERE id = 2");
            awaitCaughtUp(sync);

            assertEquals(kept("t2", "should_skip = 0"), target.hexRows(DB, "t2"));
            assertEquals(List.of(1, 3, 5, 6, 8, 10), ids("t2"));
            assertEquals(kept("t3", "should_skip = 0"), target.hexRows(DB, "t3"));
            assertEquals(kept("t4", "should_skip = 0"), target.hexRows(DB, "t4"));
            assertEquals(kept("t6", "id < 2"), target.hexRows(DB, "t6"));
            assertEquals(List.of("1|0|99", "2|0|101", "3|0|1", "4|0|3"),
                    target.rows("SELECT id, should_skip, c FROM " + DB + ".t5 ORDER BY id"));
            assertEquals(List.of("1|1|110", "2|1|20", "3|1|2", "4|0|3"),
                    source.rows("SELECT id, should_skip, c FROM " + DB + ".t5 ORDER BY id"));
            assertEquals(List.of("1|a|2"), target.rows("SELECT a, r, s FROM " + DB + ".t7"));
            assertEquals(List.of("1|60"), target.rows("SELECT id, c FROM " + DB + ".t8"));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertTrue(run.failure() == null, "runner failed: " + run.failure());
    }

    /** The task of TestTasks with DM's expression-filter rules and the instance's list of them. */
    private BackgroundTask start(String dmTask, String name, String extraRule) throws Exception {
        Path task = TestTasks.allMode(dir, name, "jdm_exprfilter", source, target, DB);
        JsonNode dm = new YAMLMapper().readTree(resource("/dm-expression-filter/" + dmTask));
        List<String> names = new ArrayList<>();
        dm.path("mysql-instances").path(0).path("expression-filters").forEach(n -> names.add(n.asText()));
        StringBuilder rules = new StringBuilder("expression-filter:\n");
        dm.path("expression-filter").fields().forEachRemaining(e -> rules.append("  ").append(e.getKey()).append(": ")
                .append(e.getValue().toString()).append('\n'));
        rules.append(extraRule);
        if (!extraRule.isEmpty()) {
            names.add(extraRule.strip().substring(0, extraRule.strip().indexOf(':')));
        }
        Files.writeString(task, Files.readString(task) + "    expression-filters: " + JSON.writeValueAsString(names)
                + "\n" + rules);
        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(task), TaskRunner.Stages.FROM_TASK_MODE);
        return BackgroundTask.start(runner, name);
    }

    /** The source's rows that the rules keep, as {@link SqlServer#hexRows} gives rows: every column as hex. */
    private static List<String> kept(String table, String where) throws Exception {
        List<String> cols = source.rows("SELECT CONCAT('COALESCE(HEX(`', COLUMN_NAME, '`), ''NULL'')') FROM "
                + "information_schema.COLUMNS WHERE TABLE_SCHEMA = '" + DB + "' AND TABLE_NAME = '" + table
                + "' ORDER BY ORDINAL_POSITION");
        return source.rows("SELECT CONCAT(" + String.join(", '|', ", cols) + ") AS r FROM " + DB + "." + table
                + " WHERE " + where + " ORDER BY r");
    }

    private static List<Integer> ids(String table) throws Exception {
        return target.rows("SELECT id FROM " + DB + "." + table + " ORDER BY id").stream().map(Integer::valueOf)
                .toList();
    }

    private static void awaitCaughtUp(SyncUnit sync) throws Exception {
        BinlogPosition end;
        try (Connection c = DataSources.connect(ConnectionSpec.of(source.host(), source.port(), "root", ""))) {
            end = Flavor.detect(c).currentPosition(c);
        }
        assertTrue(sync.awaitCaughtUp(end, Duration.ofMinutes(1)), "not caught up: " + sync.failure());
    }

    /** Runs one of DM's data files in one session, statement by statement. */
    private static void script(String file) throws IOException {
        List<String> statements = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (String line : resource("/dm-expression-filter/" + file).split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("--")) {
                continue;
            }
            int comment = l.indexOf(" -- ");
            sb.append(comment >= 0 ? l.substring(0, comment) : l).append('\n');
            if (sb.toString().strip().endsWith(";")) {
                String s = sb.toString().strip();
                statements.add(s.substring(0, s.length() - 1));
                sb.setLength(0);
            }
        }
        if (!sb.toString().isBlank()) {
            statements.add(sb.toString().strip());
        }
        source.execute(statements.toArray(String[]::new));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ExpressionFilterIT.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
