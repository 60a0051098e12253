package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DM's sequence_safe_mode case with its own task file and data: four shards on two sources (t1, t2
 * of the first, t2, t3 of the second) merged into one table whose key DM's test extends with the
 * shard's table and source (extract-table, extract-source), in shard-mode pessimistic (DM's
 * {@code is-sharding: true}). The shards add columns and indexes one after another: a shard that ran
 * a group DDL before the others keeps its rows in a spool until the last shard runs it, and the rows
 * it drains into the merged table must carry the shard's names like every other row.
 *
 * <p>DM's test stops its workers with failpoints at two moments of the group DDL; here the task is
 * stopped while the first source's shards wait with spooled rows for the second's, and started again
 * before the second source's shards run the DDL. The merged table is compared with the four shards
 * row by row, each column as hex, the extract columns included (DM's own check leaves them out).
 */
class SequenceSafeModeIT {
    private static final String SRC = "sequence_safe_mode_test";
    private static final String DST = "sequence_safe_mode_target";
    private static final String META = "jdm_meta_ssm";
    private static final String CASE = "dm-sequence-safe-mode";
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
    void shardsMergedWithTheirNamesKeepThemThroughGroupDdlsAndARestart() throws Exception {
        target.execute("DROP DATABASE IF EXISTS " + DST, "DROP DATABASE IF EXISTS " + META);
        source1.execute(InProcess.dmStatements(CASE, "db1.prepare.sql"));
        source2.execute(InProcess.dmStatements(CASE, "db2.prepare.sql"));
        // as DM's run.sh creates it
        target.execute("create database if not exists " + DST, "create table " + DST + ".t_target (id bigint "
                + "auto_increment, uid int, name varchar(80), c_table varchar(255), c_source varchar(255), primary key "
                + "(id, c_table, c_source), unique key(uid)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
        Path task = task();

        BackgroundTask run = InProcess.started(task, "ssm-it");
        try {
            awaitMerged(run, "id, uid, name");
            source1.execute(InProcess.dmStatements(CASE, "db1.increment.sql"));
            source2.execute(InProcess.dmStatements(CASE, "db2.increment.sql"));
            awaitMerged(run, "id, uid, name, level, age");
            // the first source's shards add age2 and go on writing: their rows wait for the second's
            source1.execute(InProcess.dmStatements(CASE, "db1.increment2.sql"));
            Thread.sleep(2000);
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        assertTrue(target.rows("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '" + DST
                + "' AND TABLE_NAME = 't_target' AND COLUMN_NAME = 'age2'").equals(List.of("0")),
                "the group DDL waits for the second source's shards");

        run = InProcess.started(task, "ssm-it");
        try {
            source2.execute(InProcess.dmStatements(CASE, "db2.increment2.sql"));
            awaitMerged(run, "id, uid, name, level, age, age2");
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
    }

    /** Waits until the merged table holds the four shards' rows (these columns as hex, and the shard's names). */
    private static void awaitMerged(BackgroundTask run, String columns) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> expected = new ArrayList<>();
        List<String> actual = List.of();
        while (System.nanoTime() < deadline) {
            assertNull(run.failure(), "task failed: " + run.failure());
            expected = new ArrayList<>();
            expected.addAll(shard(source1, "t1", "mysql-replica-01", columns));
            expected.addAll(shard(source1, "t2", "mysql-replica-01", columns));
            expected.addAll(shard(source2, "t2", "mysql-replica-02", columns));
            expected.addAll(shard(source2, "t3", "mysql-replica-02", columns));
            expected.sort(null);
            try {
                actual = target.rows("SELECT CONCAT_WS('|', " + hex(columns) + ", c_table, c_source) FROM " + DST
                        + ".t_target ORDER BY 1");
            } catch (java.sql.SQLException e) {
                actual = List.of(e.getMessage()); // a column not there yet
            }
            if (actual.equals(expected)) {
                return;
            }
            Thread.sleep(200);
        }
        assertEquals(expected, actual, "the merged table against its four shards (" + columns + ")");
    }

    private static List<String> shard(SqlServer source, String table, String sourceId, String columns)
            throws Exception {
        return source.rows("SELECT CONCAT_WS('|', " + hex(columns) + ", '" + table + "', '" + sourceId + "') FROM "
                + SRC + "." + table);
    }

    /** {@code IFNULL(HEX(c), 'NULL')} for each column of the list. */
    private static String hex(String columns) {
        List<String> out = new ArrayList<>();
        for (String c : columns.split(",\\s*")) {
            out.add("IFNULL(HEX(" + c + "), 'NULL')");
        }
        return String.join(", ", out);
    }


    /**
     * DM's dm-task.yaml as it is, given this test's servers: the target's port, each source's
     * connection (DM takes them from its source files), a meta schema of its own and where to dump.
     */
    private Path task() throws IOException {
        // the target's port first: a source's port may begin with 4000
        String dm = InProcess.dmFile(CASE, "dm-task.yaml").replace("port: 4000\n", "port: " + target.port() + "\n");
        String one = "    syncer-config-name: \"global\"\n";
        int first = dm.indexOf(one);
        int second = dm.indexOf(one, first + one.length());
        assertTrue(first > 0 && second > 0, dm);
        String text = dm.substring(0, first) + one + from(source1) + dm.substring(first + one.length(), second) + one
                + from(source2) + dm.substring(second + one.length());
        text = text.replace("meta-schema: \"dm_meta\"", "meta-schema: \"" + META + "\"")
                .replace("dir: \"./dumped_data\"", "dir: \"" + dir.resolve("dumped_data") + "\"");
        assertTrue(text.contains(META) && text.contains(dir.resolve("dumped_data").toString()), text);
        return Files.writeString(dir.resolve("dm-task.yaml"), text);
    }

    private static String from(SqlServer s) {
        return "    from: {host: 127.0.0.1, port: " + s.port() + ", user: root, password: \"\"}\n";
    }


}
