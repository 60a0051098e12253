package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DM's validator_checkpoint case, first part, with its own task file and data: two sources, each
 * with its validator, whose saved state is kept apart by source and outlives a restart of the task.
 *
 * <p>DM makes its sync skip some rows with a failpoint (SkipDML); here triggers on the target write
 * those rows under another key as the sync inserts them, so that the target lacks them as DM's does.
 * With DM's row-error-delay of 30 minutes they stay pending: source 1 has inserted 3 rows and updated
 * 1 of t1_1 (two of them pending: an insert and an update), source 2 inserted 1 row of t2_1 (pending);
 * the tables without a key are listed, not validated. After a restart the counts are the saved ones;
 * once the missing rows are written on the target, nothing is pending. DM's second part (a save that
 * fails halfway, through another failpoint) has no counterpart here.
 */
class ValidatorCheckpointIT {
    private static final String DB = "validator_checkpoint";
    private static final String META = "jdm_meta_vcp";
    private static final String CASE = "dm-validator-checkpoint";
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

    @Test
    void eachSourcesPendingRowsAreSavedApartAndOutliveARestart() throws Exception {
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS " + META);
        source1.execute(InProcess.dmStatements(CASE, "db1.prepare.sql"));
        source2.execute(InProcess.dmStatements(CASE, "db2.prepare.sql"));
        Path task = task();

        BackgroundTask run = InProcess.started(task, "validator-cp-it");
        try {
            // DM's SkipDML: the target gets rows 1 to 4 of t1_1 and t2_1 under other keys
            target.execute(skipBelowFive("t1_1"), skipBelowFive("t2_1"));
            source1.execute("insert into " + DB + ".t1_1 values(1, 1)", "insert into " + DB + ".t1_1 values(2, 2)",
                    "insert into " + DB + ".t1_1 values(6, 6)", "update " + DB + ".t1_1 set value=22 where id=2",
                    "insert into " + DB + ".t1_2 values(6)", "insert into " + DB + ".t1_3 values(6)");
            source2.execute("insert into " + DB + ".t2_1 values(1)", "insert into " + DB + ".t2_2 values(6)");
            awaitStatus(task, pending("1/1/0", "1/0/0"));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        assertEquals(Map.of("mysql-replica-01", "2", "mysql-replica-02", "1"),
                bySource("SELECT source, COUNT(*) FROM " + META + ".test_validator_pending GROUP BY source"));
        assertEquals(Map.of("mysql-replica-01", "3", "mysql-replica-02", "2"),
                bySource("SELECT source, COUNT(*) FROM " + META + ".test_validator_table GROUP BY source"),
                "every table of each source has its status, the ones without a key too");
        assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM " + META + ".test_validator_error"));

        // a restart reads back what was saved
        run = InProcess.started(task, "validator-cp-it");
        try {
            awaitStatus(task, pending("1/1/0", "1/0/0"));
            // the rows DM's failpoint skipped, written by hand
            target.execute("DROP TRIGGER " + DB + ".skip_t1_1", "DROP TRIGGER " + DB + ".skip_t2_1",
                    "insert into " + DB + ".t1_1 values(1, 1)", "insert into " + DB + ".t1_1 values(2, 22)",
                    "insert into " + DB + ".t2_1 values(1)");
            awaitStatus(task, pending("0/0/0", "0/0/0"));
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM " + META + ".test_validator_pending"));
        assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM " + META + ".test_validator_error"));
    }

    /**
     * Both validators with DM's processed counts, no error row, and these pending counts (source 1's,
     * source 2's).
     */
    private static Predicate<JsonNode> pending(String first, String second) {
        return validators -> {
            Map<String, JsonNode> by = new TreeMap<>();
            validators.forEach(v -> by.put(v.path("source").asText(), v));
            JsonNode one = by.get("mysql-replica-01");
            JsonNode two = by.get("mysql-replica-02");
            return one != null && two != null
                    && one.path("processedRowsStatus").asText().equals("insert/update/delete: 3/1/0")
                    && two.path("processedRowsStatus").asText().equals("insert/update/delete: 1/0/0")
                    && one.path("pendingRowsStatus").asText().equals("insert/update/delete: " + first)
                    && two.path("pendingRowsStatus").asText().equals("insert/update/delete: " + second)
                    && one.path("errorRowsStatus").asText().equals("new/ignored/resolved: 0/0/0")
                    && two.path("errorRowsStatus").asText().equals("new/ignored/resolved: 0/0/0");
        };
    }

    private static String skipBelowFive(String table) {
        return "CREATE TRIGGER " + DB + ".skip_" + table + " BEFORE INSERT ON " + DB + "." + table
                + " FOR EACH ROW SET NEW.id = IF(NEW.id < 5, NEW.id + 1000, NEW.id)";
    }

    private static Map<String, String> bySource(String sql) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (String row : target.rows(sql)) {
            String[] f = row.split("\\|");
            out.put(f[0], f[1]);
        }
        return out;
    }


    /**
     * DM's dm-task.yaml as it is, given this test's servers: the target's port, each source's
     * connection (DM takes them from its source files), a meta schema of its own and where to dump.
     */
    private Path task() throws IOException {
        String dm = InProcess.dmFile(CASE, "dm-task.yaml");
        String text = dm.replace("port: 4000", "port: " + target.port())
                .replace("task-mode: all\n", "task-mode: all\nmeta-schema: " + META + "\n"
                        + "mydumpers: {global: {dir: \"" + dir.resolve("dump") + "\"}}\n")
                .replace("    validator-config-name: global\n  - source-id: \"mysql-replica-02\"",
                        "    validator-config-name: global\n    mydumper-config-name: global\n"
                                + "    from: {host: 127.0.0.1, port: " + source1.port() + ", user: root, password: \"\"}\n"
                                + "  - source-id: \"mysql-replica-02\"")
                .replace("    validator-config-name: global\n\nblock-allow-list",
                        "    validator-config-name: global\n    mydumper-config-name: global\n"
                                + "    from: {host: 127.0.0.1, port: " + source2.port() + ", user: root, password: \"\"}\n"
                                + "\nblock-allow-list");
        assertTrue(text.contains("port: " + source2.port()), text);
        return Files.writeString(dir.resolve("dm-task.yaml"), text);
    }

    /** {@code jdm validation status}'s validators, once {@code until} holds of them (60 s at most). */
    private static void awaitStatus(Path task, Predicate<JsonNode> until) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            JsonNode out = InProcess.json("validation", "status", task.toString());
            if (until.test(out.path("validators"))) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "validation status never became as expected: " + out);
            Thread.sleep(200);
        }
    }



}
