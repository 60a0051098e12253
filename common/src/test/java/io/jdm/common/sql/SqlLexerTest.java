package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.sql.SqlScanner.Kind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlLexerTest {
    private static final SqlDialect MYSQL_5_7 = new SqlDialect(false, false, 50744);

    /** The statements of {@code sql}, fed in pieces of {@code piece} bytes, as their text (content only). */
    private static List<String> statements(SqlDialect dialect, String sql, int piece) {
        byte[] b = sql.getBytes(StandardCharsets.UTF_8);
        SqlLexer lx = new SqlLexer(dialect);
        List<String> out = new ArrayList<>();
        long start = 0;
        for (int from = 0; from < b.length; from += piece) {
            int to = Math.min(b.length, from + piece);
            int i = from;
            while (i < to) {
                int stop = lx.scan(b, i, to);
                if (stop < 0) {
                    break;
                }
                long end = lx.position();
                assertEquals(stop, end, "position just past the semicolon");
                if (lx.hasContent()) {
                    out.add(new String(b, (int) lx.contentStart(), (int) (end - 1 - lx.contentStart()),
                            StandardCharsets.UTF_8).strip());
                }
                assertTrue(lx.contentStart() < 0 || lx.contentStart() >= start);
                start = end;
                lx.newStatement();
                i = stop;
            }
        }
        lx.end();
        if (lx.hasContent()) {
            out.add("UNTERMINATED:" + new String(b, (int) lx.contentStart(), (int) (b.length - lx.contentStart()),
                    StandardCharsets.UTF_8).strip());
        }
        return out;
    }

    /** The same, fed a byte at a time through {@link SqlLexer#feed}, which takes no shortcut over code or literals. */
    private static List<String> statementsFed(SqlDialect dialect, String sql) {
        byte[] b = sql.getBytes(StandardCharsets.UTF_8);
        SqlLexer lx = new SqlLexer(dialect);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < b.length; i++) {
            if (lx.feed(b[i] & 0xff)) {
                if (lx.hasContent()) {
                    out.add(new String(b, (int) lx.contentStart(), (int) (i - lx.contentStart()),
                            StandardCharsets.UTF_8).strip());
                }
                lx.newStatement();
            }
        }
        return out;
    }

    /** The segments of {@code sql}, fed one piece at a time, as "KIND:text". */
    private static List<String> segments(SqlDialect dialect, String sql, int piece) {
        byte[] b = sql.getBytes(StandardCharsets.US_ASCII);
        List<String> out = new ArrayList<>();
        SqlLexer lx = new SqlLexer(dialect, (kind, s, e) -> out.add(kind + ":" + sql.substring((int) s, (int) e)));
        for (int from = 0; from < b.length; from += piece) {
            int to = Math.min(b.length, from + piece);
            for (int i = from; i < to && i >= 0; ) {
                i = lx.scan(b, i, to);
            }
        }
        lx.end();
        return out;
    }

    @Test
    void semicolonsAndKeywordsInsideLiteralsCommentsAndNamesDoNotEndAStatement() {
        String sql = "INSERT INTO `a;INSERT` VALUES ('x; DROP TABLE t;','it''s;',\"dq;\\\";\",'\\\\');\n"
                + "-- a comment; DELETE FROM t;\n"
                + "# another; one\n"
                + "/* block; comment */ SELECT 1 /* ; */;\n"
                + "/*!50100 SELECT ';' ; SELECT 2 */;\n"
                + "UPDATE `t``;` SET c = 'é;ü' -- tail; comment\n;\n"
                + "SELECT 5-2;SELECT 4/2;SELECT 1--1;";
        List<String> expected = List.of(
                "INSERT INTO `a;INSERT` VALUES ('x; DROP TABLE t;','it''s;',\"dq;\\\";\",'\\\\')",
                "SELECT 1 /* ; */",
                "/*!50100 SELECT ';' ; SELECT 2 */",
                "UPDATE `t``;` SET c = 'é;ü' -- tail; comment",
                "SELECT 5-2", "SELECT 4/2", "SELECT 1--1");
        for (int piece = 1; piece <= 16; piece++) {
            assertEquals(expected, statements(SqlDialect.DEFAULT, sql, piece), "pieces of " + piece);
        }
        assertEquals(expected, statements(SqlDialect.DEFAULT, sql, 1 << 16));
        assertEquals(expected, statementsFed(SqlDialect.DEFAULT, sql));
    }

    /**
     * Long runs of code (a dump's hex literals) are skipped a word at a time: a special byte at any
     * offset still counts (the semicolon: each statement's own end, after a run of every length).
     */
    @Test
    void aSpecialByteAfterALongRunOfCodeCountsAtEveryOffset() {
        for (String special : List.of("'x'", "\"y\"", "`z`", "# c\n", "-- c\n", "/* c */", "(1)", "-1", "*2")) {
            for (int run = 0; run < 40; run++) {
                String first = "INSERT INTO t VALUES (0x" + "Ab".repeat(run) + special + ")";
                String sql = first + ";SELECT 0x" + "cD".repeat(run) + ";";
                List<String> expected = List.of(first, "SELECT 0x" + "cD".repeat(run));
                for (int piece : new int[] {1, 3, 7, 8, 9, 1 << 16}) {
                    assertEquals(expected, statements(SqlDialect.DEFAULT, sql, piece), sql + " in pieces of " + piece);
                }
            }
        }
    }

    @Test
    void segmentsDoNotDependOnWhereTheInputIsCut() {
        String sql = "a 'it''s \\' -- x' b -- note\n/*!50100 PARTITION BY HASH(id) '*/' */ `a``b`.\"q\"\"r\""
                + "/*M!100100 x */ /*!99999 old */ --- y\nc/**/d/*+ hint */ # end\n--";
        for (SqlDialect d : List.of(SqlDialect.DEFAULT, MYSQL_5_7, new SqlDialect(true, true, 110405))) {
            List<String> whole = segments(d, sql, sql.length());
            for (int piece = 1; piece <= 16; piece++) {
                assertEquals(whole, segments(d, sql, piece), d + ", pieces of " + piece);
            }
        }
        assertEquals(List.of("CODE:a ", "STRING:'it''s \\' -- x'", "CODE: b ", "COMMENT:-- note",
                "CODE:\n", "VERSION_MARK:/*!50100", "CODE: PARTITION BY HASH(id) ", "STRING:'*/'", "CODE: ",
                "VERSION_MARK:*/", "CODE: ", "IDENTIFIER:`a``b`", "CODE:.", "STRING:\"q\"\"r\"",
                "COMMENT:/*M!100100 x */", "CODE: ", "COMMENT:/*!99999 old */", "CODE: -", "COMMENT:-- y",
                "CODE:\nc", "COMMENT:/**/", "CODE:d", "COMMENT:/*+ hint */", "CODE: ", "COMMENT:# end",
                "CODE:\n", "COMMENT:--"), segments(MYSQL_5_7, sql, 3));
    }

    @Test
    void aConditionalCommentForANewerServerIsAComment() {
        String sql = "/*!80023 SELECT 1 */; SELECT 2;";
        assertEquals(List.of("SELECT 2"), statements(MYSQL_5_7, sql, 5));
        assertEquals(List.of("/*!80023 SELECT 1 */", "SELECT 2"), statements(SqlDialect.DEFAULT, sql, 5));
        assertEquals(List.of("SELECT 3"), statements(MYSQL_5_7, "/*M!100100 SELECT 1 */;SELECT 3;", 2));
    }

    @Test
    void groupsAreTheTopLevelParenthesesOutsideConditionalComments() {
        byte[] b = "INSERT INTO t (`a`,`b(`) VALUES (1,'(('),(2,CONCAT('x',(3))),(3,')') /*!50100 (x) */;"
                .getBytes(StandardCharsets.US_ASCII);
        SqlLexer lx = new SqlLexer(SqlDialect.DEFAULT);
        assertEquals(b.length, lx.scan(b, 0, b.length));
        assertEquals(4, lx.groups());
        lx.newStatement();
        assertEquals(0, lx.groups());
        assertFalse(lx.hasContent());
    }

    @Test
    void theEndTellsWhatWasLeftOpen() {
        assertEquals(Kind.STRING, openAtEnd("SELECT 'ab"));
        assertEquals(Kind.STRING, openAtEnd("SELECT 'ab\\"));
        assertEquals(Kind.IDENTIFIER, openAtEnd("SELECT `ab``"));
        assertEquals(Kind.COMMENT, openAtEnd("SELECT /* x"));
        assertEquals(Kind.COMMENT, openAtEnd("SELECT /*"));
        assertEquals(Kind.VERSION_MARK, openAtEnd("/*!40101 SET x=1"));
        assertEquals(Kind.VERSION_MARK, openAtEnd("/*!4010"));
        assertNull(openAtEnd("SELECT 1 -- x"));
        assertNull(openAtEnd("SELECT 'a'"));
        assertNull(openAtEnd("SELECT 1 --"));
    }

    private static Kind openAtEnd(String sql) {
        SqlLexer lx = new SqlLexer(SqlDialect.DEFAULT);
        for (int i = 0; i < sql.length(); i++) {
            lx.feed(sql.charAt(i));
        }
        lx.end();
        return lx.unterminated();
    }
}
