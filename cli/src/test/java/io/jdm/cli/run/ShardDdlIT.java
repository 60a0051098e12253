package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.JdmChild;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DM's shard modes. Pessimistic: two source servers × two schemas, four shards merged by routes into
 * one target table, sysbench-shaped writes to every shard while each shard gets ADD COLUMN and then
 * ADD INDEX, the shards reaching them in different orders and at different times (a shard may reach
 * the second before the first has run on the target). Afterwards the target table equals the
 * union of the shards row by row (values as hex), holds the column and index once, and every lock
 * ran once with no spool left; also a kill -9 in the middle of a lock, a conflict, and shard-ddl-lock.
 * Optimistic: the same writes, the column and index run when the first shard adds them, a column one
 * shard drops stays until every shard dropped it, and two shards adding one column as two unrelated
 * types stop the task naming both.
 */
class ShardDdlIT {
    private static final String META = "jdm_meta_shard";
    private static final String MERGED = "shard_merged";
    /** Short leases, so a killed process's successor takes over within seconds. */
    private static final List<String> LEASE = List.of("-Djdm.lease.renew-ms=300", "-Djdm.lease.expiry-ms=1500");
    private static SqlServer source1;
    private static SqlServer source2;
    private static SqlServer target;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        source1 = TestServers.shared().source();
        target = TestServers.shared().target();
        source2 = TestServers.startSource("shard-source2", ServerProfile.SOURCE); // the shared source's flavour
    }

    @AfterAll
    static void stop() {
        if (source2 != null) {
            source2.close();
        }
    }

    /** One shard: server, its source id, schema, and the id range its rows use. */
    private record Shard(SqlServer server, String sourceId, String db, int base) {
        String table() {
            return db + ".t";
        }
    }

    /** Writes to one shard across phases: remembers its next id and whether it has c2. */
    private static final class Writer {
        final Shard shard;
        final Random rnd;
        int next = 101;
        int op;
        boolean c2;

        Writer(Shard shard) {
            this.shard = shard;
            this.rnd = new Random(shard.base());
        }
    }

    @Test
    void groupDdlRunsOnceWhenEveryShardReachedItAndNoRowIsLost() throws Exception {
        List<Shard> shards = fourShards();
        setUp(shards);
        TaskConfig task = new TaskConfigLoader().load(taskFile(shards, 0, "pessimistic"));
        TaskRunner runner = new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE);
        BackgroundTask run = BackgroundTask.start(runner, "shard-it");
        try {
            assertTrue(run.awaitSync(Duration.ofMinutes(1)) != null, "sync never started: " + run.failure());
            // each shard: ADD COLUMN, then ADD INDEX; the shards reach them in different orders (column:
            // 1, 4, 2, 3; index: 2, 1, 3, 4), and shard 2 reaches the index before the column ran anywhere
            int[][] at = {{20, 220}, {120, 160}, {200, 240}, {60, 260}};
            List<Writer> writers = shards.stream().map(Writer::new).toList();
            writeAll(writers, 300, i -> at[i][0], i -> at[i][1]);
            awaitEqual(shards, run::failure);
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        assertRanOnce(2);
    }

    @Test
    void aProcessKilledInTheMiddleOfALockResumesWithNothingLost() throws Exception {
        // the shards of s1 reach ADD COLUMN, those of s2 do not: the lock waits, s1's rows are spooled;
        // while no process runs, s2's shards reach it too
        killedMidwayThenResumed("pessimistic", i -> i < 2 ? 30 : -1, "SELECT source_id FROM " + META
                + ".`shard-it_shard_arrival`", 2, i -> i < 2 ? -1 : 50);
        assertRanOnce(1);
    }

    /**
     * A {@code jdm run} child for the whole task: after it registered, every shard writes 120 rows and
     * alters at {@code firstAt(i)}; once {@code reached} holds {@code n} rows it is killed -9 (a second
     * and a half later, so spooled rows are committed); 120 rows more and alters at {@code thenAt(i)}
     * while no process runs; a second child takes over once the leases expired: the merged table must
     * equal the shards' union, and again after 60 rows more in the new shape.
     */
    private void killedMidwayThenResumed(String mode, IntUnaryOperator firstAt, String reached, int n,
                                         IntUnaryOperator thenAt) throws Exception {
        List<Shard> shards = fourShards();
        setUp(shards);
        Path task = taskFile(shards, freePort(), mode);
        List<Writer> writers = shards.stream().map(Writer::new).toList();
        Process p = JdmChild.start(dir.resolve("first.log"), LEASE, "run", task.toString());
        try {
            awaitRows("SELECT source_id FROM " + META + ".`shard-it_shard_source`", 2, p);
            writeAll(writers, 120, firstAt, i -> -1);
            awaitRows(reached, n, p);
            Thread.sleep(1500);
        } finally {
            p.destroyForcibly().waitFor();
        }
        writeAll(writers, 120, thenAt, i -> -1);
        awaitRows("SELECT source_id FROM " + META + ".`shard-it_owner` WHERE expires_at <= UTC_TIMESTAMP(3)", 2, null);
        Process second = JdmChild.start(dir.resolve("second.log"), LEASE, "run", task.toString());
        try {
            awaitEqual(shards, () -> second.isAlive() ? null : new IllegalStateException("jdm exited: "
                    + Files.readString(dir.resolve("second.log"))));
            writeAll(writers, 60, i -> -1, i -> -1);
            awaitEqual(shards, () -> second.isAlive() ? null : new IllegalStateException("jdm exited"));
        } finally {
            second.destroy();
            second.waitFor();
        }
    }

    @Test
    void locksResolveAcrossTwoProcessesOnePerSourceAndASuccessorTakesOver() throws Exception {
        List<Shard> shards = fourShards();
        setUp(shards);
        Path task = taskFile(shards, -1, "pessimistic");
        List<Writer> writers = shards.stream().map(Writer::new).toList();
        Process b = child("b", task, "s2");
        Process a = child("a", task, "s1");
        try {
            awaitRows("SELECT source_id FROM " + META + ".`shard-it_shard_source`", 2, a);
            // s1's shards reach ADD COLUMN first, then the process running s1 dies
            writeAll(writers, 100, i -> i < 2 ? 20 : -1, i -> -1);
            awaitRows("SELECT source_id FROM " + META + ".`shard-it_shard_arrival`", 2, a);
            Thread.sleep(1500);
            a.destroyForcibly().waitFor();
            // s2's shards reach it while s1 has no process: the process of s2 runs it on the target
            writeAll(writers, 100, i -> i < 2 ? -1 : 40, i -> -1);
            awaitRows("SELECT seq FROM " + META + ".`shard-it_shard_lock` WHERE state = 'done'", 1, b);
            Process dup = child("dup", task, "s2", "--lease-wait", "0");
            assertEquals(1, dup.waitFor(), "a second process for s2 is refused");
            assertTrue(Files.readString(dir.resolve("dup.log")).contains("is already run by"));
            awaitRows("SELECT source_id FROM " + META + ".`shard-it_owner` WHERE source_id = 's1' AND expires_at <= "
                    + "UTC_TIMESTAMP(3)", 1, null);
            a = child("a2", task, "s1"); // takes over s1, drains its spools
            writeAll(writers, 40, i -> -1, i -> -1);
            Process alive = a;
            awaitEqual(shards, () -> alive.isAlive() && b.isAlive() ? null : new IllegalStateException("jdm exited"));
        } finally {
            a.destroy();
            b.destroy();
            a.waitFor();
            b.waitFor();
        }
        assertRanOnce(1);
    }

    private Process child(String log, Path task, String sourceId, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", task.toString(), "--source-id", sourceId));
        args.addAll(List.of(more));
        return JdmChild.start(dir.resolve(log + ".log"), LEASE, Map.of("JDM_STATUS_ADDR", "127.0.0.1:" + freePort()),
                args.toArray(String[]::new));
    }

    @Test
    void differentStatementsAtTheSamePointStopTheTaskNamingBoth() throws Exception {
        List<Shard> shards = fourShards().subList(0, 2);
        setUp(shards);
        TaskConfig task = new TaskConfigLoader().load(taskFile(shards, 0, "pessimistic"));
        BackgroundTask run = BackgroundTask.start(new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE), "shard-it");
        try {
            assertTrue(run.awaitSync(Duration.ofMinutes(1)) != null, "sync never started: " + run.failure());
            source1.execute("ALTER TABLE shard_db_1.t ADD COLUMN x INT", "INSERT INTO shard_db_1.t VALUES (1000500, "
                    + "1, 'c', 'p', 5)", "ALTER TABLE shard_db_2.t ADD COLUMN y INT");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (run.failure() == null && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        String msg = String.valueOf(run.failure() == null ? null : run.failure().getMessage());
        assertTrue(msg.contains("reached different DDL") && msg.contains("s1:shard_db_1.t") && msg.contains(
                "s1:shard_db_2.t") && msg.contains("ADD COLUMN x INT") && msg.contains("ADD COLUMN y INT"), msg);
        assertEquals(1, msg.lines().count(), msg);
        String create = target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0);
        assertFalse(create.contains("`x`") || create.contains("`y`"), create);
    }

    @Test
    void shardDdlLockListsAWaitingLockAndUnlockRunsItByHand() throws Exception {
        List<Shard> shards = fourShards().subList(0, 2);
        setUp(shards);
        Path file = taskFile(shards, 0, "pessimistic");
        assertTrue(jdm(0, "shard-ddl-lock", file.toString()).contains("\"locks\" : [ ]"), "nothing yet");
        assertEquals(List.of(), target.rows("SHOW DATABASES LIKE '" + META + "'"), "listing creates nothing");
        BackgroundTask run = BackgroundTask.start(new TaskRunner(new TaskConfigLoader().load(file),
                TaskRunner.Stages.FROM_TASK_MODE), "shard-it");
        String lockId = "shard-it-`shard_merged`.`t`";
        try {
            io.jdm.sync.SyncUnit sync = run.awaitSync(Duration.ofMinutes(1));
            assertTrue(sync != null, "sync never started: " + run.failure());
            List<Writer> writers = shards.stream().map(Writer::new).toList();
            writeAll(writers, 80, i -> i == 0 ? 10 : -1, i -> -1); // only the first shard alters: the lock waits
            awaitRows("SELECT seq FROM " + META + ".`shard-it_shard_arrival`", 1, null);
            // query-status shows it as DM does: blockingDDLs and unresolvedGroups of the sync unit
            String status = "";
            for (int i = 0; i < 100 && !status.contains("unsynced=[s1-`shard_db_2`.`t`]"); i++) {
                Thread.sleep(100);
                status = String.valueOf(DmResponses.sync(sync, null));
            }
            assertTrue(status.contains("unresolvedGroups=[{target=`shard_merged`.`t`, DDLs=[ALTER TABLE "
                    + "`shard_merged`.`t` ADD COLUMN c2 INT NOT NULL DEFAULT 7]") && status.contains(
                    "synced=[s1-`shard_db_1`.`t`], unsynced=[s1-`shard_db_2`.`t`]"), status);
            String listed = jdm(0, "shard-ddl-lock", file.toString());
            assertTrue(listed.contains("\"ID\" : \"" + lockId + "\"") && listed.contains("\"synced\" : [ \"s1-`shard_db_1`.`t`\" ]")
                    && listed.contains("\"unsynced\" : [ \"s1-`shard_db_2`.`t`\" ]")
                    && listed.contains("ALTER TABLE `shard_merged`.`t` ADD COLUMN c2 INT NOT NULL DEFAULT 7"), listed);
            assertTrue(jdm(0, "shard-ddl-lock", "unlock", file.toString(), lockId).contains("ran on the target"));
            assertTrue(jdm(2, "shard-ddl-lock", "unlock", file.toString(), lockId).isEmpty(), "a second unlock");
            // the second shard reaches the statement later: it passes it, its rows reach the target
            writeAll(writers, 40, i -> i == 1 ? 5 : -1, i -> -1);
            awaitEqual(shards, run::failure);
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        assertRanOnce(1);
        assertTrue(jdm(0, "shard-ddl-lock", file.toString()).contains("\"locks\" : [ ]"));
    }

    @Test
    void aGroupDdlRunsOnTheTargetInTheSessionItRanInOnTheSource() throws Exception {
        List<Shard> shards = fourShards().subList(0, 2);
        setUp(shards);
        Path file = taskFile(shards, 0, "pessimistic");
        BackgroundTask run = BackgroundTask.start(new TaskRunner(new TaskConfigLoader().load(file),
                TaskRunner.Stages.FROM_TASK_MODE), "shard-it");
        // latin1 client bytes and a +05:00 time zone change what the literals mean; the first shard's
        // session is the one kept with the lock, and unlock runs the statement from there
        String alter = " ADD COLUMN note VARCHAR(10) NOT NULL DEFAULT 'é', ADD COLUMN ts TIMESTAMP NOT NULL "
                + "DEFAULT '2020-01-01 00:00:00'";
        String columns = "SELECT COLUMN_NAME, COLUMN_TYPE, HEX(COLUMN_DEFAULT) FROM information_schema.COLUMNS WHERE "
                + "COLUMN_NAME IN ('note', 'ts') AND TABLE_NAME = 't' AND TABLE_SCHEMA = ";
        try {
            assertTrue(run.awaitSync(Duration.ofMinutes(1)) != null, "sync never started: " + run.failure());
            try (Connection c = source1.connect(); Statement st = c.createStatement()) {
                st.execute("SET NAMES latin1");
                st.execute("SET time_zone = '+05:00'");
                st.execute("ALTER TABLE shard_db_1.t" + alter);
                st.execute("INSERT INTO shard_db_1.t (id, k, c, pad) VALUES (1000500, 1, 'c', 'p')");
            }
            awaitRows("SELECT seq FROM " + META + ".`shard-it_shard_arrival`", 1, null);
            assertTrue(jdm(0, "shard-ddl-lock", "unlock", file.toString(), "shard-it-`shard_merged`.`t`")
                    .contains("ran on the target"));
            try (Connection c = source1.connect(); Statement st = c.createStatement()) {
                st.execute("SET NAMES latin1");
                st.execute("SET time_zone = '+05:00'");
                st.execute("ALTER TABLE shard_db_2.t" + alter);
                st.execute("INSERT INTO shard_db_2.t (id, k, c, pad) VALUES (2000500, 1, 'c', 'p')");
            }
            String rows = "SELECT id, HEX(note), UNIX_TIMESTAMP(ts) FROM ";
            List<String> expected = new ArrayList<>(source1.rows(rows + "shard_db_1.t"));
            expected.addAll(source1.rows(rows + "shard_db_2.t"));
            Collections.sort(expected);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            List<String> actual = List.of();
            while (System.nanoTime() < deadline && run.failure() == null && !actual.equals(expected)) {
                Thread.sleep(200);
                try {
                    actual = new ArrayList<>(target.rows(rows + MERGED + ".t"));
                    Collections.sort(actual);
                } catch (java.sql.SQLException e) {
                    // the columns are not there yet
                }
            }
            assertEquals(expected, actual, "rows of both shards, defaults as the source made them");
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
        assertEquals(source1.rows(columns + "'shard_db_1' ORDER BY 1"), target.rows(columns + "'" + MERGED
                + "' ORDER BY 1"), "column definitions as text: the literal's bytes and the time zone kept");
    }

    /** Runs jdm in this JVM; returns what it printed on stdout, after checking its exit code. */
    private static String jdm(int exit, String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream old = System.out;
        int code;
        try {
            System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
            code = io.jdm.cli.Jdm.execute(args);
        } finally {
            System.setOut(old);
        }
        String printed = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(exit, code, printed);
        return printed;
    }

    @Test
    void optimisticRunsWhatChangesTheJoinedTableAndDropsAColumnOnlyWhenEveryShardDroppedIt() throws Exception {
        List<Shard> shards = fourShards();
        setUp(shards);
        for (Shard s : shards) {
            s.server().execute("ALTER TABLE " + s.table() + " ADD COLUMN old INT NULL");
        }
        target.execute("ALTER TABLE " + MERGED + ".t ADD COLUMN old INT NULL");
        TaskConfig task = new TaskConfigLoader().load(taskFile(shards, 0, "optimistic"));
        BackgroundTask run = BackgroundTask.start(new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE), "shard-it");
        try {
            assertTrue(run.awaitSync(Duration.ofMinutes(1)) != null, "sync never started: " + run.failure());
            int[][] at = {{20, 220}, {120, 160}, {200, 240}, {60, 260}};
            List<Writer> writers = shards.stream().map(Writer::new).toList();
            writeAll(writers, 300, i -> at[i][0], i -> at[i][1]);
            awaitEqual(shards, run::failure);
            String create = target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0);
            assertEquals(1, count(create, "`c2`"), create);
            assertEquals(1, count(create, "KEY `idx_k`"), create);
            shards.get(0).server().execute("ALTER TABLE " + shards.get(0).table() + " DROP COLUMN old");
            writeAll(writers, 40, i -> -1, i -> -1);
            awaitEqual(shards, run::failure);
            assertTrue(target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0).contains("`old`"),
                    "dropped by one shard only: the merged table keeps it");
            for (Shard s : shards.subList(1, 4)) {
                s.server().execute("ALTER TABLE " + s.table() + " DROP COLUMN old");
            }
            writeAll(writers, 40, i -> -1, i -> -1);
            awaitEqual(shards, run::failure);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0).contains("`old`")
                    && System.nanoTime() < deadline && run.failure() == null) {
                Thread.sleep(100);
            }
            assertFalse(target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0).contains("`old`"),
                    "dropped by every shard: gone from the merged table");
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        assertNull(run.failure(), "task failed: " + run.failure());
    }

    /**
     * s2 starts only after a shard of s1 added c2 to the merged table, and starts again after its own
     * shards wrote rows and then added c2 while it was stopped: its tracker must start s2's shards
     * from their own definition (the merged table as it was), not from the joined table, whose extra
     * column the source's current definition would only seem to confirm.
     */
    @Test
    void optimisticSourceStartedAfterASiblingChangedTheJoinedTableStartsFromItsOwnDefinition() throws Exception {
        List<Shard> shards = fourShards();
        setUp(shards);
        TaskConfig task = new TaskConfigLoader().load(taskFile(shards, 0, "optimistic"));
        List<Writer> writers = shards.stream().map(Writer::new).toList();
        BackgroundTask one = BackgroundTask.start(new TaskRunner(task.withRunSourceIds(List.of("s1")),
                TaskRunner.Stages.FROM_TASK_MODE), "shard-it-s1");
        BackgroundTask two = null;
        try {
            assertTrue(one.awaitSync(Duration.ofMinutes(1)) != null, "sync never started: " + one.failure());
            writeAll(writers, 20, i -> i == 0 ? 0 : -1, i -> -1);
            awaitRows("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '" + MERGED
                    + "' AND TABLE_NAME = 't' AND COLUMN_NAME = 'c2'", 1, null);
            for (int run = 0; run < 2; run++) {
                if (run == 1) { // s2's shards: rows without c2, then c2, while s2 is stopped
                    writeAll(writers, 20, i -> i >= 2 ? 10 : -1, i -> -1);
                }
                two = BackgroundTask.start(new TaskRunner(task.withRunSourceIds(List.of("s2")),
                        TaskRunner.Stages.FROM_TASK_MODE), "shard-it-s2");
                BackgroundTask started = two;
                assertTrue(two.awaitSync(Duration.ofMinutes(1)) != null, "sync never started: " + two.failure());
                writeAll(writers, 20, i -> -1, i -> -1);
                awaitEqual(shards.subList(2, 4), () -> started.failure() != null ? started.failure() : one.failure(),
                        run == 0 ? "HEX(7)" : "HEX(c2)");
                assertTrue(two.stop(Duration.ofSeconds(60)), "s2 did not stop");
                assertNull(two.failure(), "s2 failed: " + two.failure());
            }
            two = null;
        } finally {
            if (two != null) {
                two.stop(Duration.ofSeconds(60));
            }
            one.stop(Duration.ofSeconds(60));
        }
        assertNull(one.failure(), "s1 failed: " + one.failure());
    }

    @Test
    void optimisticProcessKilledMidwayResumesWithNothingLostAndTheColumnAddedOnce() throws Exception {
        // s1's shards add c2 (the first runs it on the target); s2's add it while no process runs
        killedMidwayThenResumed("optimistic", i -> i < 2 ? 30 + 40 * i : -1, "SELECT COLUMN_NAME FROM "
                + "information_schema.COLUMNS WHERE TABLE_SCHEMA = '" + MERGED + "' AND TABLE_NAME = 't' AND "
                + "COLUMN_NAME = 'c2'", 1, i -> i < 2 ? -1 : 50);
        String create = target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0);
        assertEquals(1, count(create, "`c2`"), create);
        assertEquals(List.of(), target.rows("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
                + META + "' AND TABLE_NAME LIKE 'jdm\\_shape\\_%\\_%'"), "definitions read ahead left behind");
    }

    @Test
    void optimisticStopsOnShardsThatCannotBeJoinedNamingBoth() throws Exception {
        List<Shard> shards = fourShards().subList(0, 2);
        setUp(shards);
        TaskConfig task = new TaskConfigLoader().load(taskFile(shards, 0, "optimistic"));
        BackgroundTask run = BackgroundTask.start(new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE), "shard-it");
        try {
            assertTrue(run.awaitSync(Duration.ofMinutes(1)) != null, "sync never started: " + run.failure());
            source1.execute("ALTER TABLE shard_db_1.t ADD COLUMN z INT NULL",
                    "ALTER TABLE shard_db_2.t ADD COLUMN z VARCHAR(10) NULL");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (run.failure() == null && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
        String msg = String.valueOf(run.failure() == null ? null : run.failure().getMessage());
        assertTrue(msg.contains("conflict") && msg.contains("column z") && msg.contains("s1:shard_db_1.t")
                && msg.contains("s1:shard_db_2.t"), msg);
        assertEquals(1, msg.lines().count(), msg);
        String create = target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0);
        assertTrue(create.contains("`z` int"), "the first shard's column ran: " + create);
    }

    private static List<Shard> fourShards() {
        return List.of(
                new Shard(source1, "s1", "shard_db_1", 1_000_000),
                new Shard(source1, "s1", "shard_db_2", 2_000_000),
                new Shard(source2, "s2", "shard_db_1", 3_000_000),
                new Shard(source2, "s2", "shard_db_2", 4_000_000));
    }

    /** Fresh shards with 100 rows each, and the merged target table holding their union. */
    private static void setUp(List<Shard> shards) {
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
    }

    /** {@code ops} writes to every shard at once; shard i alters at its own op (-1: not in this phase). */
    private static void writeAll(List<Writer> writers, int ops, IntUnaryOperator columnAt, IntUnaryOperator indexAt)
            throws InterruptedException {
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < writers.size(); i++) {
            Writer w = writers.get(i);
            int col = columnAt.applyAsInt(i);
            int idx = indexAt.applyAsInt(i);
            Thread t = new Thread(() -> write(w, ops, col, idx, errors), "writer-" + w.shard.base());
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(120_000);
        }
        assertTrue(errors.isEmpty(), "writers failed: " + errors);
    }

    /**
     * Sysbench-shaped writes to one shard, one statement per transaction: inserts, updates of k and c,
     * deletes; the shard's own ALTERs at the given ops, after which inserts set the new column.
     */
    private static void write(Writer w, int ops, int columnAt, int indexAt, ConcurrentLinkedQueue<Throwable> errors) {
        Shard s = w.shard;
        try (Connection c = s.server().connect(); Statement st = c.createStatement()) {
            for (int i = 0; i < ops; i++) {
                if (i == columnAt) {
                    st.execute("ALTER TABLE " + s.table() + " ADD COLUMN c2 INT NOT NULL DEFAULT 7");
                    w.c2 = true;
                }
                if (i == indexAt) {
                    st.execute("ALTER TABLE " + s.table() + " ADD INDEX idx_k (k)");
                }
                int id = s.base() + 1 + w.rnd.nextInt(w.next - 1);
                switch (w.op++ % 4) {
                    case 0, 1 -> {
                        int n = w.next++;
                        st.execute("INSERT INTO " + s.table() + " (id, k, c, pad" + (w.c2 ? ", c2" : "") + ") VALUES ("
                                + (s.base() + n) + ", " + w.rnd.nextInt(1000) + ", 'c" + n + "', 'p" + n + "'"
                                + (w.c2 ? ", " + n : "") + ")");
                    }
                    case 2 -> st.execute("UPDATE " + s.table() + " SET k = k + 1, c = CONCAT('u', " + w.op + ")"
                            + (w.c2 ? ", c2 = c2 + 1" : "") + " WHERE id = " + id);
                    default -> st.execute("DELETE FROM " + s.table() + " WHERE id = " + id);
                }
                if (i % 25 == 0) {
                    Thread.sleep(20); // shards interleave: each reaches its DDLs at its own time
                }
            }
        } catch (Exception e) {
            errors.add(e);
        }
    }

    /** Group DDLs 1..n ran once each: the merged table has c2 (and idx_k) once, every lock done, no spool left. */
    private static void assertRanOnce(int locks) throws Exception {
        String create = target.rows("SHOW CREATE TABLE " + MERGED + ".t").get(0);
        assertEquals(1, count(create, "`c2`"), create);
        assertEquals(locks > 1 ? 1 : 0, count(create, "KEY `idx_k`"), create);
        List<String> expected = new ArrayList<>();
        for (int seq = 1; seq <= locks; seq++) {
            expected.add("shard_merged|t|" + seq + "|done");
        }
        assertEquals(expected, target.rows("SELECT target_schema, target_table, seq, state FROM " + META
                + ".`shard-it_shard_lock` ORDER BY seq"));
        assertEquals(List.of(), target.rows("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
                + META + "' AND TABLE_NAME LIKE 'jdm\\_spool\\_%'"), "spools left");
    }

    private static void awaitRows(String sql, int n, Process p) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline) {
            assertTrue(p == null || p.isAlive(), "jdm exited early");
            try {
                if (target.rows(sql).size() >= n) {
                    return;
                }
            } catch (java.sql.SQLException e) {
                // not created yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("never " + n + " rows: " + sql);
    }

    private static void awaitEqual(List<Shard> shards, Callable<Throwable> failure) throws Exception {
        awaitEqual(shards, failure, "HEX(c2)");
    }

    /**
     * The merged table's rows of {@code shards} equal theirs, their c2 read as {@code c2} (a
     * shard without c2 has the merged table's default).
     */
    private static void awaitEqual(List<Shard> shards, Callable<Throwable> failure, String c2) throws Exception {
        List<String> expected = new ArrayList<>();
        StringBuilder ranges = new StringBuilder();
        for (Shard s : shards) {
            expected.addAll(s.server().rows("SELECT id, HEX(k), HEX(c), HEX(pad), " + c2 + " FROM " + s.table()));
            ranges.append(ranges.length() == 0 ? "" : " OR ").append("id DIV 1000000 = ").append(s.base() / 1_000_000);
        }
        Collections.sort(expected);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        List<String> actual = List.of();
        while (System.nanoTime() < deadline && failure.call() == null) {
            try {
                actual = new ArrayList<>(target.rows("SELECT id, HEX(k), HEX(c), HEX(pad), HEX(c2) FROM " + MERGED
                        + ".t WHERE " + ranges));
                Collections.sort(actual);
                if (actual.equals(expected)) {
                    return;
                }
            } catch (java.sql.SQLException e) {
                // c2 not on the target yet
            }
            Thread.sleep(250);
        }
        assertNull(failure.call(), "task failed");
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

    /**
     * The task over {@code shards}' sources, each from its current binlog position; status on {@code port}
     * (0: the default, for tasks run in this JVM without a status server; -1: {@code ${JDM_STATUS_ADDR}}).
     */
    private Path taskFile(List<Shard> shards, int port, String mode) throws Exception {
        List<String> lines = new ArrayList<>(List.of(
                "name: shard-it",
                "task-mode: incremental",
                "shard-mode: " + mode,
                "meta-schema: " + META,
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {shards: {do-dbs: [shard_db_1, shard_db_2]}}",
                "routes:",
                "  tables: {schema-pattern: \"shard_db_*\", table-pattern: \"t\", target-schema: " + MERGED
                        + ", target-table: t}",
                "  schemas: {schema-pattern: \"shard_db_*\", target-schema: " + MERGED + "}",
                "syncers: {global: {worker-count: 4, batch: 50, checkpoint-flush-interval: 1}}"));
        if (port > 0) {
            lines.add("status-addr: \"127.0.0.1:" + port + "\"");
        } else if (port < 0) {
            lines.add("status-addr: \"${JDM_STATUS_ADDR}\""); // each process its own
        }
        lines.add("mysql-instances:");
        for (String id : shards.stream().map(Shard::sourceId).distinct().toList()) {
            SqlServer server = shards.stream().filter(s -> s.sourceId().equals(id)).findFirst().orElseThrow().server();
            lines.addAll(List.of(
                    "  - source-id: " + id,
                    "    meta: " + position(server),
                    "    block-allow-list: shards",
                    "    route-rules: [tables, schemas]",
                    "    from: {host: 127.0.0.1, port: " + server.port() + ", user: root, password: \"\"}"));
        }
        Path f = dir.resolve("task.yaml");
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
