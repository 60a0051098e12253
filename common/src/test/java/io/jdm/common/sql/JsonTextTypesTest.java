package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which numbers of MySQL's JSON text only a DECIMAL prints, and their paths. */
class JsonTextTypesTest {
    private static List<String> decimals(String text) {
        return JsonTextTypes.of(text).typed().stream().map(t -> t.path() + " " + t.expression()).toList();
    }

    @Test
    void numbersADoubleOrAnIntegerWouldPrintOtherwiseAreDecimals() {
        assertEquals(List.of("$.\"d\" CAST('123456789012345678901234567890' AS DECIMAL(30,0))",
                        "$.\"f\" CAST('1.50' AS DECIMAL(3,2))", "$.\"z\"[1] CAST('0.00000' AS DECIMAL(5,5))",
                        "$.\"k\\\"ey\" CAST('-12.340' AS DECIMAL(5,3))"),
                decimals("{\"d\": 123456789012345678901234567890, \"f\": 1.50, \"z\": [1, 0.00000], "
                        + "\"k\\\"ey\": -12.340}"));
        assertEquals(List.of("$ CAST('" + "9".repeat(65) + "' AS DECIMAL(65,0))"), decimals("9".repeat(65)));
    }

    @Test
    void doublesTheParserWouldRoundToANeighbourAreDoubleLiterals() {
        // MySQL 8.0.31 reads the first back as 0.00000009126590312330532
        assertEquals(List.of("$[0] 0.00000009126590312330531e0", "$[1] 1.5e300", "$[2] 5e-324",
                "$[3] 0.30000000000000004e0"), decimals("[0.00000009126590312330531, 1.5e300, 5e-324, "
                + "0.30000000000000004]"));
    }

    @Test
    void numbersTheParserReadsBackUnchangedAreLeftAlone() {
        assertEquals(List.of(), decimals("[1.5, 100.0, -0.0, 1e22, 0.1, 18446744073709551615, "
                + "-9223372036854775808, 0, \"1.50\", true, null, {}, [], {\"a\": [0.6666666666666666]}]"));
        assertEquals(List.of(), decimals("not json 1.50"));
    }

    @Test
    void pathsFollowNestingAndKeepKeysAsPrinted() {
        assertEquals(List.of("$[0][0][0][0] CAST('1.50' AS DECIMAL(3,2))",
                        "$[1].\"a\".\"b\"[1].\"c\" CAST('2.50' AS DECIMAL(3,2))"),
                decimals("[[[[1.50]]], {\"a\": {\"b\": [1.5, {\"c\": 2.50}]}}]"));
        // escapes stay as MySQL printed them, which is how its paths quote a key
        assertEquals(List.of("$.\"\\u0001k\".\"\\\"\"[2] CAST('1.50' AS DECIMAL(3,2))",
                        "$.\"\\\\\" CAST('2.50' AS DECIMAL(3,2))"),
                decimals("{\"\\u0001k\": {\"\\\"\": [[], {}, 1.50]}, \"\\\\\": 2.50}"));
        assertEquals(List.of("$.\"g\" CAST('1.50' AS DECIMAL(3,2))"),
                decimals("{\"e\": { }, \"f\": [ ], \"g\": 1.50}"));
    }

    @Test
    void numbersInsideStringsAreNotNumbers() {
        assertEquals(List.of("$[2] CAST('2.50' AS DECIMAL(3,2))"),
                decimals("[\"a\\\", 1.50, \\\"\", \"b\\\\\", 2.50]"));
        assertEquals(List.of("$[1] CAST('1.50' AS DECIMAL(3,2))"), decimals("[\"\\u0031.50\", 1.50]"));
    }

    @Test
    void textThatIsNotJsonAsMySqlPrintsItHasNoTypedNumbers() {
        for (String t : new String[] {"", " ", "[1.50, 2.50", "[1.50, \"x", "[1.50] x", "{\"a\" 1.50}", "{\"a\": 1.50]",
                "[{\"a\": 1.50], 2.50]", "{a: 1.50}", "[1.50, 1-2]", "[1.5.0, 2.50]", "[\"\\", "{\"a\": 1.50,}",
                "[1.50 2.50]"}) {
            assertEquals(List.of(), decimals(t), t);
        }
    }

    private static List<String> typed(String text, String strings) {
        return JsonTextTypes.of(text, strings).typed().stream()
                .map(t -> t.path() + " " + (t.expression() != null ? t.expression() : "refused")).toList();
    }

    /** MySQL 8.0.31's text of a document and its {@link JsonTextTypes#stringsSql} answer, as read from it. */
    @Test
    void printedStringsTheSourceSaysAreNoStringsAreWrittenWithTheirType() {
        assertEquals(List.of("$.\"a\"[0] CAST('12:00:00.000000' AS TIME(6))", "$.\"a\"[2] x'0102'",
                        "$.\"a\"[3] CAST('1.50' AS DECIMAL(3,2))",
                        "$.\"a\"[4] CAST('2020-01-02 03:04:05.000000' AS DATETIME(6))",
                        "$.\"d\" CAST('2020-01-02' AS DATE)"),
                typed("{\"a\": [\"12:00:00.000000\", \"x\", \"base64:type15:AQI=\", 1.50, "
                        + "\"2020-01-02 03:04:05.000000\"], \"d\": \"2020-01-02\", \"s\": \"2020-01-02\"}",
                        "[\"$.a[1]\", \"$.s\"]"));
        assertEquals(List.of("$ CAST('2020-01-02' AS DATE)"), typed("\"2020-01-02\"", "[]"));
        assertEquals(List.of("$.\"a\"[4]"), JsonTextTypes.datetimePaths(JsonTextTypes.of(
                "{\"a\": [1, 2, 3, 4, \"2020-01-02 03:04:05.000000\"]}", "[]")));
        assertEquals(List.of(), typed("{\"s\": \"2020-01-02\"}", "\"$.s\""), "one path: a string, not a list");
    }

    @Test
    void pathsTheSourceQuotesAreTheWalkersPaths() {
        // JSON_SEARCH quotes a key that is no identifier: $."k\"q", printed as a JSON string
        assertEquals(List.of("$.\"d\" CAST('2020-01-02' AS DATE)"),
                typed("{\"d\": \"2020-01-02\", \"k\\\"q\": \"2020-01-03\", \"my key\": [\"2020-01-04\"]}",
                        "[\"$.\\\"k\\\\\\\"q\\\"\", \"$.\\\"my key\\\"[0]\"]"));
        assertEquals("$.\"a\"[1].\"b c\".\"d\"", JsonTextTypes.walkerPath("$.a[1].\"b c\".d"));
    }

    @Test
    void aTimeOf32HoursOrMoreIsWrittenWithTheHoursThatStoreAsPrinted() {
        assertEquals(List.of("$[0] CAST('-838:59:59.000000' AS TIME(6))", "$[1] CAST('32:00:00.000000' AS TIME(6))",
                        "$[2] CAST('-01:02:03.000000' AS TIME(6))"),
                typed("[\"-630:59:59.000000\", \"24:00:00.000000\", \"-01:02:03.000000\"]", "[]"));
    }

    /** MySQL 8.0 prints an opaque value's line breaks as {@code \n}, 5.7 as they are, and a binary string as type 253. */
    @Test
    void anOpaqueValueOtherThanABinaryStringIsRefused() {
        String base64 = java.util.Base64.getMimeEncoder(76, new byte[] {'\n'})
                .encodeToString("ab".repeat(60).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(List.of("$[0] x'" + "6162".repeat(60) + "'", "$[1] x'" + "6162".repeat(60) + "'", "$[2] refused"),
                typed("[\"base64:type15:" + base64.replace("\n", "\\n") + "\", \"base64:type15:" + base64 + "\", "
                        + "\"base64:type253:" + base64 + "\"]", "[]"));
    }

    @Test
    void aValueTheSourceSaysIsNoStringButPrintsAsNoOtherTypeFailsTheDocument() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JsonTextTypes.of("[\"hello\"]", "[]"));
        assertEquals("the JSON value at $[0] prints as \"hello\" and is no string, nor any value MySQL prints so",
                e.getMessage());
    }
}
