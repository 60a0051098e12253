package io.jdm.load;

import io.jdm.embedded.Seq;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.jdm.common.config.DeferIndexes;
import io.jdm.common.config.LoaderConfig;
import io.jdm.common.config.OnDuplicate;
import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class LoadUnitIT {
    private static final String DB = "LoadUnitIT_src";
    private static final List<String> TABLES = List.of("types", TestData.ODD_TABLE, "sbtest1");
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;
    private static Path dump;

    @BeforeAll
    static void fixture() throws Exception {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        TestData.create(source, DB, 5000);
        dump = tmp.resolve("dump");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, DB, dump, 100, 1000, t -> t.equals("sbtest1") ? ".gz" : t.equals("types") ? "" : ".zst");
        }
    }

    static ConnectionSpec targetSpec() {
        return ConnectionSpec.of(target.host(), target.port(), target.user(), target.password());
    }

    private static void resetTarget(String task, String... dbs) {
        for (String db : dbs) {
            target.execute("DROP DATABASE IF EXISTS " + Identifiers.quote(db));
        }
        target.execute("CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta." + Identifiers.quote(task + "_loader_checkpoint"));
    }

    @Test
    void loadsEveryTableIdenticallyAndARerunSkipsFinishedFiles() throws Exception {
        resetTarget("unit_full", DB);
        LoadConfig cfg = LoadConfig.of("unit_full", "src1", targetSpec(), dump).withPoolSize(4)
                .withDeferIndexes(DeferIndexes.ALWAYS).withTransactionBytes(32 * 1024);
        long dataFiles;
        try (Stream<Path> s = Files.list(dump)) {
            dataFiles = s.filter(p -> p.getFileName().toString().matches(".*\\.\\d{9}\\.sql.*")).count();
        }
        LoadResult r = new LoadUnit(cfg).run();
        assertTrue(r.completed());
        assertEquals(dataFiles, r.files());
        assertEquals(0, r.skippedFiles());
        assertEquals(503 + 3 + 5000, r.rows());
        assertEquals(DumpMetadata.readFrom(dump).orElseThrow().position(), r.position());
        assertNotNull(r.position());
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : TABLES) {
                TableName tn = new TableName(DB, table);
                TestData.assertSameRows(s, tn, t, tn);
                // MySQL 5.7's CHECKSUM TABLE of a table with a JSON column changes from one call to the
                // next on the same rows (seen on 5.7.22, the source's own table alike): the rows are the check
                if (!table.equals("types") || source.serverFlavor() != ServerFlavor.MYSQL57) {
                    assertEquals(TestData.checksum(s, tn), TestData.checksum(t, tn), table);
                }
            }
            assertEquals(1, TestData.count(t, "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = '"
                    + DB + "' AND TABLE_NAME = 'sbtest1' AND INDEX_NAME = 'k_1'"), "deferred index added back");
            assertEquals(0, TestData.count(t, "SELECT COUNT(*) FROM jdm_meta.unit_full_loader_checkpoint "
                    + "WHERE status <> 'finished'"));
        }
        LoadResult again = new LoadUnit(cfg).run();
        assertEquals(0, again.files());
        assertEquals(dataFiles, again.skippedFiles());
        assertEquals(0, again.rows());
        try (Connection s = source.connect(); Connection t = target.connect()) {
            TableName tn = new TableName(DB, "sbtest1");
            TestData.assertSameRows(s, tn, t, tn);
        }
    }

    /** The task file allows pool-size up to 1024; the unit once stopped at 256, after jdm check had passed. */
    @Test
    void aPoolSizeTheTaskFileAcceptsIsOneTheUnitLoadsWith() throws Exception {
        resetTarget("unit_pool", DB);
        LoadConfig cfg = LoadConfig.of("unit_pool", "src1", targetSpec(), dump)
                .withLoader(LoaderConfig.defaults().withPoolSize(300));
        assertEquals(300, cfg.poolSize());
        LoadResult r = new LoadUnit(cfg).run();
        assertTrue(r.completed());
        assertEquals(503 + 3 + 5000, r.rows());
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : TABLES) {
                TableName tn = new TableName(DB, table);
                TestData.assertSameRows(s, tn, t, tn);
            }
        }
    }

    /**
     * With {@code defer-indexes}, the secondary indexes of many tables are added back after the rows,
     * several tables at once: each target table ends with the source's indexes, column by column, and
     * its rows; the unique keys were never deferred.
     */
    @Test
    void theDeferredIndexesOfManyTablesAreAllAddedBack() throws Exception {
        String db = "LoadUnitIT_deferred";
        source.freshDatabase(db);
        int n = 7;
        for (int i = 0; i < n; i++) {
            source.execute("CREATE TABLE " + db + ".t" + i + " (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(20), "
                            + "c INT, KEY ka (a), UNIQUE KEY ub (b), KEY kca (c, a))",
                    "INSERT INTO " + db + ".t" + i + " SELECT seq, seq % 7, CONCAT('b', seq), seq % 11 FROM "
                            + Seq.upTo(300 + i));
        }
        Path dir = tmp.resolve("deferred");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, db, dir, 100, 1000, t -> "");
        }
        resetTarget("unit_deferred", db);
        LoadResult r = new LoadUnit(LoadConfig.of("unit_deferred", "src1", targetSpec(), dir).withPoolSize(4)
                .withDeferIndexes(DeferIndexes.ALWAYS)).run();
        assertTrue(r.completed());
        assertSameIndexes(db, n * 5); // PRIMARY, ka, ub and kca (two columns) in each table
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (int i = 0; i < n; i++) {
                TableName tn = new TableName(db, "t" + i);
                TestData.assertSameRows(s, tn, t, tn);
            }
            assertEquals(0, TestData.count(t, "SELECT COUNT(*) FROM jdm_meta.unit_deferred_loader_checkpoint "
                    + "WHERE status <> 'finished'"));
        }
    }

    /**
     * {@code defer-indexes: auto} adds after the rows the indexes of the tables of its size or more
     * only (lowered here to 40 KB of dump): the checkpoint holds an indexes row for the large table
     * alone, and both tables end with the source's indexes and rows.
     */
    @Test
    void autoDefersTheIndexesOfLargeTablesOnly() throws Exception {
        String db = "LoadUnitIT_auto";
        source.freshDatabase(db);
        for (String t : List.of("small", "large")) {
            source.execute("CREATE TABLE " + db + "." + t + " (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(40), "
                            + "KEY ka (a), KEY kba (b, a))",
                    "INSERT INTO " + db + "." + t + " SELECT seq, seq % 7, CONCAT('row number ', seq) FROM "
                            + Seq.upTo(t.equals("small") ? 50 : 2000));
        }
        Path dir = tmp.resolve("auto");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, db, dir, 10_000, 1_000_000, t -> "");
        }
        resetTarget("unit_auto", db);
        SchemaLoader.deferFromBytes = 40 << 10;
        try {
            LoadResult r = new LoadUnit(LoadConfig.of("unit_auto", "src1", targetSpec(), dir).withPoolSize(2)
                    .withDeferIndexes(DeferIndexes.LARGE_TABLES)).run();
            assertTrue(r.completed());
        } finally {
            SchemaLoader.deferFromBytes = SchemaLoader.DEFER_FROM_BYTES;
        }
        assertEquals(List.of(LoaderCheckpoint.indexKey(new TableName(db, "large")) + " finished"),
                target.rows("SELECT CONCAT(file, ' ', status) FROM jdm_meta.unit_auto_loader_checkpoint"
                        + " WHERE file LIKE 'indexes:%'"));
        assertSameIndexes(db, 2 * 4);
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : List.of("small", "large")) {
                TestData.assertSameRows(s, new TableName(db, table), t, new TableName(db, table));
            }
        }
    }

    /**
     * A load stopped after it created its tables without their secondary indexes adds them when it is
     * run again, though the task file says {@code defer-indexes: false} by then: what the first run
     * deferred is in the checkpoint, so no table is left without an index of the source.
     */
    @Test
    void aRerunAddsTheIndexesAnEarlierRunDeferredWhateverTheTaskFileSaysNow() throws Exception {
        resetTarget("unit_defer_stop", DB);
        LoadConfig cfg = LoadConfig.of("unit_defer_stop", "src1", targetSpec(), dump).withPoolSize(1)
                .withTransactionBytes(1);
        LoadUnit unit = new LoadUnit(cfg.withDeferIndexes(DeferIndexes.ALWAYS));
        java.util.concurrent.CompletableFuture<LoadResult> run =
                java.util.concurrent.CompletableFuture.supplyAsync(unit::run);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (unit.metrics().rows() == 0) {
            assertTrue(System.nanoTime() < deadline, "no rows committed within 30 s");
            Thread.sleep(10);
        }
        unit.stop();
        assertFalse(run.get(30, java.util.concurrent.TimeUnit.SECONDS).completed());
        try (Connection t = target.connect()) {
            assertEquals(0, TestData.count(t, "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA"
                    + " = '" + DB + "' AND TABLE_NAME = 'sbtest1' AND INDEX_NAME = 'k_1'"), "created without it");
        }
        assertTrue(new LoadUnit(cfg.withDeferIndexes(DeferIndexes.NEVER)).run().completed());
        assertSameIndexes(DB, -1);
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : TABLES) {
                TestData.assertSameRows(s, new TableName(DB, table), t, new TableName(DB, table));
            }
            assertEquals(0, TestData.count(t, "SELECT COUNT(*) FROM jdm_meta.unit_defer_stop_loader_checkpoint "
                    + "WHERE status <> 'finished'"));
        }
    }

    /** Every index of {@code db}'s tables, column by column, is the same on both sides: {@code n} rows, unless -1. */
    private static void assertSameIndexes(String db, int n) throws Exception {
        String indexes = "SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME FROM "
                + "information_schema.STATISTICS WHERE TABLE_SCHEMA = '" + db + "' ORDER BY 1, 2, 4";
        List<String> expected = source.rows(indexes);
        if (n >= 0) {
            assertEquals(n, expected.size(), expected.toString());
        }
        assertEquals(expected, target.rows(indexes));
    }

    @Test
    void routesRenameSchemasAndMergeTables() throws Exception {
        String db = "LoadUnitIT_shards";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".shard_1 (id INT PRIMARY KEY, v VARCHAR(20), KEY kv (v))",
                "CREATE TABLE " + db + ".shard_2 LIKE " + db + ".shard_1",
                "CREATE TABLE " + db + ".other (id INT PRIMARY KEY)",
                "INSERT INTO " + db + ".shard_1 SELECT seq, CONCAT('one-', seq) FROM " + Seq.upTo(700),
                "INSERT INTO " + db + ".shard_2 SELECT seq + 1000, CONCAT('two-', seq) FROM " + Seq.upTo(300),
                "INSERT INTO " + db + ".other VALUES (1)",
                "CREATE OR REPLACE VIEW " + db + ".all_shards AS SELECT * FROM " + db + ".shard_1 UNION ALL SELECT * FROM "
                        + db + ".shard_2");
        Path dir = tmp.resolve("shards");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, db, dir, 50, 200, t -> "");
        }
        resetTarget("unit_route", "LoadUnitIT_merged", db);
        LoadConfig cfg = LoadConfig.of("unit_route", "src1", targetSpec(), dir).withPoolSize(3)
                .withDeferIndexes(DeferIndexes.ALWAYS)
                .withTableFilter((d, t) -> !t.equals("other") && !t.equals("all_shards"))
                .withRouter(t -> new TableName("LoadUnitIT_merged", t.table().startsWith("shard_") ? "all_rows"
                        : t.table()));
        LoadResult r = new LoadUnit(cfg).run();
        assertEquals(1000, r.rows());
        try (Connection s = source.connect(); Connection t = target.connect()) {
            TestData.assertSameRows(s, new TableName(db, "all_shards"), t, new TableName("LoadUnitIT_merged", "all_rows"));
            assertEquals(0, TestData.count(t, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_NAME = 'other' "
                    + "AND TABLE_SCHEMA IN ('LoadUnitIT_merged', '" + db + "')"), "filtered table not created");
            assertEquals(1, TestData.count(t, "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = "
                    + "'LoadUnitIT_merged' AND TABLE_NAME = 'all_rows' AND INDEX_NAME = 'kv'"));
        }
    }

    @Test
    void aLockFreeDumpsRowsThatCollideOnAUniqueKeyAreReplacedWhereOnDuplicateIsError() throws Exception {
        String db = "LoadUnitIT_lockfree";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, u INT NOT NULL, UNIQUE KEY (u))",
                "INSERT INTO " + db + ".t SELECT seq, seq FROM " + Seq.upTo(300));
        Path dir = tmp.resolve("lockfree");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, db, dir, 100, 100, t -> "");
        }
        // two chunks read at different moments: row 250 took u = 10 after row 10's chunk was read
        Path last = dir.resolve(db + ".t.000000003.sql");
        Files.writeString(last, Files.readString(last).replace("(250,250)", "(250,10)"));
        Files.deleteIfExists(dir.resolve(FileManifest.NAME));
        String task = "unit_lockfree";
        resetTarget(task, db);
        LoadConfig cfg = LoadConfig.of(task, "src1", targetSpec(), dir).withPoolSize(1);
        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(cfg).run());
        assertTrue(e.getMessage().contains("on-duplicate"), e.getMessage());
        resetTarget(task, db);
        new ChunkPlan("rows=100 where= compress=none", List.of()).writeTo(dir);
        new LoadUnit(cfg).run();
        try (Connection t = target.connect()) {
            assertEquals(299, TestData.count(t, "SELECT COUNT(*) FROM " + db + ".t"));
            assertEquals(250, TestData.count(t, "SELECT id FROM " + db + ".t WHERE u = 10"));
        }
    }

    @Test
    void onDuplicateDecidesWhatHappensToRowsTheTargetAlreadyHas() throws Exception {
        String db = "LoadUnitIT_dup";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO " + db + ".t SELECT seq, CONCAT('src-', seq) FROM " + Seq.upTo(300));
        Path dir = tmp.resolve("dup");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, db, dir, 100, 1000, t -> "");
        }
        for (OnDuplicate mode : OnDuplicate.values()) {
            String task = "unit_dup_" + mode.name().toLowerCase();
            resetTarget(task, db);
            target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO " + db + ".t VALUES (150, 'already here')");
            LoadConfig cfg = LoadConfig.of(task, "src1", targetSpec(), dir).withPoolSize(2).withOnDuplicate(mode)
                    .withTransactionBytes(1);
            try (Connection t = target.connect()) {
                switch (mode) {
                    case ERROR -> {
                        FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(cfg).run());
                        String file = "LoadUnitIT_dup.t.000000001.sql";
                        assertTrue(e.getMessage().contains(file + " at byte offset "), e.getMessage());
                        assertTrue(e.getMessage().contains("on-duplicate"), e.getMessage());
                        assertFalse(e.getMessage().contains("\n"), e.getMessage());
                        // the first statement (rows 1..100) committed with its offset; the second did not
                        assertEquals(101, TestData.count(t, "SELECT COUNT(*) FROM " + db + ".t"));
                        long offset = TestData.count(t, "SELECT `offset` FROM jdm_meta." + task
                                + "_loader_checkpoint WHERE file = '" + file + "'");
                        assertTrue(e.getMessage().contains("at byte offset " + offset + ":"), e.getMessage());
                    }
                    case REPLACE -> {
                        new LoadUnit(cfg).run();
                        try (Connection s = source.connect()) {
                            TestData.assertSameRows(s, new TableName(db, "t"), t, new TableName(db, "t"));
                        }
                    }
                    case IGNORE -> {
                        new LoadUnit(cfg).run();
                        assertEquals(300, TestData.count(t, "SELECT COUNT(*) FROM " + db + ".t"));
                        assertEquals(1, TestData.count(t, "SELECT COUNT(*) FROM " + db + ".t WHERE id = 150 "
                                + "AND v = 'already here'"));
                    }
                    default -> throw new IllegalStateException();
                }
            }
        }
    }

    @Test
    void statementsLargerThanMaxAllowedPacketAreSplit() throws Exception {
        String db = "LoadUnitIT_packet";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(600))",
                "INSERT INTO " + db + ".t SELECT seq, REPEAT(CONCAT(CHAR(65 + seq % 26), 'é'), 250) FROM " + Seq.upTo(400));
        Path dir = tmp.resolve("packet");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, db, dir, 200, 1000, t -> "");
        }
        assertTrue(Files.size(dir.resolve(db + ".t.000000001.sql")) > 200_000);
        resetTarget("unit_packet", db);
        long before = TestData.count(target.connect(), "SELECT @@GLOBAL.max_allowed_packet");
        target.execute("SET GLOBAL max_allowed_packet = 65536");
        try {
            LoadUnit unit = new LoadUnit(LoadConfig.of("unit_packet", "src1", targetSpec(), dir).withPoolSize(1));
            LoadResult r = unit.run();
            assertEquals(400, r.rows());
            assertTrue(unit.metrics().status().get("rows") != null);
            try (Connection s = source.connect(); Connection t = target.connect()) {
                TestData.assertSameRows(s, new TableName(db, "t"), t, new TableName(db, "t"));
            }
        } finally {
            target.execute("SET GLOBAL max_allowed_packet = " + before);
        }
    }

    @Test
    void stopEndsTheRunEarlyAndARerunFinishesIt() throws Exception {
        resetTarget("unit_stop", DB);
        LoadConfig cfg = LoadConfig.of("unit_stop", "src1", targetSpec(), dump).withPoolSize(1).withTransactionBytes(1);
        LoadUnit unit = new LoadUnit(cfg);
        java.util.concurrent.CompletableFuture<LoadResult> run = java.util.concurrent.CompletableFuture.supplyAsync(unit::run);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (unit.metrics().rows() == 0) {
            assertTrue(System.nanoTime() < deadline, "no rows committed within 30 s");
            Thread.sleep(10);
        }
        unit.stop();
        LoadResult stopped = run.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertFalse(stopped.completed());
        assertTrue(stopped.rows() < 503 + 3 + 5000, "stopped before the end: " + stopped.rows());
        LoadResult rest = new LoadUnit(cfg).run();
        assertTrue(rest.completed());
        assertEquals(503 + 3 + 5000, stopped.rows() + rest.rows(), "nothing loaded twice, nothing skipped");
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : TABLES) {
                TableName tn = new TableName(DB, table);
                TestData.assertSameRows(s, tn, t, tn);
            }
        }
    }

    /**
     * The file is one transaction (40 statements of 10 rows, far below the transaction size) on a
     * target that takes 10 ms a row: a stop once its first statement ran commits the statements that
     * ran, with the checkpoint at the end of the last one, and the rerun loads only the rest.
     */
    @Test
    void aStopCommitsTheStatementsThatRanWithTheirOffsetAndARerunLoadsTheRest() throws Exception {
        // the statement path's stop; a stop during LOAD DATA commits nothing (BulkLoadIT)
        target.execute("SET GLOBAL local_infile = 0");
        try {
            stopCommitsTheStatementsThatRan();
        } finally {
            target.execute("SET GLOBAL local_infile = 1");
        }
    }

    private void stopCommitsTheStatementsThatRan() throws Exception {
        String db = "LoadUnitIT_stop_commit";
        resetTarget("unit_stop_commit", db);
        Path dir = tmp.resolve("stop-commit");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(DumpFileNames.databaseSchema(db)), "CREATE DATABASE `" + db + "`;\n");
        Files.writeString(dir.resolve(DumpFileNames.tableSchema(db, "t")),
                "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20));\n");
        String data = TestData.fortyStatements();
        Files.writeString(dir.resolve(DumpFileNames.dataFile(db, "t", 1, "")), data);
        new DumpMetadata(LocalDateTime.now(), LocalDateTime.now(), BinlogPosition.of("mysql-bin.000001", 4), null)
                .writeTo(dir);
        String t = new TableName(db, "t").quoted();
        target.execute("CREATE DATABASE `" + db + "`", "CREATE TABLE " + t + " (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TRIGGER `" + db + "`.slow BEFORE INSERT ON " + t + " FOR EACH ROW DO SLEEP(0.01)");
        LoadConfig cfg = LoadConfig.of("unit_stop_commit", "src1", targetSpec(), dir).withPoolSize(1)
                .withOnDuplicate(OnDuplicate.ERROR);
        LoadUnit unit = new LoadUnit(cfg);
        java.util.concurrent.CompletableFuture<LoadResult> run =
                java.util.concurrent.CompletableFuture.supplyAsync(unit::run);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        try (Connection dirty = target.connect(); Statement st = dirty.createStatement()) {
            // the first statement ran: its rows are in the open transaction, seen only by a dirty read
            dirty.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            while (true) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + t)) {
                    rs.next();
                    if (rs.getLong(1) >= 10) {
                        break;
                    }
                }
                assertTrue(System.nanoTime() < deadline, "the load wrote nothing within 30 s");
                Thread.sleep(5);
            }
        }
        assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM " + t), "the file committed before the stop");
        unit.stop();
        LoadResult stopped = run.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertFalse(stopped.completed());
        long committed = Long.parseLong(target.rows("SELECT COUNT(*) FROM " + t).get(0));
        assertTrue(committed >= 10 && committed < 400 && committed % 10 == 0,
                "not the whole statements that ran before the stop: " + committed);
        assertEquals(committed, stopped.rows());
        List<String> checkpoint = target.rows("SELECT status, `offset`, rows_loaded FROM jdm_meta."
                + Identifiers.quote("unit_stop_commit_loader_checkpoint") + " WHERE file LIKE '%.sql'");
        String statements = data;
        int end = 0;
        for (int i = 0; i < committed / 10; i++) {
            end = statements.indexOf(";\n", end) + 1;
        }
        assertEquals(List.of("loading|" + end + "|" + committed), checkpoint, "the checkpoint is not where the rows are");

        target.execute("DROP TRIGGER `" + db + "`.slow");
        LoadResult rest = new LoadUnit(cfg).run(); // a duplicate key would fail it
        assertTrue(rest.completed());
        assertEquals(400 - committed, rest.rows(), "nothing loaded twice, nothing skipped");
        assertEquals(TestData.fortyStatementsRows(), target.rows("SELECT id, v FROM " + t + " ORDER BY id"));
    }

    @Test
    void eachFileStartsInUtf8mb4WhateverThePreviousFileOnItsConnectionSet() throws Exception {
        String db = "LoadUnitIT_names";
        resetTarget("unit_names", db);
        Path dir = tmp.resolve("names");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(DumpFileNames.databaseSchema(db)), "CREATE DATABASE `" + db + "`;\n");
        Files.writeString(dir.resolve(DumpFileNames.tableSchema(db, "t")),
                "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20)) DEFAULT CHARSET = utf8mb4;\n");
        // one connection loads the files in order: 2 must not inherit latin1 from 1, nor 4 from 3
        List<String> files = List.of(
                "/*!40101 SET NAMES latin1*/;\nINSERT INTO `t` VALUES (1,'a');\n",
                "INSERT INTO `t` VALUES (2,'\u00e9\u20ac\ud83d\ude00');\n",
                "/*!40101 SET NAMES latin1*/;\nINSERT INTO `t` VALUES (3,'b');\n/*!40101 SET NAMES utf8mb4*/;\n"
                        + "INSERT INTO `t` VALUES (4,'\u00fc');\n/*!40101 SET NAMES latin1*/;\n",
                "/*!40101 SET NAMES utf8mb4*/;\nINSERT INTO `t` VALUES (5,'\u00f6');\n",
                "INSERT INTO `t` VALUES (6,'\u00e4');\n");
        for (int i = 0; i < files.size(); i++) {
            Files.writeString(dir.resolve(DumpFileNames.dataFile(db, "t", i + 1, "")), files.get(i));
        }
        new DumpMetadata(LocalDateTime.now(), LocalDateTime.now(), BinlogPosition.of("mysql-bin.000001", 4), null)
                .writeTo(dir);
        LoadResult r = new LoadUnit(LoadConfig.of("unit_names", "src1", targetSpec(), dir).withPoolSize(1)).run();
        assertEquals(6, r.rows());
        List<String> expected = List.of("a", "\u00e9\u20ac\ud83d\ude00", "b", "\u00fc", "\u00f6", "\u00e4");
        try (Connection t = target.connect(); Statement st = t.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, HEX(v) FROM " + new TableName(db, "t").quoted() + " ORDER BY id")) {
            for (int id = 1; id <= expected.size(); id++) {
                assertTrue(rs.next(), "row " + id);
                assertEquals(id, rs.getInt(1));
                assertEquals(HexFormat.of().withUpperCase().formatHex(expected.get(id - 1).getBytes(UTF_8)),
                        rs.getString(2), "row " + id);
            }
            assertFalse(rs.next());
        }
    }

    /**
     * A dump another user could have changed is said in one line that names the paths; the load goes
     * on (a shared directory may be meant). Nothing is said while only the owner may write it.
     */
    @Test
    void aDumpThatOthersMayWriteIsSaidInOneLine() throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "no POSIX permissions");
        String db = "LoadUnitIT_perm";
        source.freshDatabase(db);
        source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY)", "INSERT INTO " + db + ".t VALUES (1), (2)");
        Path dir = tmp.resolve("perm");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, db, dir, 50, 200, t -> "");
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        for (Path f : files) {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        }
        resetTarget("unit_perm", db);
        LoadConfig cfg = LoadConfig.of("unit_perm", "src1", targetSpec(), dir).withPoolSize(1);
        assertEquals(List.of(), othersMayWrite(cfg));

        Path data = dir.resolve(DumpFileNames.dataFile(db, "t", 1, ""));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rw-rw-r--"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        try {
            List<String> said = othersMayWrite(cfg);
            assertEquals(1, said.size(), said.toString());
            assertEquals("load task unit_perm (source src1): the dump in " + dir + " can be changed by other users (group or others"
                    + " may write " + dir + " and " + data + "): the load reads it as it is; chmod go-w them if that is"
                    + " not meant (jdm's dumps are 0700 and 0600)", said.get(0));
        } finally {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
    }

    /** The load's lines about other users who may write the dump, from one run of it. */
    private static List<String> othersMayWrite(LoadConfig cfg) {
        Logger log = (Logger) LoggerFactory.getLogger(LoadUnit.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        log.addAppender(lines);
        try {
            assertTrue(new LoadUnit(cfg).run().completed());
        } finally {
            log.detachAppender(lines);
        }
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("other users")).toList();
    }

    /**
     * With foreign key checks left on (disable-foreign-key-checks: false), a table whose foreign key
     * names a table the dump does not hold is still created as the dump has it: the checks go off
     * around its CREATE TABLE only, and the load's rows are then checked (a row naming no parent
     * stops the load in one line).
     */
    @Test
    void aTableWhoseForeignKeyNamesNoTableIsCreatedWithChecksLeftOn() throws Exception {
        String db = "LoadUnitIT_fk";
        Path dir = tmp.resolve("fk");
        Files.createDirectories(dir);
        String create = "CREATE TABLE `child` (\n  `id` int(11) NOT NULL,\n  `pid` int(11) DEFAULT NULL,\n"
                + "  PRIMARY KEY (`id`),\n  KEY `pid` (`pid`),\n  CONSTRAINT `fk_p` FOREIGN KEY (`pid`) REFERENCES"
                + " `parent` (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=latin1";
        Files.writeString(dir.resolve(DumpFileNames.databaseSchema(db)), "CREATE DATABASE `" + db + "`;\n");
        Files.writeString(dir.resolve(DumpFileNames.tableSchema(db, "child")), create + ";\n");
        Files.writeString(dir.resolve(DumpFileNames.dataFile(db, "child", 1, "")),
                "INSERT INTO `child` VALUES (1,NULL),(2,7);\n");
        new io.jdm.common.dumpdir.DumpMetadata(java.time.LocalDateTime.now(), java.time.LocalDateTime.now(),
                io.jdm.common.position.BinlogPosition.of("mysql-bin.000001", 4), null).writeTo(dir);
        resetTarget("unit_fk", db);
        LoadConfig cfg = LoadConfig.of("unit_fk", "src1", targetSpec(), dir).withPoolSize(1)
                .withFastPath(false, true, false);
        JdmException e = assertThrows(JdmException.class, () -> new LoadUnit(cfg).run());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("foreign key") || e.getMessage().contains("FOREIGN KEY"), e.getMessage());
        String shown = target.rows("SHOW CREATE TABLE `" + db + "`.`child`").get(0);
        assertTrue(shown.contains("CONSTRAINT `fk_p` FOREIGN KEY (`pid`) REFERENCES `parent` (`id`)"), shown);
        assertEquals(List.of(), target.rows("SELECT id FROM `" + db + "`.`child`"), "no row of the failed file");
    }

    /**
     * A target database that is already there is not created again: on MySQL 8.0 even CREATE
     * DATABASE IF NOT EXISTS waits for the schema's metadata lock, which an open transaction that
     * wrote one of its tables holds, and lock_wait_timeout is a year by default. A database whose
     * name differs only in case is another database, and is created.
     */
    @Test
    void anExistingTargetDatabaseAnOpenTransactionWroteInDoesNotHoldTheLoad() throws Exception {
        String busy = "LoadUnitIT_busy";
        String cased = "LoadUnitIT_Cased";
        Path dir = tmp.resolve("busy");
        Files.createDirectories(dir);
        for (String db : List.of(busy, cased)) {
            Files.writeString(dir.resolve(DumpFileNames.databaseSchema(db)), "CREATE DATABASE `" + db + "`;\n");
            Files.writeString(dir.resolve(DumpFileNames.tableSchema(db, "t")),
                    "CREATE TABLE `t` (`id` int NOT NULL, PRIMARY KEY (`id`));\n");
            Files.writeString(dir.resolve(DumpFileNames.dataFile(db, "t", 1, "")), "INSERT INTO `t` VALUES (1),(2);\n");
        }
        new io.jdm.common.dumpdir.DumpMetadata(java.time.LocalDateTime.now(), java.time.LocalDateTime.now(),
                io.jdm.common.position.BinlogPosition.of("mysql-bin.000001", 4), null).writeTo(dir);
        resetTarget("unit_busy", busy, cased, cased.toLowerCase(java.util.Locale.ROOT));
        target.execute("CREATE DATABASE " + busy, "CREATE TABLE " + busy + ".other (id INT PRIMARY KEY)",
                "CREATE DATABASE " + cased.toLowerCase(java.util.Locale.ROOT));
        LoadConfig cfg = LoadConfig.of("unit_busy", "src1", targetSpec(), dir).withPoolSize(1);
        java.util.concurrent.ExecutorService one = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (Connection open = target.connect(); java.sql.Statement st = open.createStatement()) {
            open.setAutoCommit(false);
            st.execute("INSERT INTO " + busy + ".other VALUES (1)"); // left uncommitted while the load runs
            java.util.concurrent.Future<LoadResult> load = one.submit(() -> new LoadUnit(cfg).run());
            LoadResult r;
            try {
                r = load.get(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                List<String> waiting = target.rows("SELECT CONCAT(IFNULL(STATE, ''), ': ', IFNULL(INFO, '')) FROM"
                        + " information_schema.PROCESSLIST WHERE STATE LIKE '%lock%'");
                open.rollback(); // lets the load go on, so the test ends
                throw new AssertionError("the load waited for the open transaction: " + waiting);
            }
            assertTrue(r.completed());
            open.rollback();
        } finally {
            one.shutdownNow();
        }
        for (String db : List.of(busy, cased)) {
            assertEquals(List.of("1", "2"), target.rows("SELECT id FROM `" + db + "`.t ORDER BY id"), db);
        }
    }

    @Test
    void aDumpWithoutMetadataIsRefused() throws Exception {
        Path dir = tmp.resolve("incomplete");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("x-schema-create.sql"), "CREATE DATABASE x;\n");
        FatalException e = assertThrows(FatalException.class,
                () -> new LoadUnit(LoadConfig.of("unit_nometa", "src1", targetSpec(), dir)).run());
        assertTrue(e.getMessage().contains("no metadata file") && e.getMessage().contains("incomplete"), e.getMessage());
    }
}
