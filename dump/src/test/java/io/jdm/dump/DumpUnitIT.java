package io.jdm.dump;

import io.jdm.embedded.Seq;
import io.jdm.common.config.Compression;
import io.jdm.common.config.Consistency;
import io.jdm.embedded.TypeMatrix;
import static io.jdm.dump.DumpTestSupport.checksum;
import static io.jdm.dump.DumpTestSupport.fileNames;
import static io.jdm.dump.DumpTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableReadCache;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dump end to end: files executed on the target must reproduce the source exactly. */
class DumpUnitIT {
    private static final String DB = "DumpUnitIT";
    private static final String WIDE_DB = "DumpUnitIT_wide";
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path tmp;

    @BeforeAll
    static void setUp() {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        source.freshDatabase(DB);
        TableName types = new TableName(DB, "types");
        source.execute(TypeMatrix.createTable(types.quoted()));
        source.execute(TypeMatrix.inserts(types.quoted()).toArray(String[]::new));
        source.execute("USE `DumpUnitIT`",
                "CREATE TABLE `DumpUnitIT`.`big` (id BIGINT PRIMARY KEY, k INT NOT NULL, c CHAR(120), pad CHAR(60))",
                "INSERT INTO `DumpUnitIT`.`big` SELECT seq * 3, seq % 97, CONCAT('c-', seq, ' it''s'), REPEAT('p', 60)"
                        + " FROM " + Seq.upTo(10000),
                "CREATE TABLE `DumpUnitIT`.`composite` (region VARCHAR(20) NOT NULL, n INT NOT NULL, v TEXT,"
                        + " PRIMARY KEY (region, n))",
                "INSERT INTO `DumpUnitIT`.`composite` SELECT ELT(1 + seq % 5, 'éast', 'west', 'north', 'south', 'a''b'),"
                        + " seq, REPEAT('v', seq % 30) FROM " + Seq.upTo(3000),
                "CREATE TABLE `DumpUnitIT`.`nokey` (a INT, b VARCHAR(10))",
                "INSERT INTO `DumpUnitIT`.`nokey` VALUES (1, 'x'), (1, 'x'), (NULL, NULL), (2, '')",
                "CREATE TABLE `DumpUnitIT`.`we``ird.name` (id INT PRIMARY KEY, `sel``ect` VARCHAR(5))",
                "INSERT INTO `DumpUnitIT`.`we``ird.name` VALUES (1, 'a;b'), (2, ';')",
                "CREATE TABLE `DumpUnitIT`.`empty` (id INT PRIMARY KEY)",
                "CREATE VIEW `DumpUnitIT`.`v_big` AS SELECT id, k FROM `DumpUnitIT`.`big` WHERE k = 1",
                "ANALYZE TABLE `DumpUnitIT`.`big`, `DumpUnitIT`.`composite`");
        source.freshDatabase(WIDE_DB);
        source.execute("USE `DumpUnitIT_wide`",
                "CREATE TABLE wide (id INT PRIMARY KEY, v VARCHAR(2000))",
                "INSERT INTO wide SELECT seq, CONCAT(seq, REPEAT('w', 1000)) FROM " + Seq.upTo(2500));
    }

    private static final List<String> TABLES = List.of("types", "big", "composite", "nokey", "we`ird.name", "empty");

    private DumpConfig config(Path dir) {
        return DumpConfig.defaults("it", DumpTestSupport.spec(source), dir)
                .withTableFilter((db, tbl) -> db.equals(DB));
    }

    private static void assertSameOnTarget() throws Exception {
        for (String t : TABLES) {
            TableName name = new TableName(DB, t);
            assertEquals(rows(source, name), rows(target, name), "rows of " + name);
            assertEquals(source.hexRows(DB, t), target.hexRows(DB, t), "every column as hex of " + name);
            if (source.checksumTableIsStable()) {
                assertEquals(checksum(source, name), checksum(target, name), "CHECKSUM TABLE " + name);
            }
        }
    }

    @Test
    void chunkedParallelDumpReloadsToIdenticalTables() throws Exception {
        Path dir = tmp.resolve("chunked");
        DumpUnit unit = new DumpUnit(config(dir).withThreads(4).withRows(500).withStatementSize(4096));
        DumpResult result = unit.run();

        assertEquals(6, result.tables());
        long expectedRows = 5 + 10000 + 3000 + 4 + 2;
        assertEquals(expectedRows, result.rows());
        assertEquals(result.rows(), unit.metrics().rows());
        assertTrue(result.bytes() > 10000 * 80, "bytes " + result.bytes());
        List<String> names = fileNames(dir);
        long bigFiles = names.stream().filter(n -> n.startsWith("DumpUnitIT.big.")).count();
        // ~20 chunk files by the row estimate, which InnoDB samples: MySQL's can be a third off the count
        assertTrue(bigFiles >= 12, "the 10000-row table is split into ~20 chunk files: " + bigFiles);
        long compositeFiles = names.stream().filter(n -> n.startsWith("DumpUnitIT.composite.")).count();
        assertTrue(compositeFiles >= 2, "the composite-key table is split too: " + compositeFiles);
        assertEquals(6, unit.metrics().tablesDone());

        DumpTestSupport.load(dir, target);
        assertSameOnTarget();
    }

    /**
     * A schema of many tables has their columns and keys read together ({@link SchemaReader#readTogether}):
     * each table still dumps its own columns and reloads identically, keyed or not.
     */
    @Test
    void aSchemaOfManyTablesDumpsEachWithItsOwnColumns() throws Exception {
        String db = "DumpUnitIT_many";
        int n = TableReadCache.WHOLE_AFTER + 4;
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS `" + db + "`");
        for (int i = 0; i < n; i++) {
            String key = i % 3 == 0 ? "" : i % 3 == 1 ? ", PRIMARY KEY (id)" : ", UNIQUE KEY u (c" + i + ", id)";
            source.execute("CREATE TABLE `" + db + "`.t" + i + " (id INT NOT NULL, c" + i + " VARCHAR(" + (i + 1)
                            + ") NOT NULL DEFAULT ''" + key + ")",
                    "INSERT INTO `" + db + "`.t" + i + " VALUES (1, 'a'), (2, '" + "b".repeat(i + 1) + "')");
        }
        Path dir = tmp.resolve("many");
        DumpResult result = new DumpUnit(DumpConfig.defaults("it", DumpTestSupport.spec(source), dir)
                .withTableFilter((d, t) -> d.equals(db))).run();
        assertEquals(n, result.tables());
        assertEquals(2L * n, result.rows());
        for (int i = 0; i < n; i++) {
            String data = Files.readString(dir.resolve(DumpFileNames.dataFile(db, "t" + i, 1, "")));
            assertTrue(data.contains("INSERT INTO `t" + i + "` (`id`,`c" + i + "`) VALUES"), data);
        }
        DumpTestSupport.load(dir, target);
        for (int i = 0; i < n; i++) {
            assertEquals(source.hexRows(db, "t" + i), target.hexRows(db, "t" + i), "t" + i);
        }
    }

    @Test
    void layoutMetadataAndFileFormat() throws Exception {
        Path dir = tmp.resolve("layout");
        BinlogPosition before;
        try (Connection c = DumpTestSupport.open(source)) {
            before = Flavor.detect(c).currentPosition(c);
        }
        DumpResult result = new DumpUnit(config(dir)).run();

        List<String> names = fileNames(dir);
        assertTrue(names.contains("metadata"));
        assertTrue(names.contains("DumpUnitIT-schema-create.sql"));
        assertTrue(names.contains("DumpUnitIT.big-schema.sql"));
        assertTrue(names.contains("DumpUnitIT.big.000000001.sql"));
        assertTrue(names.contains("DumpUnitIT.empty-schema.sql"));
        assertFalse(names.stream().anyMatch(n -> n.startsWith("DumpUnitIT.empty.")), "an empty table has no data file");
        assertTrue(names.contains("DumpUnitIT.v_big-schema-view.sql"));
        assertEquals("/*!40101 SET NAMES utf8mb4*/;\nCREATE TABLE `v_big`(\n`id` int,\n`k` int\n)ENGINE=MyISAM;\n",
                Files.readString(dir.resolve("DumpUnitIT.v_big-schema.sql")), "Dumpling's placeholder table");
        String weird = DumpFileNames.dataFile(DB, "we`ird.name", 1, "");
        assertTrue(names.contains(weird), weird + " in " + names);
        assertEquals("we`ird.name", DumpFileNames.parse(weird).orElseThrow().table());

        DumpMetadata md = DumpMetadata.readFrom(dir).orElseThrow();
        assertEquals(before, md.position(), "nothing was written meanwhile, so the position is the current one");
        assertEquals(before, result.position());
        assertTrue(md.position().hasGtid());
        assertEquals("flush", md.consistency());
        assertEquals(source.rows("SELECT @@GLOBAL.sql_mode").get(0), md.sourceSqlMode(),
                "the source's global sql_mode, not the one the dump's sessions read in");
        assertNotNull(md.started());
        assertNotNull(md.finished());

        String data = Files.readString(dir.resolve(weird));
        assertEquals(DataFileWriter.HEADER + "INSERT INTO `we``ird.name` (`id`,`sel``ect`) VALUES\n(1,'a;b'),\n(2,';');\n",
                data);
        String schema = Files.readString(dir.resolve("DumpUnitIT.big-schema.sql"));
        assertTrue(schema.startsWith("/*!40101 SET NAMES utf8mb4*/;\n/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n"
                + "CREATE TABLE `big` ("), schema);
        assertTrue(schema.endsWith(";\n"));
        String view = Files.readString(dir.resolve("DumpUnitIT.v_big-schema-view.sql"));
        assertTrue(view.startsWith("/*!40101 SET NAMES utf8mb4*/;\nDROP TABLE IF EXISTS `v_big`;\n"
                + "DROP VIEW IF EXISTS `v_big`;\n"), view);
        assertTrue(view.contains("SET character_set_client = utf8mb4;\n"), view);
        assertTrue(view.contains("VIEW `v_big` AS select `big`.`id`"), view);
    }

    @Test
    void statementAndFileSizeLimitsSplitOutput() throws Exception {
        Path dir = tmp.resolve("sizes");
        DumpResult result = new DumpUnit(config(dir).withThreads(2).withStatementSize(8192).withChunkFileSizeMb(1)
                .withTableFilter((db, tbl) -> db.equals(WIDE_DB))).run();
        assertEquals(1, result.tables());
        List<String> files = fileNames(dir).stream().filter(n -> n.startsWith(WIDE_DB + ".wide.")).toList();
        assertEquals(3, files.size(), "~2.6 MB in 1 MB files: " + files);
        long total = 0;
        for (String f : files) {
            long size = Files.size(dir.resolve(f));
            total += size;
            assertTrue(size < 1024 * 1024 + 8192 + 1100, f + " is " + size + " bytes");
            List<String> statements = DumpTestSupport.split(Files.readString(dir.resolve(f)));
            assertTrue(statements.size() > 10, f + " has " + statements.size() + " statements");
            for (String stmt : statements.subList(2, statements.size())) {
                assertTrue(stmt.startsWith("INSERT INTO `wide` (`id`,`v`) VALUES\n("), stmt.substring(0, 40));
                assertTrue(stmt.length() < 8192 + 1100, "statement of " + stmt.length() + " chars");
            }
        }
        assertTrue(total > 2_500_000, "total " + total);
        DumpTestSupport.load(dir, target);
        TableName wide = new TableName(WIDE_DB, "wide");
        assertEquals(checksum(source, wide), checksum(target, wide));
        assertEquals(rows(source, wide), rows(target, wide));
    }

    /**
     * DM's tests dump with statement-size 100: a statement ends once it reaches the bound, so rows
     * of {@code big} (each longer than that with the INSERT prefix) go one per statement, and the
     * dump still reloads to the same tables.
     */
    @Test
    void aStatementSizeBelowOneRowWritesOneRowPerStatement() throws Exception {
        Path dir = tmp.resolve("tiny-statements");
        DumpResult result = new DumpUnit(config(dir).withThreads(2).withRows(2000).withStatementSize(100)).run();
        assertEquals(5 + 10000 + 3000 + 4 + 2, result.rows());
        long bigInserts = 0;
        for (String n : fileNames(dir)) {
            if (n.startsWith(DB + ".big.") && n.endsWith(".sql")) {
                bigInserts += DumpTestSupport.split(DumpTestSupport.read(dir.resolve(n))).stream()
                        .filter(s -> s.startsWith("INSERT INTO ")).count();
            }
        }
        assertEquals(10000, bigInserts, "one INSERT per row of big");
        DumpTestSupport.load(dir, target);
        assertSameOnTarget();
    }

    @Test
    void whereConditionFiltersEveryChunk() throws Exception {
        Path dir = tmp.resolve("where");
        DumpResult result = new DumpUnit(config(dir).withRows(1000).withWhere("id % 2 = 0")
                .withTableFilter((db, tbl) -> db.equals(DB) && tbl.equals("big"))).run();
        assertEquals(5000, result.rows());
        DumpTestSupport.load(dir, target);
        try (Connection c = DumpTestSupport.open(target); var st = c.createStatement();
             var rs = st.executeQuery("SELECT COUNT(*), SUM(id % 2), SUM(id) FROM `DumpUnitIT`.`big`")) {
            rs.next();
            assertEquals(5000, rs.getLong(1));
            assertEquals(0, rs.getLong(2));
            assertEquals(3L * 2 * (5000L * 5001 / 2), rs.getLong(3), "every even id 6, 12, ..., 30000");
        }
    }

    /** The data files' contents, decompressed and sorted: equal for two dumps of the same data and chunking. */
    private static List<String> dataContents(Path dir) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        for (String n : fileNames(dir)) {
            if (DumpFileNames.parse(n).map(p -> p.kind() == DumpFileNames.Kind.DATA).orElse(false)) {
                out.add(DumpTestSupport.read(dir.resolve(n)));
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    @Test
    void compressedFilesHoldTheSameSqlAsPlainOnes() throws Exception {
        Path plain = tmp.resolve("plain");
        new DumpUnit(config(plain).withRows(2000)).run();
        List<String> expected = dataContents(plain);
        assertTrue(expected.size() >= 5, "chunked: " + expected.size());
        for (Compression c : List.of(Compression.GZIP, Compression.ZSTD)) {
            Path dir = tmp.resolve(c.name());
            new DumpUnit(config(dir).withCompress(c).withRows(2000)).run();
            List<String> names = fileNames(dir);
            assertTrue(names.contains("DumpUnitIT.big.000000001.sql" + c.suffix()), names.toString());
            assertTrue(names.contains("DumpUnitIT.big-schema.sql" + c.suffix()), names.toString());
            assertTrue(names.stream().filter(n -> !n.equals("metadata") && !n.equals(FileManifest.NAME))
                    .allMatch(n -> n.endsWith(c.suffix())));
            assertEquals(expected, dataContents(dir), c + " data files");
            assertEquals(DumpTestSupport.read(plain.resolve("DumpUnitIT.types-schema.sql")),
                    DumpTestSupport.read(dir.resolve("DumpUnitIT.types-schema.sql" + c.suffix())));
        }
    }

    @Test
    void lockAndNoneModesAreRecordedAndDumpTheSameData() throws Exception {
        Path flush = tmp.resolve("flush");
        new DumpUnit(config(flush).withRows(2000)).run();
        for (Consistency mode : List.of(Consistency.LOCK, Consistency.NONE)) {
            Path dir = tmp.resolve(mode.label());
            new DumpUnit(config(dir).withConsistency(mode).withRows(2000)).run();
            assertEquals(mode.label(), DumpMetadata.readFrom(dir).orElseThrow().consistency());
            assertEquals(dataContents(flush), dataContents(dir), mode + " data files");
        }
    }

    @Test
    void autoFallsBackToLockTablesWhenFtwrlIsNotPermitted() throws Exception {
        source.execute("CREATE USER IF NOT EXISTS 'dumpit_limited'@'127.0.0.1' IDENTIFIED BY 'pw'",
                "GRANT SELECT, LOCK TABLES, SHOW VIEW, " + source.binlogMonitorPrivilege() + " ON *.* TO 'dumpit_limited'@'127.0.0.1'");
        Path dir = tmp.resolve("auto-limited");
        DumpConfig cfg = config(dir).withRows(2000);
        cfg = new DumpConfig(cfg.task(), cfg.sourceId(),
                io.jdm.common.jdbc.ConnectionSpec.of(source.host(), source.port(), "dumpit_limited", "pw"),
                dir, cfg.mydumper(), cfg.tableFilter(), cfg.tableWhere()).withConsistency(Consistency.AUTO)
                .withWhere(null).withCompress(Compression.NONE);
        DumpResult r = new DumpUnit(cfg).run();
        assertEquals("lock", DumpMetadata.readFrom(dir).orElseThrow().consistency());
        assertNotNull(r.position());
        Path flush = tmp.resolve("flush-ref");
        new DumpUnit(config(flush).withRows(2000)).run();
        assertEquals(dataContents(flush), dataContents(dir));
    }
}
