package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementLexerTest {
    private static List<StatementLexer.Statement> lex(byte[] input, int bufferSize) throws Exception {
        StatementLexer lx = new StatementLexer(new ByteArrayInputStream(input), bufferSize, 1 << 20);
        List<StatementLexer.Statement> out = new ArrayList<>();
        StatementLexer.Statement s;
        while ((s = lx.next()) != null) {
            out.add(s.copy()); // the lexer's buffer holds a statement only until the next one
        }
        return out;
    }

    private static List<String> texts(String input, int bufferSize) throws Exception {
        return lex(input.getBytes(StandardCharsets.UTF_8), bufferSize).stream()
                .map(s -> new String(s.text(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void semicolonsInsideQuotesCommentsAndNamesDoNotEndAStatement() throws Exception {
        String sql = "/*!40101 SET NAMES binary*/;\n"
                + "INSERT INTO `a;b` VALUES ('x;y','it''s;','back\\\\',\"dq;\\\";\"),(1,'\\';');\n"
                + "-- a comment; with semicolon\n"
                + "# another; one\n"
                + "/* block; comment */ INSERT INTO t VALUES (2);\n";
        for (int buf : new int[] {1, 2, 3, 7, 64, 1 << 16}) {
            List<String> t = texts(sql, buf);
            assertEquals(3, t.size(), "buffer " + buf + ": " + t);
            assertEquals("/*!40101 SET NAMES binary*/", t.get(0));
            assertEquals("INSERT INTO `a;b` VALUES ('x;y','it''s;','back\\\\',\"dq;\\\";\"),(1,'\\';')", t.get(1));
            assertTrue(t.get(2).endsWith("/* block; comment */ INSERT INTO t VALUES (2)"), t.get(2));
        }
    }

    @Test
    void offsetsAreByteSpansOfTheStream() throws Exception {
        String first = "INSERT INTO t VALUES ('é;ü');";
        String second = "\nINSERT INTO t VALUES (2);\n";
        byte[] all = (first + second).getBytes(StandardCharsets.UTF_8);
        for (int buf : new int[] {1, 5, 1 << 16}) {
            List<StatementLexer.Statement> s = lex(all, buf);
            assertEquals(2, s.size());
            int firstLen = first.getBytes(StandardCharsets.UTF_8).length;
            assertEquals(0, s.get(0).start());
            assertEquals(firstLen, s.get(0).end());
            assertEquals(firstLen, s.get(1).start());
            assertEquals(all.length - 1, s.get(1).end());
            // the span holds the statement text
            String span = new String(Arrays.copyOfRange(all, (int) s.get(1).start(), (int) s.get(1).end()),
                    StandardCharsets.UTF_8);
            assertEquals("INSERT INTO t VALUES (2);", span.strip());
        }
    }

    @Test
    void rawBinaryBytesInStringsPassThrough() throws Exception {
        byte[] head = "INSERT INTO t VALUES ('".getBytes(StandardCharsets.US_ASCII);
        byte[] body = {(byte) 0xff, (byte) 0xfe, 0x00, ';', '\\', '\'', (byte) 0x80};
        byte[] tail = "');".getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + body.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        System.arraycopy(tail, 0, all, head.length + body.length, tail.length);
        List<StatementLexer.Statement> s = lex(all, 3);
        assertEquals(1, s.size());
        assertArrayEquals(Arrays.copyOf(all, all.length - 1), s.get(0).text());
    }

    @Test
    void countsTopLevelParenthesisedGroups() throws Exception {
        List<StatementLexer.Statement> s = lex(("INSERT INTO t (`a`,`b(`) VALUES (1,'(('),(2,CONCAT('x',(3))),"
                + "(3,')');").getBytes(StandardCharsets.UTF_8), 4);
        assertEquals(4, s.get(0).topLevelGroups());
    }

    @Test
    void dashesThatAreNotCommentsAreCode() throws Exception {
        List<String> t = texts("INSERT INTO t VALUES (1--1);\nINSERT INTO t VALUES (-1);-- tail\n", 2);
        assertEquals(List.of("INSERT INTO t VALUES (1--1)", "INSERT INTO t VALUES (-1)"), t);
        assertEquals(List.of("SELECT 5-2", "SELECT 4/2"), texts("SELECT 5-2;SELECT 4/2;", 1));
    }

    @Test
    void commentsAndWhitespaceAtTheEndAreACleanEnd() throws Exception {
        assertEquals(List.of("SET x=1"), texts("SET x=1;\n-- done\n/* bye */\n  \n", 3));
        assertEquals(List.of(), texts(";;\n", 3));
    }

    @Test
    void aTruncatedStatementIsReportedWithItsStartOffset() {
        String good = "INSERT INTO t VALUES (1);\n";
        for (String cut : new String[] {"INSERT INTO t VALUES (2", "INSERT INTO t VALUES ('ab", "INSERT /* x",
                "INSERT INTO `t"}) {
            byte[] all = (good + cut).getBytes(StandardCharsets.UTF_8);
            StatementLexer lx = new StatementLexer(new ByteArrayInputStream(all), 4, 1 << 20);
            StatementLexer.MalformedSqlException e = assertThrows(StatementLexer.MalformedSqlException.class, () -> {
                assertEquals("INSERT INTO t VALUES (1)", new String(lx.next().text(), StandardCharsets.UTF_8));
                lx.next();
            }, cut);
            assertEquals(good.length() - 1, e.offset(), cut);
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        }
    }

    @Test
    void aStatementLargerThanTheLimitIsRefused() throws Exception {
        byte[] big = ("INSERT INTO t VALUES ('" + "x".repeat(100) + "');").getBytes(StandardCharsets.UTF_8);
        StatementLexer lx = new StatementLexer(new ByteArrayInputStream(big), 16, 50);
        assertThrows(StatementLexer.MalformedSqlException.class, lx::next);
        StatementLexer ok = new StatementLexer(new ByteArrayInputStream(big), 16, 500);
        assertEquals(big.length, ok.next().end());
        assertNull(ok.next());
    }

    @Test
    void conditionalCommentsAreCodeWhoseLiteralsAndSemicolonsDoNotEndAStatement() throws Exception {
        String first = "/*!40101 SET @x = ';*/', @y = 1; */";
        String second = "\n/*!50100 CREATE TABLE `t;` (c INT) */ /*M!100100 ; */";
        String third = "\nINSERT /*+ hint; */ INTO t VALUES (1) /*!50100 ,(2) */";
        byte[] all = (first + ";" + second + ";" + third + ";").getBytes(StandardCharsets.UTF_8);
        for (int buf = 1; buf <= 16; buf++) {
            List<StatementLexer.Statement> s = lex(all, buf);
            assertEquals(List.of(first, second.strip(), third.strip()),
                    s.stream().map(x -> new String(x.text(), StandardCharsets.UTF_8)).toList(), "buffer " + buf);
            assertEquals(first.length() + 1, s.get(0).end(), "buffer " + buf);
            assertEquals(s.get(0).end(), s.get(1).start());
            assertEquals(all.length, s.get(2).end());
            assertEquals(1, s.get(2).topLevelGroups(), "a group inside a conditional comment is not counted");
        }
        assertEquals(List.of(), texts("/*M!100100 SET x = 1 */;\n", 3), "MariaDB's conditional comment is a comment");
        assertEquals(List.of("/*!40101 SET x = 1 */"), texts("/*!40101 SET x = 1 */;\n", 3));
    }

    @Test
    void statementsOfEverySizeComeOutOfTheBufferWithTheirBytesAndSpans() throws Exception {
        java.util.Random r = new java.util.Random(7);
        List<String> expected = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (int k = 0; k < 300; k++) {
            int size = r.nextInt(8) == 0 ? 2000 + r.nextInt(20_000) : r.nextInt(60);
            StringBuilder v = new StringBuilder();
            for (int j = 0; j < size; j++) {
                v.append((char) ('a' + r.nextInt(26)));
            }
            String st = "INSERT INTO t VALUES ('" + v + "')," + "(" + k + ")";
            expected.add(st);
            all.append(r.nextBoolean() ? "\n" : " ").append(st).append(';');
        }
        byte[] bytes = all.toString().getBytes(StandardCharsets.UTF_8);
        for (int chunk : new int[] {5, 64, 1000, 1 << 16}) {
            StatementLexer lx = new StatementLexer(new ByteArrayInputStream(bytes), chunk, 1 << 20);
            long end = 0;
            for (String want : expected) {
                StatementLexer.Statement s = lx.next();
                // read in place, as the loader reads it, before the next statement is asked for
                assertEquals(want, new String(s.bytes(), s.from(), s.length(), StandardCharsets.UTF_8), "chunk " + chunk);
                assertEquals(end, s.start(), "chunk " + chunk);
                end = s.end();
                assertEquals(';', bytes[(int) end - 1], "chunk " + chunk);
                assertEquals(2, s.topLevelGroups());
            }
            assertNull(lx.next());
            assertEquals(bytes.length, lx.offset());
        }
    }
}
