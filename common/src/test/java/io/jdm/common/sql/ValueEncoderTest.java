package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.common.schema.Column;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ValueEncoderTest {
    private static Column col(String dataType, String columnType) {
        return new Column("c", 1, dataType, columnType, true, false, null, null);
    }

    private static final Column INT = col("int", "int(11)");
    private static final Column BIGU = col("bigint", "bigint(20) unsigned");
    private static final Column VARCHAR = col("varchar", "varchar(10)");
    private static final Column BLOB = col("blob", "blob");
    private static final Column BIT = col("bit", "bit(64)");
    private static final Column FLOAT = col("float", "float");
    private static final Column DOUBLE = col("double", "double");
    private static final Column DECIMAL = col("decimal", "decimal(65,30)");
    private static final Column TIME = col("time", "time(6)");

    @Test
    void nullIsTheKeywordAndEmptyStringIsQuoted() {
        assertEquals("NULL", ValueEncoder.encode(VARCHAR, null));
        assertEquals("''", ValueEncoder.encode(VARCHAR, ""));
        assertEquals("'NULL'", ValueEncoder.encode(VARCHAR, "NULL"));
    }

    @Test
    void integersIncludingUnsignedBigintMax() {
        assertEquals("-9223372036854775808", ValueEncoder.encode(INT, Long.MIN_VALUE));
        assertEquals("18446744073709551615", ValueEncoder.encode(BIGU, new BigInteger("18446744073709551615")));
        assertEquals("7", ValueEncoder.encode(INT, 7));
        assertEquals("1", ValueEncoder.encode(INT, true));
    }

    @Test
    void decimalIsPlainNeverScientific() {
        assertEquals("0.000000000000000000000000000000", ValueEncoder.encode(DECIMAL, new BigDecimal("0E-30")));
        assertEquals("1200", ValueEncoder.encode(DECIMAL, new BigDecimal("1.2E+3")));
    }

    @Test
    void floatIsWrittenAsItsExactDoubleSoTheServerNarrowsBackToTheSameFloat() {
        assertEquals("3.4028234663852886E38", ValueEncoder.encode(FLOAT, Float.MAX_VALUE));
        assertEquals("1.2345677614212036", ValueEncoder.encode(FLOAT, 1.2345678f));
        float back = (float) Double.parseDouble(ValueEncoder.encode(FLOAT, 0.1f));
        assertEquals(0.1f, back);
    }

    @Test
    void doubleRoundTripsAndRejectsNaN() {
        assertEquals("4.9E-324", ValueEncoder.encode(DOUBLE, Double.MIN_VALUE));
        assertEquals("-0e0", ValueEncoder.encode(DOUBLE, -0.0d)); // "-0.0" is a DECIMAL, stored as +0
        assertEquals("-0e0", ValueEncoder.encode(FLOAT, -0.0f));
        assertEquals(0.1 + 0.2, Double.parseDouble(ValueEncoder.encode(DOUBLE, 0.1 + 0.2)));
        assertThrows(IllegalArgumentException.class, () -> ValueEncoder.encode(DOUBLE, Double.NaN));
    }

    @Test
    void stringEscapesAreMysqldumps() {
        String s = "a'b\\c\0d\ne\rf\u001Ag\"h\ti";
        assertEquals("'a\\'b\\\\c\\0d\\ne\\rf\\Zg\"h\ti'", ValueEncoder.encode(VARCHAR, s));
        assertEquals("'😀 世界'", ValueEncoder.encode(VARCHAR, "😀 世界"));
    }

    @Test
    void temporalStringsAreQuotedAsIs() {
        assertEquals("'-838:59:59.000000'", ValueEncoder.encode(TIME, "-838:59:59.000000"));
        assertEquals("'0000-00-00'", ValueEncoder.encode(col("date", "date"), "0000-00-00"));
    }

    @Test
    void bytesAreHexAndEmptyBytesAreAnEmptyHexLiteral() {
        assertEquals("0x00FF0A27", ValueEncoder.encode(BLOB, new byte[] {0, (byte) 0xFF, 10, 39}));
        assertEquals("x''", ValueEncoder.encode(BLOB, new byte[0]));
    }

    @Test
    void bitFromBytesOrLong() {
        assertEquals("b'1010101010'", ValueEncoder.encode(BIT, new byte[] {0x02, (byte) 0xAA}));
        assertEquals("b'0'", ValueEncoder.encode(BIT, new byte[] {0, 0}));
        assertEquals("b'" + "1".repeat(64) + "'", ValueEncoder.encode(BIT, -1L));
        assertEquals("b'101'", ValueEncoder.encode(BIT, 5L));
    }

    @Test
    void utf8BytesAreEscapedExactlyLikeTheText() {
        String[] parts = {"a", "b7", " ", "-", "'", "\\", "\0", "\n", "\r", "\u001A", "\t", "\"", "é", "世", "😀", "(", "\u007F"};
        java.util.Random random = new java.util.Random(42);
        for (int round = 0; round < 2000; round++) {
            StringBuilder text = new StringBuilder();
            int len = random.nextInt(40);
            for (int i = 0; i < len; i++) {
                text.append(random.nextInt(3) == 0 ? parts[random.nextInt(parts.length)] : "x");
            }
            String s = text.toString();
            SqlBytes out = new SqlBytes(4);
            out.appendAscii("v=");
            ValueEncoder.appendString(out, s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertEquals("v=" + ValueEncoder.encode(VARCHAR, s), out.toString(), "text " + s);
        }
    }

    @Test
    void bytesToTheByteBufferMatchTheText() {
        SqlBytes out = new SqlBytes(1);
        ValueEncoder.append(out, BLOB, new byte[] {0, (byte) 0xFF, 10, 39});
        out.append(',');
        ValueEncoder.append(out, BLOB, new byte[0]);
        out.append(',');
        ValueEncoder.append(out, BIT, new byte[] {0x02, (byte) 0xAA});
        out.append(',');
        ValueEncoder.append(out, VARCHAR, "it's 😀");
        out.append(',');
        ValueEncoder.append(out, VARCHAR, null);
        assertEquals("0x00FF0A27,x'',b'1010101010','it\\'s 😀',NULL", out.toString());
    }

    @Test
    void unknownTypesFailNamingTheColumn() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ValueEncoder.encode(VARCHAR, new Object()));
        assertEquals(true, e.getMessage().startsWith("column c (varchar(10))"));
    }

    @Test
    void aJsonDocumentIsRebuiltWithItsTypesInAJsonColumnAndIsTextElsewhere() {
        JsonDocument doc = new JsonDocument("{\"d\": 1.50, \"k'\": \"2020-01-02\"}", java.util.List.of(
                new JsonDocument.Typed("$.\"d\"", "CAST('1.50' AS DECIMAL(3,2))", null),
                new JsonDocument.Typed("$.\"k'\"", "CAST('2020-01-02' AS DATE)", null)));
        assertEquals("JSON_SET('{\"d\": 1.50, \"k\\'\": \"2020-01-02\"}', '$.\"d\"', "
                + "CAST('1.50' AS DECIMAL(3,2)), '$.\"k\\'\"', CAST('2020-01-02' AS DATE))",
                ValueEncoder.encode(col("json", "json"), doc));
        assertEquals("'{\"d\": 1.50, \"k\\'\": \"2020-01-02\"}'",
                ValueEncoder.encode(col("longtext", "longtext"), doc));
        assertEquals("CAST('[1]' AS JSON)", ValueEncoder.encode(col("json", "json"),
                new JsonDocument("[1]", java.util.List.of())));
    }
}
