package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.MysqlLatin1;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files not begun load as one LOAD DATA LOCAL per group of a table's files ({@link BulkLoader}):
 * every value arrives as the dump's INSERT would have stored it, values whose text would mean
 * something else take the statements, a stop commits nothing of the group, and a target without
 * local_infile loads by statements. The source runs the very INSERT statements of the file, so it
 * holds what they mean; the target must hold the same bytes.
 */
class BulkLoadIT {
    private static final String HEADER = HandDump.HEADER;
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void servers() {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
    }

    @Test
    void everyEscapeAndLiteralArrivesAsTheInsertWouldStoreIt() throws Exception {
        String db = "BulkLoadIT_values";
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, s VARCHAR(200) CHARACTER SET utf8mb4,"
                + " l VARCHAR(50) CHARACTER SET latin1, vb VARBINARY(64), bl BLOB, e ENUM('a','b','2'),"
                + " d DECIMAL(12,3), f DOUBLE, dt DATETIME(6), ts TIMESTAMP NULL DEFAULT NULL, n INT NULL,"
                + " tx TEXT CHARACTER SET utf8mb4)";
        byte[] first = bytes(HEADER, "INSERT INTO `t` VALUES (1,'a\\0b\\bc\\nd\\re\\tf\\Zg\\\\h\\'i\\\"j\\%k\\_l','caf",
                new byte[] {(byte) 0xe9}, "',0x00090A5C4E0D,X'5C4E0a09','b',-12.5,1.5e3,'2024-02-29 12:34:56.123456',"
                        + "'2038-01-19 03:14:07',NULL,'NULL');\n",
                "INSERT INTO `t` VALUES (2,'it''s \"q\" and ''''','',X'','\\\\N','2',-0.00,-0.0,'1000-01-01 00:00:00',"
                        + "'1970-01-01 00:00:01',-2147483648,'\\\\N');\n");
        byte[] second = bytes(HEADER, "INSERT INTO `t` VALUES\n (3,\"double \\\"quoted\\\" \"\"x\"\" 'single'\","
                + "'tab\traw',0xff,'raw\nnewline','a',99999999.999,1.7976931348623157e308,"
                + "'9999-12-31 23:59:59.999999',NULL,2147483647,'\u00dcn\u00efc\u00f6d\u00e9 \ud83d\udc2c \\\\ back'),\n"
                + " ( 4 , '' , NULL,NULL,NULL,NULL,NULL,-1E-3,NULL,NULL,NULL,''),\n"
                + " (5,NULL,NULL,NULL,NULL,NULL,-0,-0e0,NULL,NULL,-0,NULL);\n");
        Path dir = dump(db, create, first, second);
        loadsAsOneLoadDataLikeTheSource("bulk_values", dir, db, 5);
        assertEquals(List.of("finished|2", "finished|3"), target.rows("SELECT status, rows_loaded FROM jdm_meta."
                + "bulk_values_loader_checkpoint WHERE file LIKE '%.sql' ORDER BY file"));
    }

    /**
     * A UTF-8 file into a table whose text is all utf8mb4 (as a dump by jdm of such a table is): the
     * rows are read as bytes ({@link BulkLoader#readAs}), and characters of several bytes beside
     * escapes, raw tabs and newlines, and binary values that are not UTF-8, arrive as they were.
     */
    @Test
    void aUtf8TableLoadsItsTextAndBytesAsTheyWere() throws Exception {
        String db = "BulkLoadIT_utf8";
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, s VARCHAR(100), e ENUM('\u00e9','\ud83d\ude00','x'),"
                + " vb VARBINARY(20), tx TEXT) DEFAULT CHARSET = utf8mb4";
        byte[] file = bytes("/*!40101 SET NAMES utf8mb4*/;\n/*!40103 SET TIME_ZONE='+00:00' */;\n"
                + "INSERT INTO `t` VALUES (1,'\u00e9\\tdolphin \ud83d\udc2c\\\\','\u00e9',0xE9095C0A00F0,'\u65e5\u672c\\n\u8a9e'),"
                + "(2,'tab\traw \u00e9\nnewline\u00e9','\ud83d\ude00',X'F09F',''),"
                + "(3,NULL,'x',NULL,'\\'\u00e9\\'\u00e9\\\\\u00e9');\n");
        Path dir = dump(db, create, file);
        loadsAsOneLoadDataLikeTheSource("bulk_utf8", dir, db, 3);
        assertEquals(List.of("1|C3A909646F6C7068696E20F09F90AC5C|E9095C0A00F0", "2|7461620972617720C3A90A6E65776C696E65C3A9|F09F"),
                target.rows("SELECT id, HEX(s), HEX(vb) FROM " + new TableName(db, "t").quoted() + " WHERE id < 3 ORDER BY id"));
    }

    /**
     * While LOAD DATA fills a table it created, the load keeps MariaDB's statistics thread off it
     * ({@code STATS_AUTO_RECALC = 0}); once the rows are in, the table is as its definition says and
     * its statistics count them, also when the load stopped in between and ran again. A definition
     * that sets the option, and a table that was there before, keep theirs.
     */
    @Test
    void aTableTheLoadCreatesGetsItsStatisticsBackWithItsRows() throws Exception {
        assumeTrue(target.flavor().equals("mariadb"), "the load pauses statistics on MariaDB targets only (LoadJob)");
        String db = "BulkLoadIT_stats";
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20), KEY v (v))";
        byte[] file = bytes(HEADER, "INSERT INTO `t` VALUES (1,'a'),(2,'b'),(3,'c');\n");
        Path dir = dump(db, create, file);
        LoadConfig cfg = config("bulk_stats", dir);
        TableName t = new TableName(db, "t");
        // a table this small loads in far less time than the statistics thread could spin: no pause
        assertTrue(new LoadUnit(cfg).run().completed());
        assertEquals(showCreate(source, t), showCreate(target, t));
        assertEquals(List.of(), target.rows("SELECT status FROM jdm_meta.bulk_stats_loader_checkpoint"
                + " WHERE file LIKE 'stats:%'"), "a small table's statistics were paused");
        target.execute("DROP DATABASE `" + db + "`", "DROP TABLE jdm_meta.bulk_stats_loader_checkpoint");
        SchemaLoader.pauseFromBytes = 0;
        try {
            pausedWhileFilling(db, create, file, cfg, t);
        } finally {
            SchemaLoader.pauseFromBytes = SchemaLoader.PAUSE_FROM_BYTES;
        }
    }

    private void pausedWhileFilling(String db, String create, byte[] file, LoadConfig cfg, TableName t)
            throws Exception {
        assertTrue(new LoadUnit(cfg).run().completed());
        assertEquals(showCreate(source, t), showCreate(target, t));
        assertEquals(List.of("3"), target.rows("SELECT n_rows FROM mysql.innodb_table_stats WHERE database_name = '"
                + db + "' AND table_name = 't'"), "statistics computed for the rows loaded");
        assertEquals(List.of("finished"), target.rows("SELECT status FROM jdm_meta.bulk_stats_loader_checkpoint"
                + " WHERE file LIKE 'stats:%'"));

        // as a load that stopped after creating the table leaves it: paused, its checkpoint row pending
        target.execute("ALTER TABLE " + t.quoted() + " STATS_AUTO_RECALC = 0",
                "UPDATE jdm_meta.bulk_stats_loader_checkpoint SET status = 'pending' WHERE file LIKE 'stats:%'");
        assertTrue(new LoadUnit(cfg).run().completed());
        assertEquals(showCreate(source, t), showCreate(target, t), "the rerun gives the statistics back");

        String own = "BulkLoadIT_stats_own";
        Path ownDir = dump(own, "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20)) STATS_AUTO_RECALC=1", file);
        assertTrue(new LoadUnit(config("bulk_stats_own", ownDir)).run().completed());
        assertEquals(showCreate(source, new TableName(own, "t")), showCreate(target, new TableName(own, "t")));

        String there = "BulkLoadIT_stats_there";
        Path thereDir = dump(there, create, file);
        target.execute("CREATE DATABASE `" + there + "`",
                "CREATE TABLE `" + there + "`.`t` (id INT PRIMARY KEY, v VARCHAR(20), KEY v (v)) STATS_AUTO_RECALC=0");
        assertTrue(new LoadUnit(config("bulk_stats_there", thereDir)).run().completed());
        assertEquals(List.of("stats_auto_recalc=0"), target.rows("SELECT CREATE_OPTIONS FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = '" + there + "' AND TABLE_NAME = 't'"), "a table that was there keeps its own");
        assertEquals(3, target.rows("SELECT id FROM `" + there + "`.`t`").size());
    }

    private static String showCreate(SqlServer server, TableName t) throws Exception {
        return server.rows("SHOW CREATE TABLE " + t.quoted()).get(0);
    }

    /** The file's SET NAMES and time zone apply to its rows as they would to its INSERTs. */
    @Test
    void theFilesCharacterSetAndTimeZoneTravelWithItsRows() throws Exception {
        String db = "BulkLoadIT_session";
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, s VARCHAR(20) CHARACTER SET utf8mb4, ts TIMESTAMP NULL)"
                + " DEFAULT CHARSET = latin1";
        byte[] file = bytes("/*!40101 SET NAMES latin1*/;\n/*!40103 SET TIME_ZONE='+05:30' */;\n"
                        + "/*!40101 SET SQL_MODE='STRICT_TRANS_TABLES,NO_AUTO_VALUE_ON_ZERO'*/;\n"
                        + "INSERT INTO `t` VALUES (1,'caf\u00e9','2024-03-01 10:00:00'),",
                "(2,'\u00e9','1970-01-01 05:30:01');\n");
        Path dir = dump(db, create, file);
        loadsAsOneLoadDataLikeTheSource("bulk_session", dir, db, 2);
        assertEquals(List.of("1|636166C383C2A9|1709267400", "2|C383C2A9|1"), target.rows("SELECT id, HEX(s),"
                + " UNIX_TIMESTAMP(ts) FROM " + new TableName(db, "t").quoted() + " ORDER BY id"),
                "the UTF-8 bytes of \u00e9 read as two latin1 characters, times read in +05:30");
    }

    /**
     * A UTF-8 file into a latin1 table: the rows go as bytes, each character of a latin1 column
     * written as its latin1 byte ({@link TsvRows.Column#LATIN1}), all 224 printable ones among them,
     * the five Windows leaves undefined too; a utf8mb4 column beside them keeps its UTF-8 and a binary
     * one its bytes. The target holds what the source's INSERTs stored. (The column is wide enough
     * for the UTF-8 bytes too: written untranslated they would be stored, not refused.)
     */
    @Test
    void aLatin1TableTakesEachCharacterAsItsLatin1Byte() throws Exception {
        String db = "BulkLoadIT_latin1_bytes";
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, l VARCHAR(1000), u VARCHAR(20) CHARACTER SET utf8mb4,"
                + " vb VARBINARY(20)) DEFAULT CHARSET = latin1";
        StringBuilder every = new StringBuilder();
        for (int b = 0x20; b < 256; b++) {
            if (b != '\'' && b != '\\') {
                every.append(MysqlLatin1.toUnicode((byte) b));
            }
        }
        byte[] file = bytes("/*!40101 SET NAMES utf8mb4*/;\n/*!40103 SET TIME_ZONE='+00:00' */;\n"
                + "INSERT INTO `t` VALUES (1,'" + every + "','\u65e5\ud83d\udc2c',0xC3A9),"
                + "(2,'tab\\t\u00e9\\\\ \u0081\u20ac\ttab','\u00e9','\u00e9'),(3,NULL,NULL,NULL);\n");
        Path dir = dump(db, create, file);
        loadsAsOneLoadDataLikeTheSource("bulk_latin1_bytes", dir, db, 3);
        assertEquals(List.of("2|74616209E95C20818009746162|C3A9|C3A9"), target.rows("SELECT id, HEX(l),"
                + " HEX(u), HEX(vb) FROM " + new TableName(db, "t").quoted() + " WHERE id = 2"));
    }

    /**
     * A character a latin1 column has no byte for (the source stored {@code ?} for it, sql_mode
     * not strict) sends its file by statements, which store what the source's INSERTs stored: as
     * bytes, its UTF-8 would have been two latin1 characters.
     */
    @Test
    void aCharacterLatin1CannotHoldGoesByStatements() throws Exception {
        String db = "BulkLoadIT_latin1_lost";
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, l VARCHAR(30)) DEFAULT CHARSET = latin1";
        byte[] file = bytes("/*!40101 SET NAMES utf8mb4*/;\n/*!40101 SET SQL_MODE=''*/;\n"
                + "INSERT INTO `t` VALUES (1,'caf\u00e9'),(2,'Rig\u0101 \u0123');\n");
        Path dir = dump(db, create, file);
        assertTrue(new LoadUnit(config("bulk_latin1_lost", dir)).run().completed());
        assertSameAsSource(db); // the LOAD DATA begun is rolled back where the character stands
        assertEquals(List.of("1|636166E9", "2|5269673F203F"), target.rows("SELECT id, HEX(l) FROM "
                + new TableName(db, "t").quoted() + " ORDER BY id"));
    }

    /**
     * A UTF-8 file into a table of utf8mb3 text (MySQL 5.7's utf8) goes as bytes, as it is; a
     * character of four bytes (the source stored {@code ?} for it, sql_mode not strict) sends the
     * file by statements. The target holds what the source's INSERTs stored.
     */
    @Test
    void aUtf8mb3TableTakesItsTextAsItIsAndACharacterOfFourBytesGoesByStatements() throws Exception {
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, s VARCHAR(100), e ENUM('\u00e9','\u65e5','x'),"
                + " l VARCHAR(20) CHARACTER SET latin1) DEFAULT CHARSET = utf8mb3";
        String rows = "INSERT INTO `t` VALUES (1,'\u65e5\u672c\\t\u8a9e \u00e9\ttab','\u65e5','caf\u00e9'),"
                + "(2,'\u20ac \\\\ \\'q\\'','\u00e9',NULL),(3,NULL,'x','\u00ff');\n";
        String db = "BulkLoadIT_mb3";
        Path dir = dump(db, create, bytes("/*!40101 SET NAMES utf8mb4*/;\n/*!40101 SET SQL_MODE=''*/;\n" + rows));
        loadsAsOneLoadDataLikeTheSource("bulk_mb3", dir, db, 3);
        assertEquals(List.of("1|E697A5E69CAC09E8AA9E20C3A909746162|E697A5|636166E9"), target.rows("SELECT id, HEX(s),"
                + " HEX(e), HEX(l) FROM " + new TableName(db, "t").quoted() + " WHERE id = 1"));
        String four = "BulkLoadIT_mb3_four";
        Path fourDir = dump(four, create, bytes("/*!40101 SET NAMES utf8mb4*/;\n/*!40101 SET SQL_MODE=''*/;\n"
                + rows.replace("\u20ac", "\ud83d\udc2c")));
        assertTrue(new LoadUnit(config("bulk_mb3_four", fourDir)).run().completed());
        assertSameAsSource(four);
    }

    /**
     * A latin1 file's raw byte that is not UTF-8 (as an older dump of a latin1 table holds it) loads
     * as the latin1 character it is, by LOAD DATA and statement by statement alike.
     */
    @Test
    void aLatin1ByteThatIsNotUtf8LoadsAsItsCharacterEitherWay() throws Exception {
        String db = "BulkLoadIT_latin1";
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, s VARCHAR(20) CHARACTER SET utf8mb4,"
                + " l VARCHAR(20) CHARACTER SET latin1)";
        byte[] file = bytes("/*!40101 SET NAMES latin1*/;\n/*!40103 SET TIME_ZONE='+00:00' */;\n"
                + "INSERT INTO `t` VALUES (1,'caf", new byte[] {(byte) 0xe9},
                "','", new byte[] {(byte) 0xe9}, "t", new byte[] {(byte) 0xe9}, "'),(2,'plain','x');\n");
        for (int infile : new int[] {1, 0}) {
            Path dir = dump(db, create);
            Files.write(dir.resolve(DumpFileNames.dataFile(db, "t", 1, "")), file);
            target.execute("SET GLOBAL local_infile = " + infile);
            try {
                long loads = comLoad();
                LoadResult r = new LoadUnit(config("bulk_latin1", dir)).run();
                assertTrue(r.completed());
                assertEquals(infile, comLoad() - loads, "local_infile " + infile);
            } finally {
                target.execute("SET GLOBAL local_infile = 1");
            }
            assertEquals(List.of("1|636166C3A9|E974E9", "2|706C61696E|78"), target.rows("SELECT id, HEX(s), HEX(l)"
                    + " FROM " + new TableName(db, "t").quoted() + " ORDER BY id"), "local_infile " + infile);
        }
    }

    /**
     * A file's session that LOAD DATA would not honour sends its files by statements, each case
     * holding what the source's INSERTs stored: EMPTY_STRING_IS_NULL ('' stored NULL), a
     * collation_connection after SET NAMES (literals converted to latin1 on the way), and sql_mode
     * ORACLE (which implies ANSI_QUOTES) read by name.
     */
    @Test
    void aSessionLoadDataWouldNotHonourGoesByStatements() throws Exception {
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, s VARCHAR(20) CHARACTER SET utf8mb4 NULL)";
        List<String[]> cases = new java.util.ArrayList<>();
        cases.add(new String[] {"collation", "/*!40101 SET NAMES utf8mb4*/;\nSET collation_connection = latin1_swedish_ci;\n"});
        boolean mariadb = source.flavor().equals("mariadb") && target.flavor().equals("mariadb");
        if (mariadb) { // MariaDB's modes (MySQL 8.0 has no ORACLE)
            cases.add(new String[] {"empty", "/*!40101 SET NAMES utf8mb4*/;\nSET sql_mode = 'EMPTY_STRING_IS_NULL';\n"});
            cases.add(new String[] {"oracle", "/*!40101 SET NAMES utf8mb4*/;\nSET sql_mode = 'ORACLE';\n"});
        }
        for (String[] c : cases) {
            String db = "BulkLoadIT_session_" + c[0];
            Path dir = dump(db, create, bytes(c[1], "INSERT INTO `t` VALUES (1,''),(2,'\u65e5\u672c caf\u00e9');\n"));
            long loads = comLoad();
            assertTrue(new LoadUnit(config("bulk_session_" + c[0], dir)).run().completed(), c[0]);
            assertEquals(0, comLoad() - loads, c[0] + " goes by statements");
            assertSameAsSource(db);
        }
        if (mariadb) {
            assertEquals(List.of("1|"), target.rows("SELECT id, HEX(s) FROM `BulkLoadIT_session_empty`.t WHERE s IS NULL"));
        }
        assertEquals(List.of("2|3F3F20636166C3A9"), target.rows("SELECT id, HEX(s) FROM `BulkLoadIT_session_collation`.t"
                + " WHERE id = 2"), "converted to latin1 and back, as the INSERT did");
    }

    /** An unquoted number is an index to an ENUM, a year to YEAR, bits to BIT: as text it would be a label or a string. */
    @Test
    void valuesWhoseTextMeansAnotherValueLoadAsStatements() throws Exception {
        String db = "BulkLoadIT_meaning";
        String create = "CREATE TABLE `t` (id INT PRIMARY KEY, e ENUM('2','1'), y YEAR, b BIT(8))";
        Path dir = dump(db, create, bytes(HEADER, "INSERT INTO `t` VALUES (1,'2',2024,b'101');\n",
                "INSERT INTO `t` VALUES (2,2,0,5);\n"));
        LoadResult r = new LoadUnit(config("bulk_meaning", dir)).run();
        assertTrue(r.completed());
        assertSameAsSource(db);
        assertEquals(List.of("1|2|2024|5", "2|1|0000|5"), target.rows("SELECT id, e, CAST(y AS CHAR), b + 0 FROM "
                + new TableName(db, "t").quoted() + " ORDER BY id"));
    }

    @Test
    void aStopDuringLoadDataCommitsNothingAndTheRerunLoadsEveryRowOnce() throws Exception {
        String db = "BulkLoadIT_stop";
        Path dir = dump(db, "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))",
                (HEADER + TestData.fortyStatements()).getBytes(StandardCharsets.UTF_8));
        String t = new TableName(db, "t").quoted();
        target.execute("CREATE DATABASE `" + db + "`", "CREATE TABLE " + t + " (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TRIGGER `" + db + "`.slow BEFORE INSERT ON " + t + " FOR EACH ROW DO SLEEP(0.01)");
        LoadConfig cfg = config("bulk_stop", dir);
        LoadUnit unit = new LoadUnit(cfg);
        long loads = comLoad();
        CompletableFuture<LoadResult> run = CompletableFuture.supplyAsync(unit::run);
        // no dirty read of the table: MariaDB's reader can wait forever on a bulk insert being rolled back
        awaitLoadDataAfter(loads);
        Thread.sleep(500); // a tenth of its 400 rows, 10 ms each
        assertEquals(List.of("1"), target.rows("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                + " WHERE INFO LIKE 'DO SLEEP%'"), "the LOAD DATA is still running");
        assertEquals(1, comLoad() - loads, "the rows arrive through LOAD DATA");
        unit.stop();
        LoadResult stopped = run.get(30, TimeUnit.SECONDS);
        assertFalse(stopped.completed());
        assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM " + t), "a stop commits nothing of the group");
        assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM jdm_meta.bulk_stop_loader_checkpoint"
                + " WHERE status = 'finished' OR `offset` > 0"));

        target.execute("DROP TRIGGER `" + db + "`.slow");
        LoadResult rest = new LoadUnit(cfg).run(); // a duplicate key would fail it
        assertTrue(rest.completed());
        assertEquals(400, rest.rows());
        assertEquals(TestData.fortyStatementsRows(), target.rows("SELECT id, v FROM " + t + " ORDER BY id"));
    }

    /**
     * On MariaDB the load never runs InnoDB's bulk insert (an empty table written with unique_checks
     * and foreign_key_checks off), whose end can deadlock with a reader of the table for good: while
     * its LOAD DATA runs, the table is locked IX, as by any insert, not X as by the bulk insert.
     */
    @Test
    void onMariaDbTheLoadDoesNotRunTheBulkInsertAReaderCanHang() throws Exception {
        assumeTrue(target.flavor().equals("mariadb"), "MariaDB's InnoDB bulk insert");
        String db = "BulkLoadIT_nobulk";
        Path dir = dump(db, "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))",
                (HEADER + TestData.fortyStatements()).getBytes(StandardCharsets.UTF_8));
        String t = new TableName(db, "t").quoted();
        target.execute("CREATE DATABASE `" + db + "`", "CREATE TABLE " + t + " (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TRIGGER `" + db + "`.slow BEFORE INSERT ON " + t + " FOR EACH ROW DO SLEEP(0.01)",
                "SET GLOBAL innodb_status_output_locks = ON");
        try {
            long loads = comLoad();
            CompletableFuture<LoadResult> run = CompletableFuture.supplyAsync(new LoadUnit(config("bulk_nobulk", dir))::run);
            awaitLoadDataAfter(loads);
            Thread.sleep(500);
            String status = target.rows("SHOW ENGINE INNODB STATUS").get(0);
            assertTrue(status.contains("TABLE LOCK table " + t + " trx id") && status.contains("lock mode IX"), status);
            assertFalse(status.matches("(?s).*TABLE LOCK table " + java.util.regex.Pattern.quote(t)
                    + " trx id \\d+ lock mode X\\b.*"), status);
            assertTrue(run.get(60, TimeUnit.SECONDS).completed());
        } finally {
            target.execute("SET GLOBAL innodb_status_output_locks = OFF");
        }
        assertEquals(TestData.fortyStatementsRows(), target.rows("SELECT id, v FROM " + t + " ORDER BY id"));
    }

    /**
     * A target that has every row of a LOAD DATA and does not answer (here a trigger sleeping on the
     * last row, once: its mark is in a MyISAM table, which the rollback leaves) is killed after the
     * answer timeout, and the group loads by statements: every row once, none lost.
     */
    @Test
    void aLoadDataTheTargetDoesNotAnswerIsKilledAndTheGroupLoadsByStatements() throws Exception {
        String db = "BulkLoadIT_unanswered";
        Path dir = dump(db, "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))",
                (HEADER + TestData.fortyStatements()).getBytes(StandardCharsets.UTF_8));
        String t = new TableName(db, "t").quoted();
        String mark = new TableName(db, "mark").quoted();
        target.execute("CREATE DATABASE `" + db + "`", "CREATE TABLE " + t + " (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE " + mark + " (slept INT) ENGINE=MyISAM", "INSERT INTO " + mark + " VALUES (0)",
                "CREATE TRIGGER `" + db + "`.hang BEFORE INSERT ON " + t + " FOR EACH ROW BEGIN"
                        + " IF NEW.id = 400 AND (SELECT slept FROM " + mark + ") = 0 THEN"
                        + " UPDATE " + mark + " SET slept = 1; DO SLEEP(60); END IF; END");
        long before = BulkLoader.answerNanos;
        BulkLoader.answerNanos = TimeUnit.SECONDS.toNanos(2);
        try {
            long loads = comLoad();
            long start = System.nanoTime();
            LoadResult r = new LoadUnit(config("bulk_unanswered", dir)).run();
            assertTrue(r.completed());
            assertEquals(1, comLoad() - loads, "one LOAD DATA, then statements");
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(40), "the sleep was cut short");
        } finally {
            BulkLoader.answerNanos = before;
        }
        assertEquals(List.of("1"), target.rows("SELECT slept FROM " + mark));
        assertEquals(TestData.fortyStatementsRows(), target.rows("SELECT id, v FROM " + t + " ORDER BY id"));
    }

    /**
     * With unique_checks off, MariaDB finds two rows holding one value of a unique key only at
     * COMMIT and says "Got error 1"; the load runs the table again with the checks on, and the
     * failure names the key and the value, by LOAD DATA and by statements alike.
     */
    @Test
    void aUniqueKeyCollisionUnderUniqueChecksOffIsNamed() throws Exception {
        assumeTrue(target.flavor().equals("mariadb"), "MariaDB checks unique keys at COMMIT with unique_checks off");
        String db = "BulkLoadIT_unique";
        for (int infile : new int[] {1, 0}) {
            Path dir = dump(db, "CREATE TABLE `t` (id INT PRIMARY KEY, u INT)",
                    bytes(HEADER, "INSERT INTO `t` VALUES (1,5),(2,6),(3,5);\n"));
            target.execute("CREATE DATABASE `" + db + "`",
                    "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, u INT, UNIQUE KEY uk (u))",
                    "SET GLOBAL local_infile = " + infile);
            try {
                LoadConfig cfg = config("bulk_unique", dir).withFastPath(true, true, false);
                FatalException e = assertThrows(FatalException.class, () -> new LoadUnit(cfg).run());
                assertTrue(e.getMessage().contains("Duplicate entry '5' for key 'uk'"), e.getMessage());
            } finally {
                target.execute("SET GLOBAL local_infile = 1");
            }
            assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM `" + db + "`.t"), "nothing committed");
        }
    }

    /**
     * Files that set back after their rows what their first statements set (as mysqldump's do):
     * the second file on the connection has its first statements run again, so that its rows go
     * in under its own time zone, by LOAD DATA and by statements.
     */
    @Test
    void aFileAfterOneThatSetBackItsSessionHasItsRowsInItsOwnSession() throws Exception {
        for (int infile : new int[] {1, 0}) {
            String db = "BulkLoadIT_setback" + infile;
            String head = "/*!40101 SET NAMES utf8mb4*/;\nSET @saved_zone = @@time_zone;\nSET time_zone = '+05:00';\n";
            String tail = "SET time_zone = @saved_zone;\n";
            Path dir = dump(db, "CREATE TABLE `t` (id INT PRIMARY KEY, ts TIMESTAMP NULL)",
                    bytes(head, "INSERT INTO `t` VALUES (1,'2020-01-01 00:00:00');\n", tail),
                    bytes(head, "INSERT INTO `t` VALUES (2,'2020-01-01 00:00:00');\n", tail));
            target.execute("SET GLOBAL local_infile = " + infile);
            try {
                assertTrue(new LoadUnit(config("bulk_setback", dir)).run().completed());
            } finally {
                target.execute("SET GLOBAL local_infile = 1");
            }
            assertSameAsSource(db);
            assertEquals(List.of("1"), target.rows("SELECT COUNT(DISTINCT UNIX_TIMESTAMP(ts)) FROM `" + db + "`.t"),
                    "both rows at the same instant");
        }
    }

    @Test
    void aTargetWithoutLocalInfileLoadsByStatements() throws Exception {
        String db = "BulkLoadIT_noinfile";
        Path dir = dump(db, "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))",
                bytes(HEADER, "INSERT INTO `t` VALUES (1,'a\\tb'),(2,NULL);\n"));
        target.execute("SET GLOBAL local_infile = 0");
        try {
            long loads = comLoad();
            LoadResult r = new LoadUnit(config("bulk_noinfile", dir)).run();
            assertTrue(r.completed());
            assertEquals(0, comLoad() - loads);
        } finally {
            target.execute("SET GLOBAL local_infile = 1");
        }
        assertSameAsSource(db);
    }

    private static Path dump(String db, String create, byte[]... files) throws Exception {
        return HandDump.write(source, target, tmp, null, db, create, files);
    }

    private static LoadConfig config(String task, Path dir) {
        return HandDump.config(target, task, dir);
    }

    /** Loads {@code dir} as task {@code task}: all its rows, in one LOAD DATA, the target then equal to the source. */
    private static void loadsAsOneLoadDataLikeTheSource(String task, Path dir, String db, long rows) throws Exception {
        HandDump.loadsAsOneLoadData(target, task, dir, rows);
        assertSameAsSource(db);
    }

    private static void assertSameAsSource(String db) throws Exception {
        HandDump.assertSameAsSource(source, target, db);
    }

    /** Waits (30 s at most) until the target has begun a LOAD DATA since it had run {@code loads}. */
    private static void awaitLoadDataAfter(long loads) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (comLoad() == loads) {
            assertTrue(System.nanoTime() < deadline, "no LOAD DATA began within 30 s");
            Thread.sleep(5);
        }
    }

    private static long comLoad() throws Exception {
        return HandDump.comLoad(target);
    }

    private static byte[] bytes(Object... parts) {
        return HandDump.bytes(parts);
    }
}
