package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.EventType;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.TableName;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** MySQL's DDL read with MySQL's grammar alone (no fallback), at the MySQL 8.0.31 the statements were reported on. */
class MySqlDdlTest {
    private static final DdlGrammar MYSQL_8_0_31 = DdlGrammar.of(Flavor.MYSQL, "8.0.31");
    private static final DdlGrammar MYSQL_5_7 = DdlGrammar.of(Flavor.MYSQL, "5.7.22-log");
    private static final UnaryOperator<TableName> TO_X = t -> new TableName("x_" + t.schema(), t.table().isEmpty()
            ? "" : "r_" + t.table());

    private static ParsedDdl parse(String sql) {
        return DdlParser.parseWith("db", sql, SqlDialect.DEFAULT, MYSQL_8_0_31);
    }

    /** The statement as written, with its spaces as newlines, and with comments between tokens. */
    private static List<String> shapes(String sql) {
        return List.of(sql, sql.replace(" ", "\n"), "-- note\n" + sql, "/* a */ " + sql.replace(" ", " /* x */ "));
    }

    private record Case(String sql, EventType kind, String rewritten) {
    }

    /** Rewritten with every name mapped: the names found, each at its place, and nothing else touched. */
    private static void check(List<Case> cases) {
        for (Case c : cases) {
            for (String shape : shapes(c.sql)) {
                ParsedDdl d = parse(shape);
                assertEquals(c.kind, d.kind(), shape);
                assertEquals(shapes(c.rewritten).get(shapes(c.sql).indexOf(shape)), d.rewrite(TO_X), shape);
                assertEquals(MYSQL_8_0_31, d.grammar(), shape);
            }
        }
    }

    @Test
    void theStatementsMariaDbsGrammarStoppedOn() {
        check(List.of(
                new Case("ALTER TABLE inv ALTER COLUMN secret SET VISIBLE", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_inv` ALTER COLUMN secret SET VISIBLE"),
                new Case("ALTER TABLE inv ALTER COLUMN secret SET INVISIBLE", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_inv` ALTER COLUMN secret SET INVISIBLE"),
                new Case("CREATE TABLE t (a INT, CHECK (a > 0) NOT ENFORCED)", EventType.CREATE_TABLE,
                        "CREATE TABLE `x_db`.`r_t` (a INT, CHECK (a > 0) NOT ENFORCED)"),
                new Case("ALTER TABLE t AUTOEXTEND_SIZE=4M", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_t` AUTOEXTEND_SIZE=4M"),
                new Case("CREATE TABLE o.t (a INT) AUTOEXTEND_SIZE=4M", EventType.CREATE_TABLE,
                        "CREATE TABLE `x_o`.`r_t` (a INT) AUTOEXTEND_SIZE=4M"),
                new Case("ALTER TABLE t ADD COLUMN p POINT SRID 4326", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_t` ADD COLUMN p POINT SRID 4326"),
                new Case("CREATE TABLE t (a INT PRIMARY KEY) PARTITION BY KEY() PARTITIONS 3", EventType.CREATE_TABLE,
                        "CREATE TABLE `x_db`.`r_t` (a INT PRIMARY KEY) PARTITION BY KEY() PARTITIONS 3")));
    }

    @Test
    void mySql8Ddl() {
        check(List.of(
                new Case("ALTER TABLE t RENAME COLUMN a TO b", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_t` RENAME COLUMN a TO b"),
                new Case("CREATE TABLE t (a INT INVISIBLE, b INT VISIBLE, INDEX i (b) INVISIBLE)", EventType.CREATE_TABLE,
                        "CREATE TABLE `x_db`.`r_t` (a INT INVISIBLE, b INT VISIBLE, INDEX i (b) INVISIBLE)"),
                new Case("ALTER TABLE t ALTER INDEX i VISIBLE, ALTER INDEX j INVISIBLE", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_t` ALTER INDEX i VISIBLE, ALTER INDEX j INVISIBLE"),
                new Case("CREATE INDEX i ON t ((a + 1), b DESC)", EventType.CREATE_INDEX,
                        "CREATE INDEX i ON `x_db`.`r_t` ((a + 1), b DESC)"),
                new Case("CREATE TABLE t (a INT, b INT, INDEX i ((a * b)), INDEX j (a DESC))", EventType.CREATE_TABLE,
                        "CREATE TABLE `x_db`.`r_t` (a INT, b INT, INDEX i ((a * b)), INDEX j (a DESC))"),
                new Case("ALTER TABLE t ADD CONSTRAINT c CHECK (a < 9) ENFORCED, DROP CHECK d, ALTER CHECK e NOT ENFORCED",
                        EventType.ALTER_TABLE, "ALTER TABLE `x_db`.`r_t` ADD CONSTRAINT c CHECK (a < 9) ENFORCED, "
                        + "DROP CHECK d, ALTER CHECK e NOT ENFORCED"),
                new Case("CREATE TABLE t (a INT DEFAULT (RAND() * 10), b JSON DEFAULT (JSON_ARRAY()))",
                        EventType.CREATE_TABLE,
                        "CREATE TABLE `x_db`.`r_t` (a INT DEFAULT (RAND() * 10), b JSON DEFAULT (JSON_ARRAY()))"),
                new Case("ALTER TABLE t ADD COLUMN c INT, ALGORITHM=INSTANT", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_t` ADD COLUMN c INT, ALGORITHM=INSTANT"),
                new Case("CREATE TABLE t2 LIKE o.t1", EventType.CREATE_TABLE, "CREATE TABLE `x_db`.`r_t2` LIKE `x_o`.`r_t1`"),
                new Case("CREATE TABLE t2 (LIKE t1)", EventType.CREATE_TABLE, "CREATE TABLE `x_db`.`r_t2` (LIKE `x_db`.`r_t1`)"),
                new Case("RENAME TABLE a TO b, c TO o.d", EventType.RENAME_TABLE,
                        "RENAME TABLE `x_db`.`r_a` TO `x_db`.`r_b`, `x_db`.`r_c` TO `x_o`.`r_d`")));
        ParsedDdl like = parse("CREATE TABLE t2 LIKE t1");
        assertEquals(List.of(ParsedDdl.Role.TABLE, ParsedDdl.Role.LIKE), like.refs().stream().map(ParsedDdl.Ref::role).toList());
        List<ParsedDdl> renames = parse("RENAME TABLE a TO b, c TO d").split();
        assertEquals(List.of("RENAME TABLE `db`.`a` TO `db`.`b`", "RENAME TABLE `db`.`c` TO `db`.`d`"),
                renames.stream().map(ParsedDdl::sql).toList());
        assertEquals(new TableName("db", "d"), renames.get(1).renamedTo());
    }

    /** The forms sync has always read, at MySQL's grammar's places for them. */
    @Test
    void everyFormAtEveryShape() {
        check(List.of(
                new Case("CREATE TABLE a.b (x INT, FOREIGN KEY (x) REFERENCES z (id))", EventType.CREATE_TABLE,
                        "CREATE TABLE `x_a`.`r_b` (x INT, FOREIGN KEY (x) REFERENCES `x_db`.`r_z` (id))"),
                new Case("ALTER TABLE c ADD CONSTRAINT f FOREIGN KEY (p) REFERENCES o.p (id), RENAME TO d",
                        EventType.ALTER_TABLE, "ALTER TABLE `x_db`.`r_c` ADD CONSTRAINT f FOREIGN KEY (p) REFERENCES "
                        + "`x_o`.`r_p` (id), RENAME TO `x_db`.`r_d`"),
                new Case("ALTER TABLE t RENAME AS u", EventType.ALTER_TABLE, "ALTER TABLE `x_db`.`r_t` RENAME AS `x_db`.`r_u`"),
                new Case("ALTER TABLE t RENAME o.u", EventType.ALTER_TABLE, "ALTER TABLE `x_db`.`r_t` RENAME `x_o`.`r_u`"),
                new Case("ALTER TABLE t RENAME INDEX i TO j", EventType.ALTER_TABLE, "ALTER TABLE `x_db`.`r_t` RENAME INDEX i TO j"),
                new Case("ALTER TABLE t EXCHANGE PARTITION p WITH TABLE u", EventType.ALTER_TABLE,
                        "ALTER TABLE `x_db`.`r_t` EXCHANGE PARTITION p WITH TABLE `x_db`.`r_u`"),
                new Case("DROP TABLE IF EXISTS a, o.b", EventType.DROP_TABLE, "DROP TABLE IF EXISTS `x_db`.`r_a`, `x_o`.`r_b`"),
                new Case("TRUNCATE t", EventType.TRUNCATE_TABLE, "TRUNCATE `x_db`.`r_t`"),
                new Case("TRUNCATE TABLE o.t", EventType.TRUNCATE_TABLE, "TRUNCATE TABLE `x_o`.`r_t`"),
                new Case("CREATE UNIQUE INDEX i ON t (a)", EventType.CREATE_INDEX, "CREATE UNIQUE INDEX i ON `x_db`.`r_t` (a)"),
                new Case("CREATE FULLTEXT INDEX i ON t (a)", EventType.CREATE_INDEX, "CREATE FULLTEXT INDEX i ON `x_db`.`r_t` (a)"),
                new Case("DROP INDEX i ON o.t", EventType.DROP_INDEX, "DROP INDEX i ON `x_o`.`r_t`"),
                new Case("CREATE DATABASE IF NOT EXISTS d", EventType.CREATE_DATABASE, "CREATE DATABASE IF NOT EXISTS `x_d`"),
                new Case("DROP SCHEMA d", EventType.DROP_DATABASE, "DROP SCHEMA `x_d`"),
                new Case("ALTER DATABASE d DEFAULT CHARSET latin1", EventType.OTHER_DDL,
                        "ALTER DATABASE `x_d` DEFAULT CHARSET latin1"),
                new Case("CREATE TABLE `o`.`we``ird` (a int) COMMENT='LIKE y'", EventType.CREATE_TABLE,
                        "CREATE TABLE `x_o`.`r_we``ird` (a int) COMMENT='LIKE y'")));
        assertNull(parse("DROP TEMPORARY TABLE t"));
        assertNull(parse("CREATE DEFINER=`u`@`%` VIEW v AS SELECT 1"));
        assertNull(parse("-- CREATE TABLE t (a INT)\nGRANT ALL ON *.* TO x"));
        assertTrue(parse("CREATE TABLE IF NOT EXISTS t (a INT)").saysIfNotExists());
        assertEquals("CREATE TABLE IF NOT EXISTS t (a INT)", parse("CREATE TABLE t (a INT)").withIfNotExists().sql());
    }

    /**
     * MySQL 8.0.21+ logs CREATE TABLE … SELECT (GTIDs on, ROW format) as this statement followed by
     * the rows: the option is dropped from the text, and the rows arrive as row events.
     */
    @Test
    void createTableSelectLoggedWithStartTransaction() {
        String logged = "CREATE TABLE `d`.`t2` (\n  `a` int DEFAULT NULL\n) START TRANSACTION";
        ParsedDdl d = parse(logged);
        assertEquals(EventType.CREATE_TABLE, d.kind());
        assertEquals("CREATE TABLE `x_d`.`r_t2` (\n  `a` int DEFAULT NULL\n)", d.rewrite(TO_X));
        assertEquals("CREATE TABLE `d`.`t2` (a INT) ENGINE=InnoDB " + " ".repeat(17) + " COMMENT 'START TRANSACTION'",
                parse("CREATE TABLE `d`.`t2` (a INT) ENGINE=InnoDB START TRANSACTION COMMENT 'START TRANSACTION'").sql());
        // MariaDB's grammar reads it as two statements; with MySQL's tried next, the flavour-less parse reads it too
        UnreadableDdlException e = assertThrows(UnreadableDdlException.class,
                () -> DdlParser.parseWith("", logged, SqlDialect.DEFAULT, DdlGrammar.mariadb()));
        assertEquals("more than one statement", e.reason());
        assertEquals(List.of(new TableName("d", "t2")), DdlParser.parse("", logged).touched());
        // as a client writes it: only the new table is named
        ParsedDdl select = parse("CREATE TABLE t2 SELECT * FROM t1 WHERE a IN (SELECT a FROM o.t3)");
        assertEquals(List.of(new TableName("db", "t2")), select.refs().stream().map(ParsedDdl.Ref::name).toList());
        assertTrue(DdlParser.isDdl(logged, MYSQL_8_0_31));
        // its rows follow it in the same transaction
        for (DdlGrammar g : List.of(MYSQL_8_0_31, DdlGrammar.mariadb())) {
            assertTrue(DdlParser.opensTransaction(logged, g), g.toString());
            assertTrue(DdlParser.opensTransaction("/* x */ create table t (a int) start\ntransaction -- y", g), g.toString());
            assertFalse(DdlParser.opensTransaction("CREATE TABLE t (a INT) COMMENT 'START TRANSACTION'", g), g.toString());
            assertFalse(DdlParser.opensTransaction("CREATE TABLE t2 SELECT * FROM t1", g), g.toString());
            assertFalse(DdlParser.opensTransaction("CREATE TEMPORARY TABLE t (a INT) START TRANSACTION", g), g.toString());
            assertFalse(DdlParser.opensTransaction("ALTER TABLE t COMMENT 'x'", g), g.toString());
            assertFalse(DdlParser.opensTransaction("START TRANSACTION", g), g.toString());
            assertFalse(DdlParser.opensTransaction("BEGIN", g), g.toString());
        }
    }

    @Test
    void theGrammarReadsAsTheSourcesVersionDoes() {
        assertEquals("MySQL's grammar (80031)", MYSQL_8_0_31.toString());
        assertEquals("MySQL's grammar (50722)", MYSQL_5_7.toString());
        assertEquals(DdlGrammar.mariadb(), DdlGrammar.of(Flavor.MARIADB, "11.4.5-MariaDB-log"));
        assertEquals(DdlGrammar.mysql(), DdlGrammar.of(Flavor.MYSQL, null));
        String invisible = "CREATE TABLE t (a INT INVISIBLE)";
        assertEquals(EventType.CREATE_TABLE, parse(invisible).kind());
        assertThrows(UnreadableDdlException.class,
                () -> DdlParser.parseWith("db", invisible, SqlDialect.DEFAULT, MYSQL_5_7));
        assertEquals(List.of(new TableName("db", "a"), new TableName("db", "b")),
                DdlParser.parseWith("db", "RENAME TABLE a TO b", SqlDialect.DEFAULT, MYSQL_5_7).touched());
    }

    /** What only the other grammar reads is read with it: a gap in one grammar does not stop the task. */
    @Test
    void whatMySqlsGrammarCannotReadMariaDbsMay() {
        assertThrows(UnreadableDdlException.class,
                () -> DdlParser.parseWith("db", "ALTER DATABASE DEFAULT CHARSET latin1", SqlDialect.DEFAULT, MYSQL_8_0_31));
        assertNull(DdlParser.parse("db", "ALTER DATABASE DEFAULT CHARSET latin1", SqlDialect.DEFAULT, MYSQL_8_0_31));
        ParsedDdl replace = DdlParser.parse("db", "CREATE OR REPLACE TABLE t (a INT)", SqlDialect.DEFAULT, MYSQL_8_0_31);
        assertEquals(List.of(new TableName("db", "t")), replace.touched());
        assertEquals(MYSQL_8_0_31, replace.grammar(), "the statements made from it are read as the source's");
        // neither reads it: the source's grammar's error
        UnreadableDdlException e = assertThrows(UnreadableDdlException.class,
                () -> DdlParser.parse("db", "CREATE TABLE t (a INT) ENGINE InnoDB PARTITION", SqlDialect.DEFAULT,
                        MYSQL_8_0_31));
        assertTrue(e.reason().contains("BY_SYMBOL"), e.reason());
    }

    @Test
    void headsOfMySqlStatements() {
        assertTrue(DdlParser.isDdl("ALTER TABLE inv ALTER COLUMN secret SET VISIBLE", MYSQL_8_0_31));
        assertTrue(DdlParser.isDdl("/*!80000 RENAME TABLE a TO b */", MYSQL_8_0_31));
        assertFalse(DdlParser.isDdl("CREATE TEMPORARY TABLE t (a INT)", MYSQL_8_0_31));
        assertFalse(DdlParser.isDdl("CREATE DEFINER=`u`@`%` TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET @a = 1",
                MYSQL_8_0_31));
        assertFalse(DdlParser.isDdl("ALTER USER u IDENTIFIED BY 'p'", MYSQL_8_0_31));
        assertFalse(DdlParser.isDdl("CREATE TABLESPACE ts ADD DATAFILE 'ts.ibd'", MYSQL_8_0_31));
        assertEquals("INSERT", DdlParser.dmlVerb("INSERT INTO t2 SELECT * FROM t1", MYSQL_8_0_31));
        assertNull(DdlParser.dmlVerb("CREATE TABLE t2 SELECT * FROM t1", MYSQL_8_0_31));
    }
}
