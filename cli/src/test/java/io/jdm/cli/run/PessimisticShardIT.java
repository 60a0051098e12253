package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DM's pessimistic shard mode: two source servers × two schemas, four shards merged by routes into
 * one target table, sysbench-shaped writes to every shard while each shard gets ADD COLUMN and then
 * ADD INDEX, the shards reaching them in different orders and at different times (a shard may reach
 * the second before the first has run on the target). Afterwards the target table equals the
 * union of the shards row by row (values as hex), holds the column and index once, and every lock
 * ran once with no spool left.
 */
class PessimisticShardIT {
    private static final String META = "jdm_meta_shard";
    private static final String MERGED = "shard_merged";
    private static SqlServer source1;
    private static EmbeddedMariaDb source2;
    private static SqlServer target;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        source1 = TestServers.shared().source();
        target = TestServers.shared().target();
        source2 = EmbeddedMariaDb.start("shard-source2", ServerProfile.SOURCE);
    }

    @AfterAll
    static void stop() {
        if (source2 != null) {
            source2.close();
        }
    }

    /** One shard: server, schema, the id range its rows use, and when (in its own writes) it alters. */
    private record Shard(SqlServer server, String db, int base, int addColumnAt, int addIndexAt) {
        String table() {
            return db + ".t";
        }
    }

    @Test
    void groupDdlRunsOnceWhenEveryShardReachedItAndNoRowIsLost() throws Exception {
        List<Shard> shards = List.of(
                new Shard(source1, "shard_db_1", 1_000_000, 20, 220),
                new Shard(source1, "shard_db_2", 2_000_000, 120, 160),
                new Shard(source2, "shard_db_1", 3_000_000, 200, 240),
                new Shard(source2, "shard_db_2", 4_000_000, 60, 260));
        target.execute("DROP DATABASE IF EXISTS " + MERGED, "DROP DATABASE IF EXISTS " + META,
                "CREATE DATABASE " + MERGED, "CREATE TABLE " + MERGED + ".t (id INT PRIMARY KEY, k INT NOT NULL, "
                        + "c CHAR(60) NOT NULL, pad VARCHAR(60) NOT NULL)");
        for (SqlServer s : List.of(source1, source2)) {
            s.freshDatabase("shard_db_1");
            s.freshDatabase("shard_db_2");
        }
        for (Shard s : shards) {
            s.server().execute("CREATE TABLE " + s.table() + " (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(60) NOT "
                    + "NULL, pad VARCHAR(60) NOT NULL)");
            StringBuilder ins = new StringBuilder("INSERT INTO " + s.table() + " VALUES ");
            for (int i = 1; i <= 100; i++) {
                ins.append(i > 1 ? "," : "").append('(').append(s.base() + i).append(',').append(i).append(",'c")
                        .append(i).append("','p").append(i).append("')");
            }
            s.server().execute(ins.toString());
            target.execute(ins.toString().replace("INSERT INTO " + s.table(), "INSERT INTO " + MERGED + ".t"));
        }
        TaskConfig task = new TaskConfigLoader().load(taskFile(position(source1), position(source2)));
        TaskRunner runner = new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE);
        BackgroundTask run = BackgroundTask.start(runner, "shard-it");
        try {
            assertTrue(run.awaitSync(Duration.ofMinutes(1)) != null, "sync never started: " + run.failure());
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            List<Thread> writers = new ArrayList<>();
            for (Shard s : shards) {
                Thread t = new Thread(() -> write(s, 300, errors), "writer-" + s.base());
                writers.add(t);
                t.start();
            }
            for (Thread t : writers) {
                t.join(120_000);
            }
            assertTrue(errors.isEmpty(), "writers failed: " + errors);
            awaitEqual(shards, run);
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        String create = target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0);
        assertEquals(1, count(create, "`c2`"), create);
        assertEquals(1, count(create, "KEY `idx_k`"), create);
        assertEquals(List.of("shard_merged|t|1|done", "shard_merged|t|2|done"), target.rows(
                "SELECT target_schema, target_table, seq, state FROM " + META + ".`shard-it_shard_lock` ORDER BY seq"));
        assertEquals(List.of(), target.rows("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
                + META + "' AND TABLE_NAME LIKE 'jdm\\_spool\\_%'"), "spools left");
    }

    /**
     * Sysbench-shaped writes to one shard, one statement per transaction: inserts, updates of k and c,
     * deletes; the shard's own ALTERs at its chosen points, after which inserts set the new column.
     */
    private static void write(Shard s, int ops, ConcurrentLinkedQueue<Throwable> errors) {
        Random rnd = new Random(s.base());
        try (Connection c = s.server().connect(); Statement st = c.createStatement()) {
            boolean c2 = false;
            int next = 101;
            for (int op = 0; op < ops; op++) {
                if (op == s.addColumnAt()) {
                    st.execute("ALTER TABLE " + s.table() + " ADD COLUMN c2 INT NOT NULL DEFAULT 7");
                    c2 = true;
                }
                if (op == s.addIndexAt()) {
                    st.execute("ALTER TABLE " + s.table() + " ADD INDEX idx_k (k)");
                }
                int id = s.base() + 1 + rnd.nextInt(next - 1);
                switch (op % 4) {
                    case 0, 1 -> {
                        int n = next++;
                        st.execute("INSERT INTO " + s.table() + " (id, k, c, pad" + (c2 ? ", c2" : "") + ") VALUES ("
                                + (s.base() + n) + ", " + rnd.nextInt(1000) + ", 'c" + n + "', 'p" + n + "'"
                                + (c2 ? ", " + n : "") + ")");
                    }
                    case 2 -> st.execute("UPDATE " + s.table() + " SET k = k + 1, c = CONCAT('u', " + op + ")"
                            + (c2 ? ", c2 = c2 + 1" : "") + " WHERE id = " + id);
                    default -> st.execute("DELETE FROM " + s.table() + " WHERE id = " + id);
                }
                if (op % 25 == 0) {
                    Thread.sleep(20); // shards interleave: each reaches its DDLs at its own time
                }
            }
        } catch (Exception e) {
            errors.add(e);
        }
    }

    private static void awaitEqual(List<Shard> shards, BackgroundTask run) throws Exception {
        List<String> expected = new ArrayList<>();
        for (Shard s : shards) {
            expected.addAll(s.server().rows("SELECT id, HEX(k), HEX(c), HEX(pad), HEX(c2) FROM " + s.table()));
        }
        Collections.sort(expected);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        List<String> actual = List.of();
        while (System.nanoTime() < deadline && run.failure() == null) {
            try {
                actual = new ArrayList<>(target.rows("SELECT id, HEX(k), HEX(c), HEX(pad), HEX(c2) FROM " + MERGED
                        + ".t"));
                Collections.sort(actual);
                if (actual.equals(expected)) {
                    return;
                }
            } catch (java.sql.SQLException e) {
                // c2 not on the target yet
            }
            Thread.sleep(250);
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        assertFalse(expected.isEmpty());
        assertEquals(expected, actual, "the target table is not the union of the shards");
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private static String position(SqlServer s) throws Exception {
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
            rs.next();
            return "{binlog-name: " + rs.getString(1) + ", binlog-pos: " + rs.getLong(2) + "}";
        }
    }

    private Path taskFile(String meta1, String meta2) throws Exception {
        Path f = dir.resolve("task.yaml");
        Files.writeString(f, String.join("\n",
                "name: shard-it",
                "task-mode: incremental",
                "shard-mode: pessimistic",
                "meta-schema: " + META,
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {shards: {do-dbs: [shard_db_1, shard_db_2]}}",
                "routes:",
                "  tables: {schema-pattern: \"shard_db_*\", table-pattern: \"t\", target-schema: " + MERGED
                        + ", target-table: t}",
                "  schemas: {schema-pattern: \"shard_db_*\", target-schema: " + MERGED + "}",
                "syncers: {global: {worker-count: 4, batch: 50}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    meta: " + meta1,
                "    block-allow-list: shards",
                "    route-rules: [tables, schemas]",
                "    from: {host: 127.0.0.1, port: " + source1.port() + ", user: root, password: \"\"}",
                "  - source-id: s2",
                "    meta: " + meta2,
                "    block-allow-list: shards",
                "    route-rules: [tables, schemas]",
                "    from: {host: 127.0.0.1, port: " + source2.port() + ", user: root, password: \"\"}",
                ""));
        return f;
    }
}
