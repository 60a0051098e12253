package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.OnDuplicate;
import io.jdm.common.sql.TableName;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.List;
import org.junit.jupiter.api.Test;

class RewriterTest {
    private static final TableName TARGET = new TableName("tdb", "we`ird");

    @Test
    void insertHeadIsRoutedAndFollowsOnDuplicate() {
        String sql = "INSERT INTO `t``x` (`a`,`b`) VALUES (1,'x'),(2,'y')";
        InsertRewriter.Insert ins = InsertRewriter.rewrite(sql, TARGET, OnDuplicate.ERROR);
        assertEquals("INSERT INTO `tdb`.`we``ird` (`a`,`b`) VALUES (1,'x'),(2,'y')", ins.sql());
        assertTrue(ins.columnList());
        assertEquals("REPLACE INTO `tdb`.`we``ird` VALUES (1)",
                InsertRewriter.rewrite("insert ignore into db.t VALUES (1)", TARGET, OnDuplicate.REPLACE).sql());
        InsertRewriter.Insert ig = InsertRewriter.rewrite("REPLACE INTO `s`.`t` VALUES (1)", TARGET, OnDuplicate.IGNORE);
        assertEquals("INSERT IGNORE INTO `tdb`.`we``ird` VALUES (1)", ig.sql());
        assertFalse(ig.columnList());
        assertThrows(IllegalArgumentException.class, () -> InsertRewriter.rewrite("DELETE FROM t", TARGET,
                OnDuplicate.ERROR));
    }

    @Test
    void splitKeepsEveryRowOnceAndEachPieceUnderTheLimit() {
        String head = "INSERT INTO `d`.`t` (`a`,`b`) VALUES ";
        StringBuilder sb = new StringBuilder(head);
        for (int i = 0; i < 50; i++) {
            sb.append(i == 0 ? "" : ",").append("(").append(i).append(",'v),(\\'").append("é".repeat(i)).append("')");
        }
        String sql = sb.toString();
        assertEquals(List.of(sql), InsertRewriter.split(sql, 1 << 20));
        List<String> pieces = InsertRewriter.split(sql, 300);
        assertTrue(pieces.size() > 3, pieces.toString());
        StringBuilder rows = new StringBuilder();
        for (String p : pieces) {
            assertTrue(p.getBytes(StandardCharsets.UTF_8).length <= 300, p);
            assertTrue(p.startsWith(head), p);
            rows.append(rows.length() == 0 ? "" : ",").append(p.substring(head.length()));
        }
        assertEquals(sql.substring(head.length()), rows.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InsertRewriter.split(sql, 60));
        assertTrue(e.getMessage().contains("max_allowed_packet"), e.getMessage());
    }

    @Test
    void createTableIsQualifiedAndMadeIdempotent() {
        SchemaRewriter.TableDdl d = SchemaRewriter.createTable(
                "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB", TARGET, false);
        assertEquals("CREATE TABLE IF NOT EXISTS `tdb`.`we``ird` (\n  `id` int NOT NULL,\n  PRIMARY KEY (`id`)\n)"
                + " ENGINE=InnoDB", d.create());
        assertEquals("CREATE DATABASE IF NOT EXISTS `x` /*!40100 DEFAULT CHARACTER SET utf8mb4 */",
                SchemaRewriter.createDatabase("CREATE DATABASE `src` /*!40100 DEFAULT CHARACTER SET utf8mb4 */", "x"));
    }

    @Test
    void aTableOptionGoesRightAfterTheColumnListAndNotIntoALikeOrAPartitionClause() {
        String create = "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  `c` varchar(9) DEFAULT ')',\n  PRIMARY KEY (`id`),\n"
                + "  KEY `c` (`c`)\n) ENGINE=InnoDB COMMENT='(x)'\n PARTITION BY HASH (`id`) PARTITIONS 2";
        SchemaRewriter.TableDdl d = SchemaRewriter.createTable(create, TARGET, true, "STATS_AUTO_RECALC=0");
        assertTrue(d.optionAdded());
        assertEquals("CREATE TABLE IF NOT EXISTS `tdb`.`we``ird` (\n  `id` int NOT NULL,\n  `c` varchar(9) DEFAULT ')',\n"
                + "  PRIMARY KEY (`id`)\n) STATS_AUTO_RECALC=0 ENGINE=InnoDB COMMENT='(x)'\n PARTITION BY HASH (`id`)"
                + " PARTITIONS 2", d.create());
        assertEquals(List.of("c"), d.deferred().stream().map(SchemaRewriter.Index::name).toList());
        SchemaRewriter.TableDdl like = SchemaRewriter.createTable("CREATE TABLE `t` LIKE `u`", TARGET, false,
                "STATS_AUTO_RECALC=0");
        assertFalse(like.optionAdded());
        assertEquals("CREATE TABLE IF NOT EXISTS `tdb`.`we``ird` LIKE `u`", like.create());
    }

    @Test
    void deferredIndexesLeaveTheCreateAndComeBackAsOneAlter() {
        String create = "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  `k` int DEFAULT NULL,\n"
                + "  `c` varchar(10) DEFAULT 'a,b',\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `u` (`c`),\n"
                + "  KEY `k_1` (`k`),\n  FULLTEXT KEY `ft` (`c`)\n) ENGINE=InnoDB COMMENT='x, KEY y'";
        SchemaRewriter.TableDdl d = SchemaRewriter.createTable(create, TARGET, true);
        assertEquals("CREATE TABLE IF NOT EXISTS `tdb`.`we``ird` (\n  `id` int NOT NULL,\n  `k` int DEFAULT NULL,\n"
                + "  `c` varchar(10) DEFAULT 'a,b',\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `u` (`c`)\n)"
                + " ENGINE=InnoDB COMMENT='x, KEY y'", d.create());
        assertEquals(List.of("k_1", "ft"), d.deferred().stream().map(SchemaRewriter.Index::name).toList());
        assertEquals("ALTER TABLE `tdb`.`we``ird` ADD KEY `k_1` (`k`), ADD FULLTEXT KEY `ft` (`c`)",
                SchemaRewriter.addIndexes(TARGET, d.deferred()));
        String fk = "CREATE TABLE `c` (`id` int, `p` int, KEY `p` (`p`), CONSTRAINT `f` FOREIGN KEY (`p`) "
                + "REFERENCES `p` (`id`))";
        assertTrue(SchemaRewriter.createTable(fk, TARGET, true).deferred().isEmpty());
    }

    @Test
    void classifiesStatementsThroughVersionComments() {
        assertEquals(SqlText.Kind.SESSION, SqlText.kind("/*!40101 SET NAMES binary*/"));
        assertEquals(SqlText.Kind.SESSION, SqlText.kind("-- c\nSET FOREIGN_KEY_CHECKS=0"));
        assertEquals(SqlText.Kind.DATA, SqlText.kind("/* x */ INSERT INTO t VALUES (1)"));
        assertEquals(SqlText.Kind.OTHER, SqlText.kind("DROP TABLE t"));
    }

    @Test
    void recognisesAStatementThatOnlySetsNames() {
        assertTrue(SqlText.isSetNames("/*!40101 SET NAMES binary*/"));
        assertTrue(SqlText.isSetNames("set names 'utf8mb4' collate utf8mb4_bin"));
        assertTrue(SqlText.isSetNames(" SET NAMES latin1 "));
        assertTrue(SqlText.isSetNames("/*! SET NAMES latin1 */"));
        assertFalse(SqlText.isSetNames("/*!90000 SET NAMES latin1*/"), "a target older than 9.0 skips it");
        assertFalse(SqlText.isSetNames("SET NAMES utf8mb4, time_zone = '+00:00'"));
        assertFalse(SqlText.isSetNames("/*!40101 SET character_set_client = latin1*/"));
        assertFalse(SqlText.isSetNames("SET FOREIGN_KEY_CHECKS=0"));
        // the character set literals are read in, statement by statement
        assertEquals("latin1", SqlText.sessionCharset("utf8mb4", "/*!40101 SET NAMES latin1*/"));
        assertEquals("latin1", SqlText.sessionCharset("latin1", "/*!40103 SET TIME_ZONE='+00:00' */"));
        assertNull(SqlText.sessionCharset("latin1", "/*!40101 SET character_set_client = cp1251*/"));
        assertNull(SqlText.sessionCharset("latin1", "SET NAMES utf8mb4, time_zone = '+00:00'"));
        assertNull(SqlText.sessionCharset("utf8mb4", "SET collation_connection = latin1_swedish_ci"),
                "string literals are converted into the connection's character set");
    }

    @Test
    void readsTheSqlModeFlagsASessionStatementSetsByName() {
        assertEquals(Set.of("STRICT_TRANS_TABLES", "NO_AUTO_VALUE_ON_ZERO"),
                SqlText.sqlModeFlags("/*!40101 SET SQL_MODE='STRICT_TRANS_TABLES,NO_AUTO_VALUE_ON_ZERO'*/"));
        assertEquals(Set.of("ORACLE"), SqlText.sqlModeFlags("set session sql_mode = 'oracle'"));
        assertEquals(Set.of("EMPTY_STRING_IS_NULL"), SqlText.sqlModeFlags("SET @@sql_mode='EMPTY_STRING_IS_NULL';"));
        assertEquals(Set.of(), SqlText.sqlModeFlags("SET sql_mode = ''"));
        assertEquals(Set.of(), SqlText.sqlModeFlags("/*!40103 SET TIME_ZONE='+00:00' */"), "no sql_mode named");
        assertNull(SqlText.sqlModeFlags("SET sql_mode = @OLD_SQL_MODE"), "not read");
        assertNull(SqlText.sqlModeFlags("SET @m = @@sql_mode, sql_mode = 'ANSI'"), "not read");
        assertNull(SqlText.sqlModeFlags("SET sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES')"), "not read");
    }

    @Test
    void invalidUtf8InAStringLiteralBecomesAHexLiteral() {
        byte[] withUtf8 = "INS ('a\\'b','é')".getBytes(StandardCharsets.UTF_8);
        assertEquals("INS ('a\\'b','é')", SqlText.decode(withUtf8));
        byte[] bad = new byte[] {'I', 'N', 'S', ' ', '(', '\'', 'a', (byte) 0xff, '\\', '\'', '\\', '0', '\'', ',',
                '\'', 'o', 'k', '\'', ')'};
        assertEquals("INS (X'61FF2700','ok')", SqlText.decode(bad));
        // after SET NAMES latin1 the literal is a latin1 string of those bytes, as in the source's session
        assertEquals("INS (_latin1 X'61FF2700','ok')", SqlText.decode(bad, "latin1"));
        assertEquals("INS (X'61FF2700','ok')", SqlText.decode(bad, "binary"));
        assertEquals("INS (X'61FF2700','ok')", SqlText.decode(bad, null));
        // the same statement where the statement splitter hands it over: inside a larger buffer
        byte[] around = new byte[bad.length + 7];
        System.arraycopy(bad, 0, around, 3, bad.length);
        around[0] = (byte) 0xfe; // bytes around it that are not UTF-8 either, and must not be read
        around[around.length - 1] = (byte) 0xfe;
        assertEquals("INS (_latin1 X'61FF2700','ok')", SqlText.decode(around, 3, 3 + bad.length, "latin1"));
        assertEquals("INS ('a\\'b','é')", SqlText.decode(withUtf8, 0, withUtf8.length, null));
        // a literal with an introducer or N of its own keeps it, before a bare hex literal
        byte[] own = "INS (_cp1251 'a\u00ff',N'b\u00ff',_binary'c\u00ff')".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("INS (_cp1251 X'61FF',NX'62FF',_binaryX'63FF')", SqlText.decode(own, "latin1"));
    }

    @Test
    void commentsAndLiteralsHoldNoKeywordsParenthesesOrCommas() {
        String sql = "INSERT /* VALUES (x), */ INTO `t` VALUES (1,'VALUES (2),(3)'),(2,'b -- ('),(3,\"),\\\"\")";
        String head = "INSERT /* VALUES (x), */ INTO `t` VALUES ";
        assertEquals(List.of(head + "(1,'VALUES (2),(3)')", head + "(2,'b -- ('),(3,\"),\\\"\")"),
                InsertRewriter.split(sql, 70));

        String create = "CREATE TABLE `t` (\n  `id` int /* a, KEY (b) */ NOT NULL,\n  `c` char(1) DEFAULT ')',\n"
                + "  KEY `k` (`c`) -- a, b)\n)";
        SchemaRewriter.TableDdl d = SchemaRewriter.createTable(create, TARGET, true);
        assertEquals("CREATE TABLE IF NOT EXISTS `tdb`.`we``ird` (\n  `id` int /* a, KEY (b) */ NOT NULL,\n"
                + "  `c` char(1) DEFAULT ')'\n)", d.create());
        assertEquals(List.of("k"), d.deferred().stream().map(SchemaRewriter.Index::name).toList());

        byte[] bad = new byte[] {'I', 'N', 'S', ' ', '/', '*', ' ', 'i', 't', '\'', 's', ' ', '*', '/', ' ', '(',
                '\'', 'a', (byte) 0xff, '\'', ')'};
        assertEquals("INS /* it's */ (X'61FF')", SqlText.decode(bad));
    }

    @Test
    void theDefinerClauseIsDroppedWhereverTheViewWritesIt() {
        assertEquals("CREATE ALGORITHM=UNDEFINED SQL SECURITY DEFINER VIEW `v` AS SELECT 'DEFINER=`a`@`b`' AS x",
                SchemaRewriter.withoutDefiner("CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`%` SQL SECURITY DEFINER "
                        + "VIEW `v` AS SELECT 'DEFINER=`a`@`b`' AS x"));
        assertEquals("/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 SQL SECURITY DEFINER */ /*!50001 VIEW `v` AS "
                + "SELECT 1 */", SchemaRewriter.withoutDefiner("/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 "
                + "DEFINER = 'u'@localhost SQL SECURITY DEFINER */ /*!50001 VIEW `v` AS SELECT 1 */"));
        assertEquals("CREATE /* DEFINER=`a`@`b` */ VIEW v AS SELECT 1",
                SchemaRewriter.withoutDefiner("CREATE /* DEFINER=`a`@`b` */ VIEW v AS SELECT 1"));
    }
}
