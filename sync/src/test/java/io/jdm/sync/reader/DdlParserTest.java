package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.EventType;
import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.TableName;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class DdlParserTest {
    private static final UnaryOperator<TableName> TO_X = t -> new TableName("x_" + t.schema(), t.table().isEmpty()
            ? "" : "r_" + t.table());

    @Test
    void findsTheTablesOfCommonDdl() {
        assertEquals(List.of(new TableName("db", "t")), DdlParser.tables("db", "ALTER TABLE t ADD COLUMN x INT"));
        assertEquals(List.of(new TableName("o", "we`ird")),
                DdlParser.tables("db", "create table if not exists `o`.`we``ird` (a int)"));
        assertEquals(List.of(new TableName("db", "a"), new TableName("x", "b")), DdlParser.tables("db", "DROP TABLE a, x.b"));
        assertEquals(List.of(new TableName("db", "a"), new TableName("db", "b")), DdlParser.tables("db", "RENAME TABLE a TO b"));
        assertEquals(List.of(new TableName("db", "t")), DdlParser.tables("db", "CREATE UNIQUE INDEX i ON t (a)"));
        assertEquals(List.of(new TableName("db", "t")), DdlParser.tables("db", "TRUNCATE t"));
        assertEquals(List.of(), DdlParser.tables("db", "CREATE DATABASE x"));
        assertEquals(List.of(), DdlParser.tables("db", "GRANT ALL ON *.* TO x"));
        assertNull(DdlParser.parse("db", "CREATE TEMPORARY TABLE t (a INT)"));
        assertNull(DdlParser.parse("db", "CREATE VIEW v AS SELECT 1"));
    }

    @Test
    void rowChangingStatementsAreToldByTheirFirstWord() {
        for (DdlGrammar g : List.of(DdlGrammar.mariadb(), DdlGrammar.mysql(), DdlGrammar.mysql(50722))) {
            assertEquals("INSERT", DdlParser.dmlVerb("/* app */ insert into t values (1)", g), g.toString());
            assertEquals("UPDATE", DdlParser.dmlVerb("UPDATE t SET a = 1", g), g.toString());
            assertEquals("DELETE", DdlParser.dmlVerb("  DELETE FROM t", g), g.toString());
            assertEquals("REPLACE", DdlParser.dmlVerb("replace t values (1)", g), g.toString());
            assertEquals("LOAD", DdlParser.dmlVerb("LOAD DATA INFILE 'f' INTO TABLE t", g), g.toString());
            assertEquals("WITH", DdlParser.dmlVerb("WITH c AS (SELECT 1) UPDATE t, c SET t.a = 1", g), g.toString());
            assertEquals(null, DdlParser.dmlVerb("CREATE TABLE t (a INT)", g), g.toString());
            assertEquals(null, DdlParser.dmlVerb("CREATE OR REPLACE TABLE t (a INT)", g), g.toString());
            assertEquals(null, DdlParser.dmlVerb("GRANT SELECT ON *.* TO u", g), g.toString());
            assertEquals(null, DdlParser.dmlVerb("SAVEPOINT s", g), g.toString());
            assertEquals(null, DdlParser.dmlVerb("XA START 'x'", g), g.toString());
        }
    }

    @Test
    void theTableAPartitionIsExchangedWithIsTouchedToo() {
        for (DdlGrammar g : List.of(DdlGrammar.mariadb(), DdlGrammar.mysql())) {
            ParsedDdl d = DdlParser.parseWith("db", "ALTER TABLE tb1 EXCHANGE PARTITION p0 WITH TABLE d.tb2",
                    SqlDialect.DEFAULT, g);
            assertEquals(List.of(new TableName("db", "tb1"), new TableName("d", "tb2")), d.touched(), g.toString());
            assertEquals(new TableName("db", "tb1"), d.primary(), g.toString());
        }
    }

    @Test
    void kindsAreTheFilterEventTypes() {
        assertEquals(EventType.CREATE_DATABASE, DdlParser.parse("", "CREATE SCHEMA IF NOT EXISTS d").kind());
        assertEquals(EventType.DROP_DATABASE, DdlParser.parse("", "drop database `d`").kind());
        assertEquals(EventType.DROP_INDEX, DdlParser.parse("d", "DROP INDEX i ON t").kind());
        assertEquals(EventType.TRUNCATE_TABLE, DdlParser.parse("d", "TRUNCATE TABLE t").kind());
        assertEquals(EventType.RENAME_TABLE, DdlParser.parse("d", "RENAME TABLE a TO b").kind());
    }

    @Test
    void rewritesEveryNameAndLeavesTheRestAlone() {
        assertEquals("ALTER TABLE `x_db`.`r_t` ADD COLUMN `t` INT COMMENT 'db.t'",
                DdlParser.parse("db", "ALTER TABLE t ADD COLUMN `t` INT COMMENT 'db.t'").rewrite(TO_X));
        assertEquals("CREATE TABLE `x_o`.`r_we``ird` LIKE `x_db`.`r_src`",
                DdlParser.parse("db", "CREATE TABLE `o`.`we``ird` LIKE src").rewrite(TO_X));
        assertEquals("create /* gh-ost */ table `x_d`.`r__t_gho` like `x_d`.`r_t`",
                DdlParser.parse("", "create /* gh-ost */ table `d`.`_t_gho` like `d`.`t`").rewrite(TO_X));
        assertEquals("ALTER TABLE `x_db`.`r_c` ADD CONSTRAINT f FOREIGN KEY (p) REFERENCES `x_db`.`r_p` (id)",
                DdlParser.parse("db", "ALTER TABLE c ADD CONSTRAINT f FOREIGN KEY (p) REFERENCES p (id)").rewrite(TO_X));
        assertEquals("ALTER TABLE `x_db`.`r_a` RENAME TO `x_db`.`r_b`",
                DdlParser.parse("db", "ALTER TABLE a RENAME TO b").rewrite(TO_X));
        assertEquals("ALTER TABLE `x_db`.`r_a` RENAME COLUMN c TO d",
                DdlParser.parse("db", "ALTER TABLE a RENAME COLUMN c TO d").rewrite(TO_X));
        assertEquals("CREATE INDEX i ON `x_db`.`r_t` (a)", DdlParser.parse("db", "CREATE INDEX i ON t (a)").rewrite(TO_X));
        assertEquals("DROP DATABASE `x_d`", DdlParser.parse("", "DROP DATABASE d").rewrite(TO_X));
        assertEquals("DROP TABLE `x_db`.`r_t` /* generated by server */",
                DdlParser.parse("db", "DROP TABLE `t` /* generated by server */").rewrite(TO_X));
    }

    @Test
    void splitsListsIntoOneStatementPerTable() {
        List<ParsedDdl> drops = DdlParser.parse("db", "DROP TABLE IF EXISTS a, o.b").split();
        assertEquals(List.of("DROP TABLE IF EXISTS `db`.`a`", "DROP TABLE IF EXISTS `o`.`b`"),
                drops.stream().map(ParsedDdl::sql).toList());
        List<ParsedDdl> renames = DdlParser.parse("d", "RENAME TABLE t TO _t_del, _t_gho TO t").split();
        assertEquals(List.of("RENAME TABLE `d`.`t` TO `d`.`_t_del`", "RENAME TABLE `d`.`_t_gho` TO `d`.`t`"),
                renames.stream().map(ParsedDdl::sql).toList());
        assertEquals(new TableName("d", "t"), renames.get(1).renamedTo());
    }

    @Test
    void addsIfNotExistsOnce() {
        assertEquals("CREATE TABLE IF NOT EXISTS t (a INT)",
                DdlParser.parse("db", "CREATE TABLE t (a INT)").withIfNotExists().sql());
        assertTrue(DdlParser.parse("db", "CREATE TABLE IF NOT EXISTS t (a INT)").saysIfNotExists());
        assertEquals("CREATE DATABASE IF NOT EXISTS d", DdlParser.parse("", "CREATE DATABASE d").withIfNotExists().sql());
    }

    private static final SqlDialect ANSI = new SqlDialect(true, false, Long.MAX_VALUE);
    private static final SqlDialect NO_ESCAPES = new SqlDialect(false, true, Long.MAX_VALUE);
    private static final SqlDialect MARIADB_11_4 = new SqlDialect(false, false, 110405);
    private static final SqlDialect MYSQL_5_0 = new SqlDialect(false, false, 50000);

    /** The statement as written, with its spaces as newlines, as tabs, and with comments between tokens. */
    private static List<String> shapes(String sql) {
        return List.of(sql, sql.replace(" ", "\n"), sql.replace(" ", " \t "), "\n" + sql + "\n",
                "-- note\n" + sql, "# note\n" + sql, "/* a */ " + sql.replace(" ", " /* x */ "));
    }

    private static ParsedDdl parse(String db, String sql, SqlDialect dialect) {
        return DdlParser.parse(db, sql, dialect);
    }

    @Test
    void keywordsInsideStringLiteralsAreNotNames() {
        for (String sql : List.of("ALTER TABLE t MODIFY s VARCHAR(20) COMMENT 'rename to x'",
                "ALTER TABLE t ADD c VARCHAR(20) DEFAULT 'DROP TABLE y'",
                "ALTER TABLE t MODIFY s VARCHAR(20) COMMENT 'REFERENCES z(id)'",
                "CREATE TABLE t (s VARCHAR(20) COMMENT 'RENAME TO x; REFERENCES z(id)') COMMENT='LIKE y'")) {
            for (String shape : shapes(sql)) {
                ParsedDdl d = DdlParser.parse("db", shape);
                assertEquals(1, d.refs().size(), shape);
                assertEquals(new TableName("db", "t"), d.primary(), shape);
                assertNull(d.renamedTo(), shape);
                String rewritten = d.rewrite(TO_X);
                assertEquals(shape.replaceFirst("\\bt\\b", "`x_db`.`r_t`"), rewritten, shape);
            }
        }
    }

    @Test
    void leadingLineCommentsAndCommentsBetweenTokens() {
        for (String sql : List.of("ALTER TABLE t ADD UNIQUE (c)", "ALTER TABLE t ALTER COLUMN c SET DEFAULT 5",
                "TRUNCATE TABLE t", "DROP TABLE t")) {
            for (String shape : shapes(sql)) {
                ParsedDdl d = DdlParser.parse("db", shape);
                assertEquals(List.of(new TableName("db", "t")), d.touched(), shape);
                assertEquals(shape.replaceFirst("\\bt\\b", "`x_db`.`r_t`"), d.rewrite(TO_X), shape);
            }
        }
        assertEquals(EventType.DROP_TABLE, DdlParser.parse("db", "-- DROP\n# TRUNCATE\nDROP TABLE t").kind());
        assertEquals(List.of("DROP TABLE IF EXISTS `db`.`a`", "DROP TABLE IF EXISTS `db`.`b`"),
                DdlParser.parse("db", "-- x\nDROP /* y */ TABLE IF EXISTS a, b").split().stream()
                        .map(ParsedDdl::sql).toList());
    }

    @Test
    void conditionalComments() {
        String partitioned = "CREATE TABLE t (id INT) /*!50100 PARTITION BY HASH(id) PARTITIONS 4 */";
        assertEquals("CREATE TABLE `x_db`.`r_t` (id INT) /*!50100 PARTITION BY HASH(id) PARTITIONS 4 */",
                DdlParser.parse("db", partitioned).rewrite(TO_X));
        for (String shape : shapes("/*!40101 ALTER TABLE t ADD c INT */")) {
            ParsedDdl d = DdlParser.parse("db", shape);
            assertEquals(EventType.ALTER_TABLE, d.kind(), shape);
            assertEquals(shape.replaceFirst("\\bt\\b", "`x_db`.`r_t`"), d.rewrite(TO_X), shape);
        }
        String maria = "/*M!100100 ALTER TABLE t ADD c INT */";
        assertEquals(List.of(new TableName("db", "t")), DdlParser.parse("db", maria, MARIADB_11_4).touched());
        // a server older than the comment runs nothing: not a DDL
        assertNull(DdlParser.parse("db", "/*!50100 ALTER TABLE t ADD c INT */", MYSQL_5_0));
        assertNull(DdlParser.parse("db", maria, new SqlDialect(false, false, 80036)));
        // and what older servers skip inside a statement stays in the text, unread
        assertEquals(1, DdlParser.parse("db", "CREATE TABLE t (id INT) /*!99999 REFERENCES z(id) */", MYSQL_5_0)
                .refs().size());
    }

    @Test
    void ansiQuotesMakeDoubleQuotesNames() {
        for (String shape : shapes("CREATE TABLE \"aq\".\"t\"\"x\" (\"id\" INT PRIMARY KEY, s TEXT COMMENT 'it''s')")) {
            ParsedDdl d = parse("db", shape, ANSI);
            assertEquals(new TableName("aq", "t\"x"), d.primary(), shape);
            assertTrue(d.rewrite(TO_X).startsWith(shape.substring(0, d.refs().get(0).start()) + "`x_aq`.`r_t\"x`"), shape);
        }
        // the same text without ANSI_QUOTES: "aq" is a string, and no table is named by a string
        assertThrows(UnreadableDdlException.class, () -> DdlParser.parse("db", "CREATE TABLE \"aq\" (id INT)"));
        ParsedDdl comment = DdlParser.parse("db", "ALTER TABLE t COMMENT \"rename to x\"");
        assertEquals(1, comment.refs().size());
    }

    @Test
    void backslashesEscapeUnlessNoBackslashEscapes() {
        String sql = "ALTER TABLE t ADD c VARCHAR(9) DEFAULT 'C:\\new\\', RENAME TO u";
        ParsedDdl d = parse("db", sql, NO_ESCAPES);
        assertEquals(new TableName("db", "u"), d.renamedTo());
        assertEquals("ALTER TABLE `x_db`.`r_t` ADD c VARCHAR(9) DEFAULT 'C:\\new\\', RENAME TO `x_db`.`r_u`",
                d.rewrite(TO_X));
        // with escapes, \' does not end the string: the statement never closes it (MySQL's lexer, lenient
        // with text no server would have run, closes it there)
        assertThrows(UnreadableDdlException.class,
                () -> DdlParser.parseWith("db", sql, SqlDialect.DEFAULT, DdlGrammar.mariadb()));
        for (DdlGrammar g : List.of(DdlGrammar.mariadb(), DdlGrammar.mysql())) {
            assertEquals(new TableName("db", "u"), DdlParser.parseWith("db",
                    "ALTER TABLE t ADD c VARCHAR(9) DEFAULT 'it\\'s', RENAME TO u", SqlDialect.DEFAULT, g).renamedTo());
            // a rename inside a string is text, also where the string could have ended at an escaped quote
            ParsedDdl inside = DdlParser.parseWith("db",
                    "ALTER TABLE t ADD c VARCHAR(30) DEFAULT 'x\\', RENAME TO u', COMMENT 'a\\\\', RENAME TO v",
                    SqlDialect.DEFAULT, g);
            assertEquals(new TableName("db", "v"), inside.renamedTo(), g.toString());
            assertEquals(2, inside.refs().size(), g.toString());
        }
    }

    @Test
    void quotedAndNonAsciiNames() {
        assertEquals(List.of(new TableName("o", "a`b"), new TableName("订单", "明细")),
                DdlParser.tables("db", "RENAME TABLE `o`.`a``b` TO 订单.`明细`"));
        assertEquals("RENAME TABLE `x_o`.`r_a``b` TO `x_订单`.`r_明细`",
                DdlParser.parse("db", "RENAME TABLE `o`.`a``b` TO 订单.`明细`").rewrite(TO_X));
        // a character outside the BMP before a name: spans count UTF-16 units, the grammar code points
        assertEquals("ALTER TABLE `x_db`.`r_t` COMMENT '\uD83D\uDE00', RENAME TO `x_db`.`r_u`",
                DdlParser.parse("db", "ALTER TABLE t COMMENT '\uD83D\uDE00', RENAME TO u").rewrite(TO_X));
    }

    @Test
    void everyFormAtEveryShape() {
        record Case(String sql, EventType kind, String rewritten) {
        }
        for (Case c : List.of(
                new Case("CREATE TABLE a.b (x INT, FOREIGN KEY (x) REFERENCES z (id))", EventType.CREATE_TABLE,
                        "CREATE TABLE `x_a`.`r_b` (x INT, FOREIGN KEY (x) REFERENCES `x_db`.`r_z` (id))"),
                new Case("CREATE TABLE t (LIKE s)", EventType.CREATE_TABLE, "CREATE TABLE `x_db`.`r_t` (LIKE `x_db`.`r_s`)"),
                new Case("CREATE OR REPLACE TABLE t (a INT)", EventType.CREATE_TABLE,
                        "CREATE OR REPLACE TABLE `x_db`.`r_t` (a INT)"),
                new Case("ALTER TABLE t RENAME AS u", EventType.ALTER_TABLE, "ALTER TABLE `x_db`.`r_t` RENAME AS `x_db`.`r_u`"),
                new Case("ALTER TABLE t RENAME TO o.u", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_t` RENAME TO `x_o`.`r_u`"),
                new Case("ALTER TABLE t RENAME u", EventType.ALTER_TABLE, "ALTER TABLE `x_db`.`r_t` RENAME `x_db`.`r_u`"),
                new Case("ALTER TABLE t RENAME INDEX i TO j", EventType.ALTER_TABLE, "ALTER TABLE `x_db`.`r_t` RENAME INDEX i TO j"),
                new Case("ALTER TABLE t ADD COLUMN IF NOT EXISTS c INT", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_t` ADD COLUMN IF NOT EXISTS c INT"),
                new Case("DROP TABLE IF EXISTS a, o.b", EventType.DROP_TABLE, "DROP TABLE IF EXISTS `x_db`.`r_a`, `x_o`.`r_b`"),
                new Case("RENAME TABLE a TO b, c TO o.d", EventType.RENAME_TABLE,
                        "RENAME TABLE `x_db`.`r_a` TO `x_db`.`r_b`, `x_db`.`r_c` TO `x_o`.`r_d`"),
                new Case("TRUNCATE t", EventType.TRUNCATE_TABLE, "TRUNCATE `x_db`.`r_t`"),
                new Case("CREATE UNIQUE INDEX i ON t (a)", EventType.CREATE_INDEX, "CREATE UNIQUE INDEX i ON `x_db`.`r_t` (a)"),
                new Case("DROP INDEX i ON o.t", EventType.DROP_INDEX, "DROP INDEX i ON `x_o`.`r_t`"),
                new Case("CREATE DATABASE IF NOT EXISTS d", EventType.CREATE_DATABASE, "CREATE DATABASE IF NOT EXISTS `x_d`"),
                new Case("DROP SCHEMA d", EventType.DROP_DATABASE, "DROP SCHEMA `x_d`"),
                new Case("ALTER DATABASE d DEFAULT CHARSET latin1", EventType.OTHER_DDL,
                        "ALTER DATABASE `x_d` DEFAULT CHARSET latin1"))) {
            for (String shape : shapes(c.sql)) {
                ParsedDdl d = DdlParser.parse("db", shape);
                assertEquals(c.kind, d.kind(), shape);
                String expected = shapes(c.rewritten).get(shapes(c.sql).indexOf(shape));
                assertEquals(expected, d.rewrite(TO_X), shape);
            }
        }
        assertNull(DdlParser.parse("db", "ALTER DATABASE DEFAULT CHARSET latin1"));
        assertNull(DdlParser.parse("db", "DROP TEMPORARY TABLE t"));
        assertNull(DdlParser.parse("db", "CREATE OR REPLACE TEMPORARY TABLE t (a INT)"));
        assertNull(DdlParser.parse("db", "CREATE DEFINER=`u`@`%` VIEW v AS SELECT 1"));
        assertNull(DdlParser.parse("db", "ANALYZE TABLE t"));
        assertNull(DdlParser.parse("db", "-- CREATE TABLE t (a INT)\nGRANT ALL ON *.* TO x"));
    }

    @Test
    void anUnreadableTableDdlIsReportedNotSkipped() {
        UnreadableDdlException e = assertThrows(UnreadableDdlException.class,
                () -> DdlParser.parse("db", "-- note\nCREATE TABLE t (a INT) ENGINE InnoDB PARTITION"));
        assertEquals("-- note CREATE TABLE t (a INT) ENGINE InnoDB PARTITION", e.shortStatement());
        assertTrue(e.reason().startsWith("line 2:"), e.reason());
        assertTrue(e.getMessage().startsWith("sync: cannot read the DDL statement (line 2:"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        for (DdlGrammar g : List.of(DdlGrammar.mariadb(), DdlGrammar.mysql())) {
            assertTrue(DdlParser.isDdl("/*!40101 CREATE TABLE t (a INT) ENGINE InnoDB PARTITION */", g));
            assertFalse(DdlParser.isDdl("CREATE VIEW v AS SELECT", g));
        }
    }
}
