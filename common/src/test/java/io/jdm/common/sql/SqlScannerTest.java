package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlScannerTest {
    private static final SqlScanner MYSQL = new SqlScanner(SqlDialect.DEFAULT);
    private static final SqlScanner ANSI = new SqlScanner(new SqlDialect(true, false, Long.MAX_VALUE));
    private static final SqlScanner NO_ESCAPES = new SqlScanner(new SqlDialect(false, true, Long.MAX_VALUE));
    private static final SqlScanner MARIADB_11_4 = new SqlScanner(new SqlDialect(false, false, 110405));
    private static final SqlScanner MYSQL_8_0 = new SqlScanner(new SqlDialect(false, false, 80036));

    /** The stretches as "KIND:text" strings. */
    private static List<String> segments(SqlScanner s, String sql) {
        List<String> out = new ArrayList<>();
        s.scan(sql, (kind, start, end) -> out.add(kind + ":" + sql.substring(start, end)));
        return out;
    }

    @Test
    void stringsKnowDoubledQuotesAndBackslashes() {
        assertEquals(List.of("CODE:a ", "STRING:'it''s \\' -- x'", "CODE: b"), segments(MYSQL, "a 'it''s \\' -- x' b"));
        assertEquals(List.of("CODE:DEFAULT ", "STRING:'C:\\new\\'", "CODE:)"), segments(NO_ESCAPES, "DEFAULT 'C:\\new\\')"));
        // with escapes on, \' does not close the string: it runs to the end
        assertEquals(List.of("CODE:DEFAULT ", "STRING:'C:\\new\\')"), segments(MYSQL, "DEFAULT 'C:\\new\\')"));
        assertEquals(List.of("STRING:\"a \"\" # b\""), segments(MYSQL, "\"a \"\" # b\""));
    }

    @Test
    void statementsSplitAtSemicolonsInCodeOnly() {
        assertEquals(List.of("ALTER TABLE t DROP CHECK c", "ALTER TABLE t ADD CONSTRAINT c CHECK (n < 10)"),
                MYSQL.statements(" ALTER TABLE t DROP CHECK c;\n ALTER TABLE t ADD CONSTRAINT c CHECK (n < 10) ; "));
        assertEquals(List.of("ALTER TABLE t COMMENT 'a;b' /* ; */", "SELECT `x;`", "SELECT 'y\\';'"),
                MYSQL.statements("ALTER TABLE t COMMENT 'a;b' /* ; */; SELECT `x;`;SELECT 'y\\';'"));
        assertEquals(List.of("SELECT 1 -- ;"), MYSQL.statements("SELECT 1 -- ;\n"));
        assertEquals(List.of(), MYSQL.statements(" ; /* nothing */ ;\n"));
        assertEquals(List.of("SELECT \"a;b\"", "SELECT 2"), ANSI.statements("SELECT \"a;b\"; SELECT 2"));
        // without escapes a backslash does not keep the quote open: the semicolon after it splits
        assertEquals(List.of("SELECT 'y\\'", "'"), NO_ESCAPES.statements("SELECT 'y\\';'"));
    }

    @Test
    void doubleQuotesAreIdentifiersUnderAnsiQuotes() {
        assertEquals(List.of("IDENTIFIER:\"aq\"", "CODE:.", "IDENTIFIER:\"t\"\"x\""), segments(ANSI, "\"aq\".\"t\"\"x\""));
        assertEquals(List.of("STRING:\"aq\"", "CODE:.", "STRING:\"t\""), segments(MYSQL, "\"aq\".\"t\""));
        assertEquals(List.of("IDENTIFIER:`a``b`"), segments(MYSQL, "`a``b`"));
    }

    @Test
    void lineAndBlockComments() {
        assertEquals(List.of("COMMENT:-- note", "CODE:\nDROP ", "COMMENT:# x", "CODE:\nt"),
                segments(MYSQL, "-- note\nDROP # x\nt"));
        assertEquals(List.of("CODE:a--b ", "COMMENT:/* c 'x */", "CODE: d"), segments(MYSQL, "a--b /* c 'x */ d"));
        assertEquals(List.of("CODE:1 ", "COMMENT:--\tx"), segments(MYSQL, "1 --\tx"));
    }

    @Test
    void conditionalCommentsRunUpToTheServersVersion() {
        String sql = "t /*!50100 PARTITION BY HASH(id) */";
        assertEquals(List.of("CODE:t ", "VERSION_MARK:/*!50100", "CODE: PARTITION BY HASH(id) ", "VERSION_MARK:*/"),
                segments(MARIADB_11_4, sql));
        assertEquals(List.of("CODE:t ", "COMMENT:/*!50100 PARTITION BY HASH(id) */"),
                segments(new SqlScanner(new SqlDialect(false, false, 50099)), sql));
        assertEquals(List.of("VERSION_MARK:/*!", "CODE: ALTER ", "VERSION_MARK:*/"), segments(MYSQL, "/*! ALTER */"));
        String maria = "/*M!100100 ALTER TABLE t ADD c INT */";
        assertEquals("           ALTER TABLE t ADD c INT   ", MARIADB_11_4.normalize(maria));
        assertEquals(" ".repeat(maria.length()), MYSQL_8_0.normalize(maria));
        // a string inside a run conditional comment may hold */
        assertEquals(List.of("VERSION_MARK:/*!40101", "CODE: x ", "STRING:'*/'", "CODE: ", "VERSION_MARK:*/"),
                segments(MYSQL, "/*!40101 x '*/' */"));
    }

    @Test
    void normalizeKeepsTheLengthAndEveryPosition() {
        for (String sql : List.of("-- a\n# b\r\nALTER /* c */ TABLE \"aq\".\"t`x\" ADD c INT COMMENT 'x\\'y'",
                "/*!50100 CREATE */ TABLE `订单` (s VARCHAR(3) DEFAULT 'C:\\n\\')", "x -- ")) {
            for (SqlScanner s : List.of(MYSQL, ANSI, NO_ESCAPES, MYSQL_8_0)) {
                assertEquals(sql.length(), s.normalize(sql).length(), sql);
            }
        }
        assertEquals("    \n    \nALTER         TABLE `aq`.`t_x` ADD c",
                ANSI.normalize("-- a\n# b\r\nALTER /* c */ TABLE \"aq\".\"t`x\" ADD c"));
        assertEquals("DEFAULT 'C: new ')", NO_ESCAPES.normalize("DEFAULT 'C:\\new\\')"));
    }

    @Test
    void identifiersReadQualifiedNames() {
        assertEquals(List.of("o", "we`ird"), MYSQL.identifiers("`o` . `we``ird`", 0, 15));
        assertEquals(List.of("db", "订单"), MYSQL.identifiers("x db/* c */.订单 y", 2, 15));
        assertEquals(List.of("aq", "t\"x"), ANSI.identifiers("\"aq\".\"t\"\"x\"", 0, 11));
        assertNull(MYSQL.identifiers("\"aq\"", 0, 4));
        assertNull(MYSQL.identifiers("'t'", 0, 3));
        assertNull(MYSQL.identifiers("a.", 0, 2));
        assertNull(MYSQL.identifiers("a b", 0, 3));
    }

    @Test
    void blanksTokensWordsAndCodeCharacters() {
        String sql = " -- c\n/* d */ /*!40101 SET x = 'a;b' */";
        assertEquals(sql.indexOf("/*!"), MYSQL.skipBlank(sql, 0, sql.length()));
        assertEquals(6, MYSQL.skipBlank("  /**/x", 0, 7));
        assertEquals(4, MYSQL.skipBlank("-- x", 0, 4), "nothing but a comment");
        assertEquals(new SqlScanner.Token(SqlScanner.Kind.VERSION_MARK, sql.indexOf(" SET")),
                MYSQL.token(sql, sql.indexOf("/*!")));
        assertEquals(new SqlScanner.Token(SqlScanner.Kind.IDENTIFIER, 6), MYSQL.token("`a``b` c", 0));
        assertNull(MYSQL.token("INSERT 'x'", 0), "code starts there");
        assertNull(MYSQL.token("'open", 0), "never closed");
        List<String> words = new ArrayList<>();
        for (int[] w : MYSQL.words(sql)) {
            words.add(sql.substring(w[0], w[1]));
        }
        assertEquals(List.of("SET", "x", "=", "'a;b'"), words);
        StringBuilder code = new StringBuilder();
        MYSQL.code("f(a, '(', (b)) # )", 0, 18, (i, c, depth) -> code.append(c).append(depth));
        assertEquals("f0(0a1,1 1,1 1(1b2)1)0 0", code.toString(), "the string and the comment are no code");
    }
}
