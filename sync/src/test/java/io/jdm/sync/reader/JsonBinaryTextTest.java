package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jdm.common.sql.JsonDocument;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Binary JSON documents captured from MySQL 8.0.31 and 5.7.22 binlogs, against the text each
 * server printed for them ({@code SELECT CAST(doc AS CHAR)}).
 */
class JsonBinaryTextTest {
    private static JsonDocument decode(String hex, boolean as57) {
        return JsonBinaryText.decode(HexFormat.of().parseHex(hex), as57);
    }

    private static List<String> expressions(JsonDocument d) {
        return d.typed().stream().map(t -> t.path() + " " + t.expression()).toList();
    }

    @Test
    void doublesAsMysqlPrintsThem() {
        // JSON_OBJECT('n', 1.5e300, 'i', 100e0, 'z', -0e0, 'm', 5e-324)
        JsonDocument d = decode("0004004400200001002100010022000100230001000b24000b2c000b34000b3c00696d6e7a000000"
                + "00000059400100000000000000355800662deb417e0000000000000080", false);
        assertEquals("{\"i\": 100.0, \"m\": 5e-324, \"n\": 1.5e300, \"z\": -0.0}", d.text());
        // MySQL's JSON parser is exact only for small significands and powers of ten
        assertEquals(List.of("$.\"m\" 5e-324", "$.\"n\" 1.5e300"), expressions(d));
    }

    @Test
    void decimalsStayDecimalsAndSmallUnsignedIntegersAreListed() {
        // JSON_OBJECT('d', 123456789012345678901234567890, 'f', 1.50, 'u', CAST(5 AS UNSIGNED),
        //             'big', 18446744073709551615)
        JsonDocument d = decode("0004004600200001002100010022000100230003000f26000f38000605000a3e00646675626967"
                + "f6101e00807b1b3a0c14149aa4350dfb38d2f60403028132ffffffffffffffff", false);
        assertEquals("{\"d\": 123456789012345678901234567890, \"f\": 1.50, \"u\": 5, \"big\": 18446744073709551615}",
                d.text());
        assertEquals(List.of("$.\"d\" CAST('123456789012345678901234567890' AS DECIMAL(30,0))",
                "$.\"f\" CAST('1.50' AS DECIMAL(3,2))", "$.\"u\" CAST(5 AS UNSIGNED)"), expressions(d));
    }

    @Test
    void temporalsKeepTheirTypeNegativeTimesTheirSign() {
        // JSON_OBJECT('t', CAST('-01:02:03' AS TIME), 'a', JSON_ARRAY(CAST('-10:00:00' AS TIME),
        //             CAST('2020-01-02' AS DATE), CAST('2020-01-02 03:04:05.123456' AS DATETIME(6))))
        JsonDocument d = decode("000200490012000100130001000214000f3f00617403002b000f0d000f17000f21000b08000000"
                + "0060ffffff0a08000000000044a5190c0840e201053144a5190b080000007defffffff", false);
        assertEquals("{\"a\": [\"-10:00:00.000000\", \"2020-01-02\", \"2020-01-02 03:04:05.123456\"], "
                + "\"t\": \"-01:02:03.000000\"}", d.text());
        assertEquals(List.of("$.\"a\"[0] CAST('-10:00:00.000000' AS TIME(6))", "$.\"a\"[1] CAST('2020-01-02' AS DATE)",
                "$.\"a\"[2] CAST('2020-01-02 03:04:05.123456' AS DATETIME(6))",
                "$.\"t\" CAST('-01:02:03.000000' AS TIME(6))"), expressions(d));
    }

    @Test
    void opaqueValuesKeepTheirFieldType() {
        // JSON_ARRAY(x'abcd', bit_col, blob_col, timestamp_col) on 8.0
        JsonDocument d = decode("02040025000f10000f14000f17000f1b000f02abcd100105fc02abcd070820a107053144a519",
                false);
        assertEquals("[\"base64:type15:q80=\", \"base64:type16:BQ==\", \"base64:type252:q80=\", "
                + "\"2020-01-02 03:04:05.500000\"]", d.text());
        assertEquals("x'abcd'", d.typed().get(0).expression());
        for (int i = 1; i < 4; i++) { // BIT, BLOB and TIMESTAMP have no expression of their type
            assertNull(d.typed().get(i).expression());
        }
    }

    @Test
    void stringsKeysAndLiteralsEscapedAsMysqlDoes() {
        // JSON_OBJECT('u', '😀 é', 'c', CHAR(1,8,10,34,92), 'k"', JSON_ARRAY(true, false, NULL, -32768,
        //             70000, -9223372036854775808))
        JsonDocument d = decode("0003004d00190001001a0001001b0002000c1d000c2300022b0063756b220501080a225c07f09f"
                + "988020c3a906002200040100040200040000050080071600091a00701101000000000000000080", false);
        assertEquals("{\"c\": \"\\u0001\\b\\n\\\"\\\\\", \"u\": \"😀 é\", "
                + "\"k\\\"\": [true, false, null, -32768, 70000, -9223372036854775808]}", d.text());
    }

    @Test
    void mysql57PrintsIntegralDoublesBareAndBase64LinesRaw() {
        // JSON_ARRAY(100e0, -0e0, x'ab', REPEAT(x'ab', 60)) on 5.7
        String hex = "02040061000b10000b18000f20000f2300000000000000594000000000000000801001abfd3c"
                + "ab".repeat(60);
        String base64 = "q6ur".repeat(19) + "\n" + "q6ur";
        assertEquals("[100, -0, \"base64:type16:qw==\", \"base64:type253:" + base64 + "\"]",
                decode(hex, true).text());
        assertEquals("[100.0, -0.0, \"base64:type16:qw==\", \"base64:type253:" + base64.replace("\n", "\\n") + "\"]",
                decode(hex, false).text());
    }

    @Test
    void emptyBytesAreNull() {
        assertEquals("null", JsonBinaryText.decode(new byte[0], false).text());
    }
}
