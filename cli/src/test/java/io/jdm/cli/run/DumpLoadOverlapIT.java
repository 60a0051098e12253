package io.jdm.cli.run;

import io.jdm.embedded.Seq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jdm.bench.LatencyProxy;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.dumpdir.DumpFeed;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.TestServers;
import io.jdm.embedded.SqlServer;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadResult;
import io.jdm.load.LoadUnit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code jdm run}'s full stages load each data file while the dump goes on: the load is ahead of
 * the dump's end, the dump is held back by the bound, and a restart after a stop in the middle
 * undoes the abandoned snapshot's rows before dumping again.
 */
class DumpLoadOverlapIT {
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        ServerPair p = TestServers.shared();
        source = p.source();
        target = p.target();
        target.execute("SET GLOBAL local_infile = 1"); // MySQL 8.0's default is OFF: these runs load with LOAD DATA
    }

    /** Three tables: two of many chunks (50 rows each), one keyless (one file, where a double load shows). */
    private static void sourceTables(String db) {
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".a_keyless (a INT, b VARCHAR(20))",
                "INSERT INTO " + db + ".a_keyless SELECT seq % 7, CONCAT('k', seq) FROM " + Seq.upTo(300),
                "CREATE TABLE " + db + ".t1 (id INT PRIMARY KEY, v VARCHAR(40), k INT, KEY k (k))",
                "INSERT INTO " + db + ".t1 SELECT seq, CONCAT('v;', seq), seq % 13 FROM " + Seq.upTo(2000),
                "CREATE TABLE " + db + ".t2 (id BIGINT PRIMARY KEY, payload TEXT)",
                "INSERT INTO " + db + ".t2 SELECT seq * 3, REPEAT(CHAR(65 + seq % 26), seq % 50) FROM "
                        + Seq.upTo(600),
                // the dump splits by the row estimate: make it current, or a table may be one chunk
                "ANALYZE TABLE " + db + ".t1, " + db + ".t2");
    }

    private TaskRunner runner(String name, String db, int threads, int poolSize) throws Exception {
        return runner(name, db, threads, poolSize, dir.resolve("dump"));
    }

    private TaskRunner runner(String name, String db, int threads, int poolSize, Path dump) throws Exception {
        return runner(name, db, threads, poolSize, dump, target.port());
    }

    private TaskRunner runner(String name, String db, int threads, int poolSize, Path dump, int targetPort)
            throws Exception {
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_meta_" + db);
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, String.join("\n",
                "name: " + name,
                "task-mode: full",
                "meta-schema: jdm_meta_" + db,
                "target-database: {host: 127.0.0.1, port: " + targetPort + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [\"" + db + "\"]}}",
                "mydumpers: {global: {threads: " + threads + ", rows: 50, dir: \"" + dump + "\"}}",
                "loaders: {global: {pool-size: " + poolSize + ", defer-indexes: true}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
        return new TaskRunner(new TaskConfigLoader().load(f), TaskRunner.Stages.FROM_TASK_MODE);
    }

    private static final String DUMP_FOLLOWER = "io.jdm.load.DumpFollower";

    /** What the following load said of the order it creates tables and loads files in, while {@code work} ran. */
    private static List<String> followerLines(java.util.concurrent.Callable<?> work) throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger(DUMP_FOLLOWER);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            work.call();
        } finally {
            log.detachAppender(lines);
        }
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("the target answers in")).toList();
    }

    private TaskRunner again(String name) throws Exception {
        return new TaskRunner(new TaskConfigLoader().load(dir.resolve(name + ".yaml")), TaskRunner.Stages.FROM_TASK_MODE);
    }

    @Test
    void theLoadFollowsTheDumpAndTheDirectoryStillLoadsAlone() throws Exception {
        String db = "overlap_follow";
        sourceTables(db);
        TaskRunner runner = runner("overlap-follow", db, 2, 2);
        runner.overlapAheadBytes = 1; // the dump of these few KB waits while one file is not loaded
        AtomicReference<DumpFeed> feed = new AtomicReference<>();
        runner.onOverlap = o -> feed.set(o.feed());
        List<String> order = followerLines(() -> {
            runner.run();
            return null;
        });
        // a target on this machine answers within 1 ms: the loads wait while tables are created
        assertEquals(1, order.size(), order.toString());
        assertTrue(order.get(0).endsWith("the loads wait while a table is being created"), order.get(0));

        Path dump = dir.resolve("dump");
        long files = dataFiles(dump);
        assertTrue(files >= 20, "too few data files to show an overlap: " + files);
        int maxAhead = 1;
        // When the dump completed, at most maxAhead of its files were not loaded: the rest were loaded
        // before metadata was written.
        assertTrue(feed.get().loadedWhenComplete() >= files - maxAhead,
                feed.get().loadedWhenComplete() + " of " + files + " files loaded when the dump completed");
        assertTrue(feed.get().mostAhead() <= maxAhead, "ahead " + feed.get().mostAhead());
        // ... and the checkpoint says so too: its first committed file is older than metadata
        long metadataMillis = Files.getLastModifiedTime(dump.resolve(DumpFileNames.METADATA)).toMillis();
        long firstCommit = Long.parseLong(target.rows("SELECT MIN(UNIX_TIMESTAMP(updated_at) * 1000) FROM jdm_meta_"
                + db + ".`overlap-follow_loader_checkpoint` WHERE status = 'finished' AND file LIKE '%.sql'")
                .get(0).replaceFirst("\\..*", ""));
        assertTrue(firstCommit < metadataMillis, "first file committed at " + firstCommit
                + ", metadata written at " + metadataMillis);

        assertSameRows(db, db);
        assertTrue(target.rows("SHOW INDEX FROM " + db + ".t1 WHERE Key_name = 'k'").size() > 0,
                "the deferred index was not added");
        // tables the source holds far less than 32 MiB of: their statistics were not paused while they
        // filled (which costs each table two DDLs and an ANALYZE), as for a load of a complete dump
        assertEquals(List.of(), target.rows("SELECT file FROM jdm_meta_" + db + ".`overlap-follow_loader_checkpoint`"
                + " WHERE file LIKE 'stats:%'"));
        assertEquals(StageStore.Stage.DONE, stage(db, "overlap-follow"));
        assertEquals(files, target.rows("SELECT file FROM jdm_meta_" + db + ".`overlap-follow_loader_checkpoint`"
                + " WHERE status = 'finished' AND file LIKE '%.sql'").size());

        // The directory is a complete dump: the plain load reads it into another database.
        String copy = db + "_copy";
        target.execute("DROP DATABASE IF EXISTS " + copy);
        LoadResult r = new LoadUnit(LoadConfig.of("overlap-copy", "s1", spec(target), dump).withPoolSize(2)
                .withMetaSchema("jdm_meta_" + db).withRouter(t -> new TableName(copy, t.table()))).run();
        assertTrue(r.completed());
        assertEquals(files, r.files());
        assertTrue(Files.exists(dump.resolve(FileManifest.NAME)));
        assertSameRows(db, copy);
    }

    /**
     * The dump directory a run writes, and the parent it had to create, are the owner's only, and so
     * is every file in it, under a umask (022) that leaves a plain new file readable by all.
     */
    @Test
    void theDumpDirectoryOfARunIsItsOwnersOnly() throws Exception {
        Path plain = Files.createFile(dir.resolve("plain"));
        assumeTrue(Files.getPosixFilePermissions(plain).contains(PosixFilePermission.OTHERS_READ),
                "the umask already hides new files from others");
        String db = "overlap_private";
        sourceTables(db);
        Path dump = dir.resolve("private/dump");
        runner("overlap-private", db, 2, 2, dump).run();
        assertEquals(StageStore.Stage.DONE, stage(db, "overlap-private"));
        assertSameRows(db, db);

        for (Path d : List.of(dir.resolve("private"), dump)) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)), d.toString());
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dump)) {
            files = s.sorted().toList();
        }
        assertTrue(files.stream().map(f -> f.getFileName().toString()).toList().containsAll(List.of(
                DumpFileNames.METADATA, FileManifest.NAME, db + ".t1-schema.sql", db + ".t1.000000001.sql")),
                files.toString());
        for (Path f : files) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f.toString());
        }
    }

    @Test
    void aRestartAfterAStopMidDumpUndoesTheAbandonedSnapshotAndDumpsAgain() throws Exception {
        String db = "overlap_restart";
        sourceTables(db);
        TaskRunner first = runner("overlap-restart", db, 1, 1);
        first.overlapAheadBytes = 1;
        first.onOverlap = o -> new Thread(() -> {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            try {
                while (o.feed().filesLoaded() < 5 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            first.requestStop(); // the dump is at most a file further: far from complete
        }, "overlap-restart-stopper").start();
        first.run();

        Path dump = dir.resolve("dump");
        assertFalse(Files.exists(dump.resolve(DumpFileNames.METADATA)), "the dump completed before the stop");
        assertEquals(StageStore.Stage.DUMP_LOAD, stage(db, "overlap-restart"));
        assertTrue(Long.parseLong(target.rows("SELECT COUNT(*) FROM " + db + ".a_keyless").get(0)) > 0,
                "the keyless table was not loaded before the stop, so a double load could not show");
        List<String> loadedIds = target.rows("SELECT id FROM " + db + ".t1 ORDER BY id LIMIT 10");
        assertFalse(loadedIds.isEmpty(), "nothing of t1 was loaded before the stop");

        // The first run created t1 without its index k (defer-indexes: true); the task file no longer
        // defers, and the second run must still give t1 that index.
        Path task = dir.resolve("overlap-restart.yaml");
        Files.writeString(task, Files.readString(task).replace("defer-indexes: true", "defer-indexes: false"));
        String indexes = "SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = '" + db + "' ORDER BY 1, 2, 3";
        List<String> deferred = target.rows(indexes);
        assertTrue(deferred.contains("t1|PRIMARY|1|id") && !deferred.contains("t1|k|1|k"), deferred.toString());

        // The source moves on: the next snapshot differs from the abandoned one.
        source.execute("DELETE FROM " + db + ".t1 WHERE id IN (" + String.join(",", loadedIds) + ")",
                "UPDATE " + db + ".t1 SET v = 'changed' WHERE id BETWEEN 20 AND 30",
                "INSERT INTO " + db + ".t1 VALUES (5000, 'new', 1)",
                "DELETE FROM " + db + ".a_keyless WHERE a = 3");
        Logger log = (Logger) LoggerFactory.getLogger("jdm");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            again("overlap-restart").run();
        } finally {
            log.detachAppender(lines);
        }
        List<String> undone = lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("its load is undone")).toList();
        assertEquals(1, undone.size(), lines.list.toString());
        assertTrue(undone.get(0).contains("`" + db + "`.`t1`") && undone.get(0).contains("`" + db + "`.`a_keyless`"),
                undone.get(0));
        assertTrue(Files.exists(dump.resolve(DumpFileNames.METADATA)));
        assertSameRows(db, db);
        assertEquals(StageStore.Stage.DONE, stage(db, "overlap-restart"));
        assertEquals(0, target.rows("SELECT file FROM jdm_meta_" + db + ".`overlap-restart_loader_checkpoint`"
                + " WHERE status <> 'finished'").size(), "rows of the abandoned load are left in the checkpoint");
        assertEquals(List.of(), target.rows("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
                + db + "' AND CREATE_OPTIONS LIKE '%stats_auto_recalc%'"), "the statistics the first run paused are back");
        assertEquals(source.rows(indexes), target.rows(indexes), "the index the first run deferred is there");
    }

    @Test
    void aRestartAfterTheDumpCompletedResumesTheLoadFromItsCheckpoint() throws Exception {
        // the statement path, whose stop commits the statement that ran with its offset
        target.execute("SET GLOBAL local_infile = 0");
        try {
            restartAfterTheDumpCompletedResumesTheLoad();
        } finally {
            target.execute("SET GLOBAL local_infile = 1");
        }
    }

    private void restartAfterTheDumpCompletedResumesTheLoad() throws Exception {
        String db = "overlap_resume";
        sourceTables(db);
        source.execute("CREATE TABLE " + db + ".z_last (id INT PRIMARY KEY)",
                "INSERT INTO " + db + ".z_last SELECT seq FROM " + Seq.upTo(10));
        TaskRunner runner = runner("overlap-resume", db, 1, 1);
        runner.overlapAheadBytes = 1;
        // the last table's file waits for a row lock: the dump completes, the load does not
        target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".z_last (id INT PRIMARY KEY)");
        AtomicReference<DumpFeed> feed = new AtomicReference<>();
        runner.onOverlap = o -> feed.set(o.feed());
        Path dump = dir.resolve("dump");
        BackgroundTask run;
        try (Connection lock = target.connect(); Statement st = lock.createStatement()) {
            lock.setAutoCommit(false);
            st.execute("INSERT INTO " + db + ".z_last VALUES (5)");
            run = BackgroundTask.start(runner, "overlap-resume");
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while ((feed.get() == null || feed.get().loadedWhenComplete() < 0) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(dump.resolve(DumpFileNames.METADATA)), "the dump did not complete");
            while (target.rows("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'INSERT%z_last%'")
                    .isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20); // its file handed to a worker, waiting for the row lock
            }
            Thread stopper = new Thread(runner::requestStop, "overlap-resume-stop");
            stopper.start();
            while (!"Stopping".equals(stageOf(runner)) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals("Stopping", stageOf(runner));
            lock.rollback();
        }
        assertNull(run.awaitSync(Duration.ofMinutes(2)));
        assertNull(run.failure(), () -> "the task failed: " + run.failure());
        assertEquals(StageStore.Stage.DUMP_LOAD, stage(db, "overlap-resume"));
        // its statement ran once the lock was gone, and the stop committed it with its offset
        assertEquals(List.of("10"), target.rows("SELECT COUNT(*) FROM " + db + ".z_last"));
        assertEquals(List.of("loading"), target.rows("SELECT status FROM jdm_meta_" + db
                + ".`overlap-resume_loader_checkpoint` WHERE file LIKE '%z_last.%.sql'"), "the stopped file is not resumable");

        Logger log = (Logger) LoggerFactory.getLogger("io.jdm.load.LoadUnit");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            again("overlap-resume").run();
        } finally {
            log.detachAppender(lines);
        }
        long files = dataFiles(dump);
        List<String> plan = lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("data files to load")).toList();
        assertEquals(1, plan.size(), lines.list.toString());
        Matcher m = Pattern.compile("load task overlap-resume \\(source s1\\): (\\d+) data files to load \\((\\d+)"
                + " finished by an earlier run\\).*").matcher(plan.get(0));
        assertTrue(m.matches(), plan.get(0));
        long left = Long.parseLong(m.group(1));
        // z_last's file alone: the dump, held while a file was not loaded, announced it last
        assertEquals(1, left, plan.get(0));
        assertEquals(files, left + Long.parseLong(m.group(2)), plan.get(0));
        assertSameRows(db, db);
        assertEquals(source.rows("SELECT id FROM " + db + ".z_last ORDER BY id"),
                target.rows("SELECT id FROM " + db + ".z_last ORDER BY id"));
        assertEquals(StageStore.Stage.DONE, stage(db, "overlap-resume"));
    }

    private static String stageOf(TaskRunner runner) {
        List<?> sources = (List<?>) runner.status().get("sources");
        Object sub = ((List<?>) ((java.util.Map<?, ?>) sources.get(0)).get("subTaskStatus")).get(0);
        return String.valueOf(((java.util.Map<?, ?>) sub).get("stage"));
    }

    @Test
    void theDumpWaitsWhileMaxAheadBytesOfItsFilesAreNotLoaded() throws Exception {
        String db = "overlap_bound";
        sourceTables(db);
        TaskRunner runner = runner("overlap-bound", db, 1, 1);
        runner.overlapAheadBytes = 1; // reached by any file: the dump waits while one is not loaded
        int maxAhead = 1;
        // The target's first table exists already and is locked: the load cannot write a row.
        target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".a_keyless (a INT, b VARCHAR(20))");
        AtomicReference<DumpFeed> feed = new AtomicReference<>();
        runner.onOverlap = o -> feed.set(o.feed());
        Path dump = dir.resolve("dump");
        BackgroundTask run;
        try (Connection lock = target.connect(); Statement st = lock.createStatement()) {
            st.execute("LOCK TABLES " + db + ".a_keyless WRITE");
            run = BackgroundTask.start(runner, "overlap-bound");
            // maxAhead announced files, and the next one written while its worker waits to announce it
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (dataFiles(dump) < maxAhead + 1 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(maxAhead + 1, dataFiles(dump));
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
            while (System.nanoTime() < until) {
                assertEquals(maxAhead + 1, dataFiles(dump), "the dump went on while the load was held");
                Thread.sleep(50);
            }
            assertEquals(0, feed.get().filesLoaded());
            assertEquals(maxAhead, feed.get().mostAhead());
            st.execute("UNLOCK TABLES");
        }
        assertNull(run.awaitSync(Duration.ofMinutes(2)), "task-mode full never syncs");
        assertNull(run.failure(), () -> "the task failed: " + run.failure());
        assertTrue(Files.exists(dump.resolve(DumpFileNames.METADATA)));
        assertTrue(dataFiles(dump) > 3L * maxAhead, "too few files to show the bound: " + dataFiles(dump));
        assertEquals(maxAhead, feed.get().mostAhead(), "the dump ran further ahead than the bound");
        assertSameRows(db, db);
    }

    /**
     * Once the dump is complete, the load hands each table's files to the workers as the table is
     * created, not once every table is. The target is behind a proxy holding each packet 20 ms, so
     * that creating 24 tables on two threads takes seconds where the dump of their few rows takes
     * under one: the load must begin files of tables created after the dump completed while others
     * are still not created.
     */
    @Test
    void afterTheDumpCompletesEachTableIsLoadedOnceCreatedNotOnceAllAre() throws Exception {
        String db = "overlap_release";
        int tables = 24;
        source.freshDatabase(db);
        for (int i = 0; i < tables; i++) {
            source.execute(String.format("CREATE TABLE %s.t%02d (id INT PRIMARY KEY, v VARCHAR(20))", db, i),
                    String.format("INSERT INTO %s.t%02d SELECT seq, CONCAT('v', seq) FROM %s", db, i, Seq.upTo(5)));
        }
        try (LatencyProxy proxy = LatencyProxy.start("127.0.0.1", target.port(), Duration.ofMillis(20))) {
            TaskRunner runner = runner("overlap-release", db, 1, 2, dir.resolve("dump"), proxy.port());
            AtomicReference<DumpFeed> feed = new AtomicReference<>();
            runner.onOverlap = o -> feed.set(o.feed());
            List<String> order = followerLines(() -> {
                BackgroundTask run = BackgroundTask.start(runner, "overlap-release");
                String count = "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '" + db + "'";
                int createdAtCompletion = -1;
                boolean seen = false;
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                while (!seen && run.failure() == null && System.nanoTime() < deadline) {
                    DumpFeed f = feed.get();
                    if (f != null && f.loadedWhenComplete() >= 0) {
                        int created = Integer.parseInt(target.rows(count).get(0));
                        if (created == tables && createdAtCompletion >= 0) {
                            break; // every table created: too late to see it
                        }
                        if (createdAtCompletion < 0) {
                            createdAtCompletion = created; // those the load could hand out before it saw the end
                        } else if (created <= tables - 3 && f.begun() >= createdAtCompletion + 3) {
                            seen = true;
                        }
                    }
                    Thread.sleep(10);
                }
                assertTrue(createdAtCompletion >= 0, "the dump did not complete");
                assertTrue(createdAtCompletion <= tables - 10, "too many tables were created before the dump completed"
                        + " to show this: " + createdAtCompletion);
                assertTrue(seen, "no file of a table created after the dump completed was begun while tables were"
                        + " still being created (" + createdAtCompletion + " tables created at its completion)");
                assertNull(run.awaitSync(Duration.ofMinutes(2)), "task-mode full never syncs");
                assertNull(run.failure(), () -> "the task failed: " + run.failure());
                return null;
            });
            // 20 ms each way is far: the tables are created beside the loads, which hide the round trips
            assertEquals(1, order.size(), order.toString());
            assertTrue(order.get(0).endsWith("tables are created beside the loads"), order.get(0));
        }
        for (int i = 0; i < tables; i++) {
            String q = String.format("SELECT id, HEX(v) FROM %s.t%02d ORDER BY id", db, i);
            assertEquals(source.rows(q), target.rows(q), q);
        }
    }

    @Test
    void aFailingLoadStopsTheDumpAndTheTaskWithItsOneLine() throws Exception {
        String db = "overlap_load_fails";
        sourceTables(db);
        TaskRunner runner = runner("overlap-load-fails", db, 1, 1);
        runner.overlapAheadBytes = 1;
        target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".t1 (id INT PRIMARY KEY, v VARCHAR(40), k INT)",
                "CREATE TRIGGER " + db + ".refuse BEFORE INSERT ON " + db + ".t1 FOR EACH ROW "
                        + "SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1644, MESSAGE_TEXT = 'refused by test trigger'");
        FatalException e = assertThrows(FatalException.class, runner::run);
        assertTrue(e.getMessage().startsWith("load task overlap-load-fails (source s1), table `" + db + "`.`t1`"),
                e.getMessage());
        assertTrue(e.getMessage().contains("refused by test trigger"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        // the dump was stopped, not left to finish: it could not be more than the bound ahead of t1's first file
        assertFalse(Files.exists(dir.resolve("dump").resolve(DumpFileNames.METADATA)), "the dump went on to the end");
        assertEquals(StageStore.Stage.DUMP_LOAD, stage(db, "overlap-load-fails"));
    }

    /** As the load of a complete dump does (PriorRowsIT in the load module), when its schema file arrives. */
    @Test
    void aKeylessTableHoldingRowsNoLoadOfTheTaskWroteStopsTheFollowingLoadBeforeItWrites() throws Exception {
        String db = "overlap_prior_rows";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".k (a INT, b VARCHAR(20))", "INSERT INTO " + db + ".k VALUES (1, 'new')");
        TaskRunner runner = runner("overlap-prior-rows", db, 1, 1);
        target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".k (a INT, b VARCHAR(20))",
                "INSERT INTO " + db + ".k VALUES (1, 'new'), (2, 'old')");
        List<String> before = target.hexRows(db, "k");
        FatalException e = assertThrows(FatalException.class, runner::run);
        assertTrue(e.getMessage().startsWith("load task overlap-prior-rows (source s1): target table `" + db
                + "`.`k` holds rows that no load of this task wrote"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertEquals(before, target.hexRows(db, "k"));
        assertEquals(List.of(), target.rows("SELECT file FROM jdm_meta_" + db
                + ".`overlap-prior-rows_loader_checkpoint`"));
    }

    @Test
    void aFailingDumpStopsTheLoadAndTheTaskWithItsOneLine() throws Exception {
        String db = "overlap_dump_fails";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".big (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO " + db + ".big SELECT seq, CONCAT('b', seq) FROM " + Seq.upTo(2000),
                "CREATE TABLE " + db + ".zz (id INT PRIMARY KEY)", "INSERT INTO " + db + ".zz VALUES (1)",
                "ANALYZE TABLE " + db + ".big");
        TaskRunner runner = runner("overlap-dump-fails", db, 1, 1);
        runner.overlapAheadBytes = 1;
        int maxAhead = 1;
        target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".big (id INT PRIMARY KEY, v VARCHAR(20))");
        Path dump = dir.resolve("dump");
        BackgroundTask run;
        try (Connection lock = target.connect(); Statement st = lock.createStatement()) {
            st.execute("LOCK TABLES " + db + ".big WRITE");
            run = BackgroundTask.start(runner, "overlap-dump-fails");
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (dataFiles(dump) < maxAhead + 1 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            // the dump is held inside big's 40 chunks, so it has not read zz yet: drop it under the dump
            assertEquals(maxAhead + 1, dataFiles(dump));
            source.execute("DROP TABLE " + db + ".zz");
            st.execute("UNLOCK TABLES");
        }
        assertNull(run.awaitSync(Duration.ofMinutes(2)));
        Throwable e = run.failure();
        assertNotNull(e, "the task did not fail");
        assertEquals("task overlap-dump-fails dump: table `" + db + "`.`zz` was dropped during the dump; rerun the dump",
                e.getMessage());
        assertFalse(Files.exists(dump.resolve(DumpFileNames.METADATA)));
        assertEquals(StageStore.Stage.DUMP_LOAD, stage(db, "overlap-dump-fails"));
    }

    /**
     * The connections that load the rows ask the target nothing of information_schema: what they
     * need of each table (its engine, columns and keys) the threads creating the tables read beside
     * the dump, a schema of many tables at once; a read a table on the workers' path costs a
     * schema of many small tables more than their rows. Read from the target's general log: the
     * connections that ran a LOAD DATA, and what else they ran.
     */
    @Test
    void theConnectionsLoadingTheRowsAskNothingOfInformationSchema() throws Exception {
        String db = "overlap_no_is";
        source.freshDatabase(db);
        for (int i = 0; i < io.jdm.common.schema.TableReadCache.WHOLE_AFTER + 4; i++) {
            source.execute("CREATE TABLE " + db + ".t" + i + " (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + db + ".t" + i + " SELECT seq, CONCAT('v', seq) FROM " + Seq.upTo(30));
        }
        String output = target.rows("SELECT @@GLOBAL.log_output").get(0);
        target.execute("SET GLOBAL log_output = 'TABLE'", "TRUNCATE TABLE mysql.general_log",
                "SET GLOBAL general_log = 1");
        try {
            runner("overlap-no-is", db, 2, 2).run();
        } finally {
            target.execute("SET GLOBAL general_log = 0", "SET GLOBAL log_output = '" + output + "'");
        }
        List<String> loaders = target.rows("SELECT DISTINCT thread_id FROM mysql.general_log WHERE command_type = 'Query'"
                + " AND CONVERT(argument USING utf8mb4) LIKE 'LOAD DATA%'");
        List<String> asked = target.rows("SELECT CONVERT(argument USING utf8mb4) FROM mysql.general_log WHERE thread_id IN ("
                + "SELECT thread_id FROM mysql.general_log WHERE CONVERT(argument USING utf8mb4) LIKE 'LOAD DATA%')"
                + " AND CONVERT(argument USING utf8mb4) LIKE '%information_schema%'");
        target.execute("TRUNCATE TABLE mysql.general_log");
        assertFalse(loaders.isEmpty(), "no connection ran a LOAD DATA");
        assertEquals(List.of(), asked);
        for (int i : new int[] {0, io.jdm.common.schema.TableReadCache.WHOLE_AFTER + 3}) {
            String q = "SELECT id, v FROM " + db + ".t" + i + " ORDER BY id";
            assertEquals(source.rows(q), target.rows(q));
        }
    }

    private static long dataFiles(Path dump) throws Exception {
        if (!Files.isDirectory(dump)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(dump)) {
            return s.map(p -> DumpFileNames.parse(p.getFileName().toString()))
                    .filter(p -> p.isPresent() && p.get().kind() == DumpFileNames.Kind.DATA).count();
        }
    }

    /** Every table of {@code db} on the source equals the one in {@code copy} on the target, row by row. */
    private static void assertSameRows(String db, String copy) throws Exception {
        for (String q : List.of("SELECT a, b FROM %s.a_keyless ORDER BY a, b", "SELECT id, v, k FROM %s.t1 ORDER BY id",
                "SELECT id, HEX(payload) FROM %s.t2 ORDER BY id")) {
            List<String> want = source.rows(String.format(q, db));
            assertFalse(want.isEmpty());
            assertEquals(want, target.rows(String.format(q, copy)), q);
        }
    }

    private static StageStore.Stage stage(String db, String task) throws Exception {
        StageStore.Entry e = new StageStore(spec(target), "jdm_meta_" + db, task).read("s1").orElse(null);
        assertNotNull(e, "no stage recorded");
        return e.stage();
    }

    private static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), "root", "");
    }
}
