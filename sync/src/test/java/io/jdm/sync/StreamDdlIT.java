package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.jdm.common.config.Action;
import io.jdm.common.config.EventType;
import io.jdm.common.config.FilterConfig;
import io.jdm.common.error.JdmException;
import io.jdm.common.filter.EventFilter;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** DDL in the stream: schema at the event's position, refused DDL skipped by a filter rule, event filters. */
class StreamDdlIT {
    private final ServerPair pair = TestServers.shared();
    private final SqlServer src = pair.source();
    private final SqlServer tgt = pair.target();

    /** A fresh task: no checkpoint. */
    private SyncConfig.Builder config(String task, long serverId) {
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_" + task);
        return resume(task, serverId);
    }

    /** The same task again: resumes from its checkpoint. */
    private SyncConfig.Builder resume(String task, long serverId) {
        return SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(3).metaSchema("jdm_meta_" + task)
                .serverId(serverId);
    }

    private static void awaitCaughtUp(SyncUnit unit, SqlServer src) throws Exception {
        assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(90)),
                () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
    }

    private static JdmException awaitFailure(SyncUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (unit.failure().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(unit.failure().isPresent(), "the unit should have stopped");
        unit.awaitTermination();
        return unit.failure().get();
    }

    @Test
    void rowsFollowColumnChangesWhileAWriterKeepsWriting() throws Exception {
        String db = "streamddlit_alter";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        String create = "CREATE TABLE `" + db + "`.t (id INT AUTO_INCREMENT PRIMARY KEY, a VARCHAR(20), b INT)";
        src.execute(create);
        tgt.execute(create);
        var start = sourcePosition(src);
        // The source is a DDL ahead of the start position before the unit even starts: the rows before
        // the ALTER must be decoded with the table as it was then, not as it is now.
        src.execute("INSERT INTO `" + db + "`.t (a, b) VALUES ('before', 1), ('before', 2)",
                "ALTER TABLE `" + db + "`.t ADD COLUMN x INT NOT NULL DEFAULT 5 AFTER id",
                "INSERT INTO `" + db + "`.t (a, b, x) VALUES ('after', 3, 50)");
        SyncUnit unit = new SyncUnit(config("streamalter", 7201).start(start)
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        AtomicReference<Throwable> writerError = new AtomicReference<>();
        AtomicLong writes = new AtomicLong();
        Thread writer = new Thread(() -> write(db, writes, writerError), "streamddlit-writer");
        try {
            writer.start();
            String[] alters = {
                "ALTER TABLE `" + db + "`.t ADD COLUMN c VARCHAR(10) NOT NULL DEFAULT 'c' AFTER id",
                "ALTER TABLE `" + db + "`.t MODIFY b BIGINT NULL",
                "ALTER TABLE `" + db + "`.t DROP COLUMN x",
                "ALTER TABLE `" + db + "`.t ADD COLUMN d DECIMAL(10,2) NULL FIRST",
                "ALTER TABLE `" + db + "`.t CHANGE a a VARCHAR(30) NULL AFTER d"};
            for (String alter : alters) {
                long before = writes.get();
                awaitWrites(writes, before + 40, writerError);
                src.execute(alter);
            }
            awaitWrites(writes, writes.get() + 20, writerError);
        } finally {
            writer.interrupt();
            writer.join(30_000);
        }
        try {
            assertNull(writerError.get(), () -> "workload failed: " + writerError.get());
            awaitCaughtUp(unit, src);
            assertSameRows(src, tgt, new TableName(db, "t"));
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
    }

    private static void awaitWrites(AtomicLong writes, long atLeast, AtomicReference<Throwable> error)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (writes.get() < atLeast && error.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(writes.get() >= atLeast, () -> "the workload stalled: " + error.get());
    }

    /** Inserts, updates and deletes through the columns that every version of the table has. */
    private void write(String db, AtomicLong writes, AtomicReference<Throwable> error) {
        Random rnd = new Random(7);
        try (Connection c = src.connect(); Statement st = c.createStatement()) {
            while (!Thread.currentThread().isInterrupted()) {
                int op = rnd.nextInt(10);
                if (op < 6) {
                    st.execute("INSERT INTO `" + db + "`.t (a, b) VALUES ('w" + rnd.nextInt(1000) + "', "
                            + rnd.nextInt(100_000) + ")");
                } else if (op < 9) {
                    st.execute("UPDATE `" + db + "`.t SET b = b + 1, a = CONCAT(a, 'u') WHERE id = "
                            + (1 + rnd.nextInt((int) writes.get() + 3)));
                } else {
                    st.execute("DELETE FROM `" + db + "`.t WHERE id = " + (1 + rnd.nextInt((int) writes.get() + 3)));
                }
                writes.incrementAndGet();
            }
        } catch (Exception e) {
            if (!Thread.currentThread().isInterrupted()) {
                error.set(e);
            }
        }
    }

    @Test
    void aRefusedDdlStopsTheTaskAndAnIgnoreRuleLetsItResume() throws Exception {
        assumeFalse(tgt.rows("SELECT VERSION()").get(0).startsWith("5.7"),
                "MySQL 5.7 reads CHECK constraints and ignores them: the target never refuses this DDL");
        String db = "streamddlit_refuse";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        src.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))");
        tgt.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO `" + db + "`.t VALUES (500, 'target-only')"); // breaks the CHECK the source adds
        var start = sourcePosition(src);
        src.execute("INSERT INTO `" + db + "`.t VALUES (1, 'one'), (2, 'two')",
                "ALTER TABLE `" + db + "`.t ADD CONSTRAINT chk CHECK (id < 100)",
                "INSERT INTO `" + db + "`.t VALUES (3, 'three')",
                "UPDATE `" + db + "`.t SET v = 'TWO' WHERE id = 2");
        SyncUnit first = new SyncUnit(config("streamrefuse", 7202).start(start)
                .tableFilter((d, t) -> d.equals(db)).build());
        first.start();
        JdmException e = awaitFailure(first);
        // the target's own words: MariaDB "CONSTRAINT `chk` failed", MySQL "Check constraint 'chk' is violated"
        assertTrue(e.getMessage().contains("ADD CONSTRAINT chk CHECK") && (e.getMessage().contains("CONSTRAINT `chk` failed")
                || e.getMessage().contains("Check constraint 'chk' is violated")) && e.getMessage().contains("filter rule"),
                e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertEquals(List.of("1|one", "2|two", "500|target-only"), idAndV(db), "the target stops right before the refused DDL");

        EventFilter skip = EventFilter.of(List.of(new FilterConfig("skip-chk", db, Optional.of("t"), List.of(),
                List.of("ADD\\s+CONSTRAINT\\s+chk"), Action.IGNORE)), false);
        SyncUnit second = new SyncUnit(resume("streamrefuse", 7202).start(start).tableFilter((d, t) -> d.equals(db))
                .eventFilter(skip::decide).build());
        second.start();
        try {
            awaitCaughtUp(second, src);
            assertEquals(List.of("1|one", "2|TWO", "3|three", "500|target-only"), idAndV(db));
        } finally {
            second.stop();
        }
        assertTrue(second.failure().isEmpty(), () -> second.failure().get().getMessage());
    }

    private List<String> idAndV(String db) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = tgt.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, v FROM `" + db + "`.t ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "|" + rs.getString(2));
            }
        }
        return out;
    }

    @Test
    void filtersSkipRowEventsAndDdlOrStopTheTask() throws Exception {
        String db = "streamddlit_filter";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        for (SqlServer s : List.of(src, tgt)) {
            s.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE `" + db + "`.u (id INT PRIMARY KEY)");
        }
        EventFilter rules = EventFilter.of(List.of(
                new FilterConfig("keep-deleted", db, Optional.of("t"), List.of(EventType.DELETE), List.of(),
                        Action.IGNORE),
                new FilterConfig("no-index", db, Optional.of("t"), List.of(), List.of("^CREATE INDEX"),
                        Action.IGNORE),
                new FilterConfig("stop-truncate", db, Optional.of("u"), List.of(EventType.TRUNCATE_TABLE), List.of(),
                        Action.ERROR)), false);
        var start = sourcePosition(src);
        SyncUnit unit = new SyncUnit(config("streamfilter", 7203).start(start).tableFilter((d, t) -> d.equals(db))
                .eventFilter(rules::decide).build());
        unit.start();
        src.execute("INSERT INTO `" + db + "`.t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
                "DELETE FROM `" + db + "`.t WHERE id = 2",
                "CREATE INDEX iv ON `" + db + "`.t (v)",
                "ALTER TABLE `" + db + "`.t ADD COLUMN w INT NOT NULL DEFAULT 9",
                "UPDATE `" + db + "`.t SET w = 10 WHERE id = 3",
                "INSERT INTO `" + db + "`.u VALUES (1)");
        awaitCaughtUp(unit, src);
        try (Connection c = tgt.connect(); Statement st = c.createStatement()) {
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT id, v, w FROM `" + db + "`.t ORDER BY id")) {
                while (rs.next()) {
                    rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getInt(3));
                }
            }
            assertEquals(List.of("1|a|9", "2|b|9", "3|c|10"), rows, "the delete is ignored, the ALTER applied");
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.STATISTICS WHERE "
                    + "TABLE_SCHEMA = '" + db + "' AND INDEX_NAME = 'iv'")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "CREATE INDEX is ignored by its sql-pattern");
            }
        }
        src.execute("TRUNCATE TABLE `" + db + "`.u");
        JdmException e = awaitFailure(unit);
        assertTrue(e.getMessage().contains("truncate table on " + db + ".u")
                && e.getMessage().contains("action Error"), e.getMessage());
        assertEquals(1, count(db + "`.`u"), "the stopped TRUNCATE did not reach the target");
    }

    @Test
    void aRestartRightAfterADdlDoesNotApplyItTwice() throws Exception {
        String db = "streamddlit_restart";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        for (SqlServer s : List.of(src, tgt)) {
            s.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))");
        }
        var start = sourcePosition(src);
        SyncUnit first = new SyncUnit(config("streamrestart", 7204).start(start).checkpointFlushInterval(
                Duration.ofMinutes(5)).tableFilter((d, t) -> d.equals(db)).build());
        first.start();
        try {
            // RENAME cannot run twice; the writers that get no row after it keep their position at it
            src.execute("INSERT INTO `" + db + "`.t VALUES (1, 'a')", "RENAME TABLE `" + db + "`.t TO `" + db + "`.t2",
                    "INSERT INTO `" + db + "`.t2 VALUES (2, 'b')");
            awaitCaughtUp(first, src);
        } finally {
            first.stop();
        }
        assertTrue(first.failure().isEmpty(), () -> first.failure().get().getMessage());
        SyncUnit second = new SyncUnit(resume("streamrestart", 7204).start(start)
                .tableFilter((d, t) -> d.equals(db)).build());
        second.start();
        try {
            src.execute("INSERT INTO `" + db + "`.t2 VALUES (3, 'c')");
            awaitCaughtUp(second, src);
            assertSameRows(src, tgt, new TableName(db, "t2"));
        } finally {
            second.stop();
        }
        assertTrue(second.failure().isEmpty(), () -> second.failure().get().getMessage());
    }

    private int count(String quotedInner) throws Exception {
        try (Connection c = tgt.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM `" + quotedInner + "`")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
