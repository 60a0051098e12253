package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.common.sql.MysqlLatin1;
import io.jdm.load.TsvRows.Column;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The text {@link TsvRows} hands to LOAD DATA, byte for byte. What the server makes of it is
 * {@code BulkLoadIT}'s to show; this pins the conversion rules themselves.
 */
class TsvRowsTest {
    private static final Column N = Column.NUMBER;
    private static final Column B = Column.BINARY;
    private static final Column O = Column.OTHER;
    private static final Column L = Column.LATIN1;
    private static final Column M = Column.UTF8MB3;

    private static String convert(String values, Column... columns) throws TsvRows.Unsupported {
        TsvRows.Out out = new TsvRows.Out();
        byte[] sql = values.getBytes(StandardCharsets.ISO_8859_1);
        TsvRows.append(sql, 0, columns, out);
        String whole = new String(out.buf, 0, out.len, StandardCharsets.ISO_8859_1);
        // the same statement in the middle of a larger buffer, as the statement splitter hands it
        // over: the bytes around it (a row more, an open string) must not be read
        byte[] before = "INSERT INTO t VALUES (1);\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] after = ",(9);('".getBytes(StandardCharsets.ISO_8859_1);
        byte[] buf = new byte[before.length + sql.length + after.length];
        System.arraycopy(before, 0, buf, 0, before.length);
        System.arraycopy(sql, 0, buf, before.length, sql.length);
        System.arraycopy(after, 0, buf, before.length + sql.length, after.length);
        out.clear();
        TsvRows.append(buf, before.length, before.length, before.length + sql.length, columns, out);
        assertEquals(whole, new String(out.buf, 0, out.len, StandardCharsets.ISO_8859_1), "inside a larger buffer");
        return whole;
    }

    @Test
    void sqlEscapesBecomeLoadDataEscapesOfTheSameBytes() throws Exception {
        assertEquals("a\\0b\\bc\\nd\\re\\tf\\Zg\\\\h'i\"j\\\\%k\\\\_l\n",
                convert("('a\\0b\\bc\\nd\\re\\tf\\Zg\\\\h\\'i\\\"j\\%k\\_l')", O));
        assertEquals("it's \"q\"\tdouble \"x\"\n", convert("('it''s \"q\"', \"double \"\"x\"\"\")", O, O));
        assertEquals("raw\\ttab\\nnewline\n", convert("('raw\ttab\nnewline')", O));
        assertEquals("\\\\N\tNULL\t\\N\t\n", convert("('\\\\N','NULL',NULL,'')", O, O, O, O));
    }

    @Test
    void whatTheDumpWritesComesOutAsTheSameBytesAnywhereInALongString() throws Exception {
        byte[] specials = {0, '\n', '\r', '\t', '\\', '\'', '"', 26, ' ', (byte) 0xC3, (byte) 0xA9};
        java.util.Random random = new java.util.Random(5);
        for (int round = 0; round < 5000; round++) {
            byte[] value = new byte[random.nextInt(40)];
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < value.length; i++) {
                value[i] = random.nextInt(4) == 0 ? specials[random.nextInt(specials.length)]
                        : (byte) ('0' + random.nextInt(10));
                expected.append(switch (value[i]) {
                    case 0 -> "\\0";
                    case '\n' -> "\\n";
                    case '\r' -> "\\r";
                    case '\t' -> "\\t";
                    case '\\' -> "\\\\";
                    case 26 -> "\\Z";
                    default -> String.valueOf((char) (value[i] & 0xFF));
                });
            }
            io.jdm.common.sql.SqlBytes sql = new io.jdm.common.sql.SqlBytes(16);
            sql.append('(');
            io.jdm.common.sql.ValueEncoder.appendString(sql, value);
            sql.append(')');
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            sql.writeTo(bytes);
            String values = bytes.toString(StandardCharsets.ISO_8859_1);
            assertEquals(expected + "\n", convert(values, O), values);
        }
    }

    @Test
    void numbersGoAsTheyAreIntoNumericColumnsAndNegativeDecimalZeroLosesItsSign() throws Exception {
        assertEquals("1\t-12.5\t1.5e3\t0\t0.00\t-0e0\n", convert("(1,-12.5,1.5e3,-0,-0.00,-0e0)", N, N, N, N, N, N));
        assertEquals("1\n2\n", convert(" (1) ,\n (2) ", N));
    }

    @Test
    void hexLiteralsBecomeTheirBytesInBinaryColumns() throws Exception {
        assertEquals("\0\\t\\n\\\\N\tA\n", convert("(0x00090A5C4E,X'41')", B, B));
        assertEquals("\n", convert("(X'')", B));
    }

    /** Long literals, as a dump writes BLOBs, in either case of digit, odd (0x only) or even: every byte value. */
    @Test
    void longHexLiteralsBecomeTheirBytesWithTheBytesLoadDataReadsAsStructureEscaped() throws Exception {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 300; round++) {
            int n = random.nextInt(600);
            StringBuilder digits = new StringBuilder();
            StringBuilder expected = new StringBuilder();
            boolean odd = random.nextInt(4) == 0;
            if (odd) {
                int d = random.nextInt(16);
                digits.append(Character.forDigit(d, 16));
                expected.append(d == 9 ? "\\t" : d == 10 ? "\\n" : String.valueOf((char) d));
            }
            for (int i = 0; i < n; i++) {
                int b = random.nextInt(256);
                String hex = String.format("%02x", b);
                digits.append(random.nextBoolean() ? hex : hex.toUpperCase(java.util.Locale.ROOT));
                expected.append(switch (b) {
                    case '\t' -> "\\t";
                    case '\n' -> "\\n";
                    case '\\' -> "\\\\";
                    default -> String.valueOf((char) b);
                });
            }
            // X'…' takes an even count of digits only
            String literal = digits.length() == 0 ? "X''" : odd || random.nextBoolean() ? "0x" + digits
                    : "X'" + digits + "'";
            assertEquals("1\t" + expected + "\t2\n", convert("(1, " + literal + " ,2)", N, B, N), literal);
        }
        assertThrows(TsvRows.Unsupported.class, () -> convert("(0x41g)", B), "a word that is not hex");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(X'4')", B), "an odd quoted literal");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(X'4G')", B), "a letter that is not a digit");
    }

    @Test
    void whatTextWouldMeanDifferentlyIsRefused() {
        assertThrows(TsvRows.Unsupported.class, () -> convert("(2)", O), "an unquoted number in an ENUM or YEAR");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(0x41)", O), "hex into a text column");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(b'101')", N), "a bit literal");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(_binary'a')", O), "an introducer");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(NOW())", O), "a function");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(DEFAULT)", N), "DEFAULT");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(1,2)", N), "more values than columns");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(1)", N, N), "fewer values than columns");
        assertThrows(TsvRows.Unsupported.class, () -> convert("('open", O), "an unterminated string");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(1) ON DUPLICATE KEY UPDATE a=1", N), "a tail");
    }

    /** The bytes {@link TsvRows} makes of {@code values} written in UTF-8, for one column of {@code kind}. */
    private static byte[] utf8(byte[] values, Column kind) throws TsvRows.Unsupported {
        TsvRows.Out out = new TsvRows.Out();
        TsvRows.append(values, 0, new Column[] {kind}, out);
        return java.util.Arrays.copyOf(out.buf, out.len);
    }

    private static byte[] utf8(String values, Column kind) throws TsvRows.Unsupported {
        return utf8(values.getBytes(StandardCharsets.UTF_8), kind);
    }

    @Test
    void aLatin1ColumnTakesTheLatin1ByteOfEachCharacterWhereverItStands() throws Exception {
        StringBuilder every = new StringBuilder();
        for (int b = 0x20; b < 256; b++) {
            if (b != '\'' && b != '\\') {
                every.append(MysqlLatin1.toUnicode((byte) b));
            }
        }
        assertEquals(every + "\n", new String(utf8("('" + every + "')", L), MysqlLatin1.INSTANCE));
        String[] pieces = {"a", "bcdefghij", "\u00e9", "\u20ac", "\u0081", "\u00ff", "''", "\\t", "\t", "\u0152"};
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 5000; round++) {
            StringBuilder sql = new StringBuilder("('");
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                String p = pieces[random.nextInt(pieces.length)];
                sql.append(p);
                text.append(switch (p) {
                    case "''" -> "'";
                    case "\\t", "\t" -> "\\t";
                    default -> p;
                });
            }
            sql.append("')");
            assertEquals(text + "\n", new String(utf8(sql.toString(), L), MysqlLatin1.INSTANCE),
                    sql.toString());
        }
        assertEquals("caf\u00c3\u00a9\n", new String(utf8("('caf\u00e9')", O), StandardCharsets.ISO_8859_1),
                "another column keeps the UTF-8 bytes");
        assertEquals("\u00c3\u00a9\n", new String(utf8("('\u00e9')", B), StandardCharsets.ISO_8859_1),
                "a binary column keeps the bytes of a string");
    }

    @Test
    void aUtf8mb3ColumnTakesItsTextAsItIsAndRefusesCharactersOfFourBytes() throws Exception {
        String text = "caf\u00e9 \u65e5\u672c\u8a9e \u20ac";
        assertEquals(text + "\n", new String(utf8("('" + text + "')", M), StandardCharsets.UTF_8));
        java.util.Random random = new java.util.Random(11);
        for (int round = 0; round < 2000; round++) {
            StringBuilder sql = new StringBuilder("('");
            for (int n = random.nextInt(20); n > 0; n--) {
                sql.append(random.nextBoolean() ? "\u65e5" : "abc");
            }
            sql.append("\ud83d\udc2c");
            for (int n = random.nextInt(20); n > 0; n--) {
                sql.append(random.nextBoolean() ? "\u00e9" : "xyz");
            }
            sql.append("')");
            assertThrows(TsvRows.Unsupported.class, () -> utf8(sql.toString(), M), sql.toString());
            assertEquals(sql.substring(2, sql.length() - 2) + "\n",
                    new String(utf8(sql.toString(), O), StandardCharsets.UTF_8), "a utf8mb4 column takes it");
        }
        assertThrows(TsvRows.Unsupported.class, () -> utf8("('a\\\u00e9')", M), "an escaped character of several bytes");
    }

    @Test
    void aCharacterLatin1HasNoByteForIsRefused() {
        for (String s : new String[] {"\u0123", "\u0080", "\ud83d\udc2c", "\u20ad", "caf\\\u00e9"}) {
            assertThrows(TsvRows.Unsupported.class, () -> utf8("('x" + s + "y')", L), s);
        }
        byte[][] notUtf8 = {{'(', '\'', (byte) 0xe0, (byte) 0x83, (byte) 0xa9, '\'', ')'}, // overlong é
                            {'(', '\'', (byte) 0xc3, 'A', '\'', ')'}, // no continuation
                            {'(', '\'', (byte) 0xe9, '\'', ')'}, // a latin1 byte, not UTF-8
                            {'(', '\'', 'a', (byte) 0xc3}}; // the statement ends inside the character
        for (byte[] sql : notUtf8) {
            assertThrows(TsvRows.Unsupported.class, () -> utf8(sql, L), java.util.HexFormat.of().formatHex(sql));
        }
    }

    @Test
    void aStatementInsideALargerBufferEndsWhereItsSpanEndsAndIsReportedFromItsOwnStart() {
        byte[] buf = "xx(1,'open')".getBytes(StandardCharsets.ISO_8859_1);
        TsvRows.Unsupported e = assertThrows(TsvRows.Unsupported.class,
                () -> TsvRows.append(buf, 2, 2, 10, new Column[] {N, O}, new TsvRows.Out()));
        assertEquals("a string that starts at byte 3 of the statement does not end", e.getMessage());
    }
}
