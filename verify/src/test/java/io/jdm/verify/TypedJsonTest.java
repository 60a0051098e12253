package io.jdm.verify;

import io.jdm.common.sql.CanonicalValues;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.sql.JsonDocument;
import io.jdm.verify.JsonScalars.Scalar;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scalars whose type MySQL's JSON text hides, and the typed documents built from the servers' answers. */
class TypedJsonTest {
    @Test
    void numbersAndWhatTemporalsAndOpaquesPrintAsAreListedWithTheirPaths() {
        String text = "{\"a\": [1.5, 3, {\"t\": \"12:00:00.000000\"}], \"b\": \"base64:type15:AQI=\", \"d\": \"2020-01-02\","
                + " \"n\": null, \"s\": \"x\", \"dt\": \"2020-01-02 03:04:05.000000\", \"k\\\"ey\": -1e300, \"z\": true}";
        assertEquals(List.of(
                new Scalar("$.\"a\"[0]", true, "1.5"),
                new Scalar("$.\"a\"[1]", true, "3"),
                new Scalar("$.\"a\"[2].\"t\"", false, "12:00:00.000000"),
                new Scalar("$.\"b\"", false, "base64:type15:AQI="),
                new Scalar("$.\"d\"", false, "2020-01-02"),
                new Scalar("$.\"dt\"", false, "2020-01-02 03:04:05.000000"),
                new Scalar("$.\"k\\\"ey\"", true, "-1e300")), JsonScalars.of(text));
        assertEquals(List.of(), JsonScalars.of("{\"s\": \"2020-01-0x\", \"e\": [], \"o\": {}}"));
        assertEquals(List.of(new Scalar("$", true, "7")), JsonScalars.of("7"));
    }

    @Test
    void aTablesCommonPathsComeMostFrequentFirst() {
        List<String> docs = List.of("{\"a\": 1, \"b\": [2, 3]}", "{\"a\": 1, \"b\": [2]}", "{\"a\": 1, \"c\": \"x\"}");
        assertEquals(List.of("$.\"a\"", "$.\"b\"[0]", "$.\"b\"[1]"), JsonScalars.commonPaths(docs, 10));
        assertEquals(List.of("$.\"a\"", "$.\"b\"[0]"), JsonScalars.commonPaths(docs, 2));
    }

    @Test
    void mysql57sRawLineBreaksInsideAnOpaqueAreRead() {
        String b64 = "A".repeat(76) + "\n" + "AQI=";
        assertEquals(List.of(new Scalar("$[0]", false, "base64:type15:" + b64), new Scalar("$[1]", true, "2")),
                JsonScalars.of("[\"base64:type15:" + b64 + "\", 2]"));
    }

    @Test
    void onlyTheShapesOfTemporalsCount() {
        for (String t : new String[] {"2020-01-02", "0000-00-00", "2020-01-02 03:04:05.000000", "-838:59:59.000000",
                "12:00:00", "630:59:59.000000", "base64:type252:AQI="}) {
            assertTrue(JsonScalars.mayBeTyped(t), t);
        }
        for (String t : new String[] {"2020-01-02x", "2020-1-02", "12:00", "12:0:00", "1:00:00.", "base64", "", "-"}) {
            assertFalse(JsonScalars.mayBeTyped(t), t);
        }
    }

    @Test
    void theTextsOwnTypeIsWhatMySqlsParserReads() {
        assertEquals("INTEGER", TypedJson.textType(new Scalar("$", true, "4294967295")));
        assertEquals("UNSIGNED INTEGER", TypedJson.textType(new Scalar("$", true, "4294967296")));
        assertEquals("INTEGER", TypedJson.textType(new Scalar("$", true, "-9223372036854775808")));
        assertEquals("DOUBLE", TypedJson.textType(new Scalar("$", true, "18446744073709551616")));
        assertEquals("DOUBLE", TypedJson.textType(new Scalar("$", true, "1.5")));
        assertEquals("STRING", TypedJson.textType(new Scalar("$", false, "2020-01-02")));
    }

    @Test
    void typesTheTextHidesAreWrittenBackByPath() {
        String text = "[\"2020-01-02\", 1.5, 3, 5, 9223372036854775807, \"630:59:59.000000\", \"base64:type15:AQI=\", 2.5,"
                + " \"2020-01-02 03:04:05.000000\", 0.30000000000000004]";
        List<Scalar> s = JsonScalars.of(text);
        JsonDocument d = new TypedJson(text, s, List.of("DATE", "DECIMAL", "DOUBLE", "UNSIGNED INTEGER", "INTEGER",
                "TIME", "BLOB", "DOUBLE", "DATETIME", "DOUBLE")).document();
        assertEquals(List.of(
                new JsonDocument.Typed("$[0]", "CAST('2020-01-02' AS DATE)", null),
                new JsonDocument.Typed("$[1]", "CAST('1.5' AS DECIMAL(2,1))", null),
                new JsonDocument.Typed("$[2]", "3e0", null), // MySQL 5.7 prints the double 3 so
                new JsonDocument.Typed("$[3]", "CAST(5 AS UNSIGNED)", null),
                new JsonDocument.Typed("$[4]", "CAST(9223372036854775807 AS SIGNED)", null),
                new JsonDocument.Typed("$[5]", "CAST('838:59:59.000000' AS TIME(6))", null),
                new JsonDocument.Typed("$[6]", "_binary x'0102'", null),
                new JsonDocument.Typed("$[8]", "CAST('2020-01-02 03:04:05.000000' AS DATETIME(6))", null),
                // a double MySQL's parser would read as a neighbour
                new JsonDocument.Typed("$[9]", "0.30000000000000004e0", null)),
                d.typed());
        // the same types as the text's own: nothing to set (a double the parser reads exactly)
        assertEquals(List.of(), new TypedJson("[1.5, \"x\"]", JsonScalars.of("[1.5, \"x\"]"), List.of("DOUBLE"))
                .document().typed());
    }

    @Test
    void aTimestampOrAnotherOpaqueTypeHasNoExpression() {
        String text = "[\"2020-01-01 00:00:00.000000\", \"base64:type252:AQI=\"]";
        JsonDocument d = new TypedJson(text, JsonScalars.of(text), List.of("TIMESTAMP", "BLOB")).document();
        assertNull(d.typed().get(0).expression());
        assertTrue(d.typed().get(0).refusal().contains("$[0] is a TIMESTAMP"), d.typed().get(0).refusal());
        assertNull(d.typed().get(1).expression());
        assertTrue(d.typed().get(1).refusal().contains("MySQL field type 252"), d.typed().get(1).refusal());
    }

    @Test
    void theReportNamesTheTypesThatDiffer() {
        String text = "{\"d\": \"2020-01-02\", \"n\": 1.5}";
        List<Scalar> s = JsonScalars.of(text);
        TypedJson source = new TypedJson(text, s, List.of("DATE", "DECIMAL"));
        TypedJson target = new TypedJson(text, s, List.of("STRING", "DECIMAL"));
        assertEquals("'{\"d\": \"2020-01-02\", \"n\": 1.5}' ($.\"d\" DATE)", source.showAgainst(target));
        assertEquals("'{\"d\": \"2020-01-02\", \"n\": 1.5}' ($.\"d\" STRING)", target.showAgainst(source));
        assertEquals("'{\"d\": \"2020-01-02\", \"n\": 1.5}' ($.\"d\" DATE, $.\"n\" DECIMAL)", source.show());
    }

    @Test
    void jsonValuesCompareNumbersByValue() {
        assertTrue(CanonicalValues.sameJsonValue("{\"a\": [3, 1.50]}", "{\"a\": [3.0, 1.5]}"));
        assertTrue(CanonicalValues.sameJsonValue("{\"a\": 1, \"b\": 2}", "{\"b\": 2, \"a\": 1}"));
        assertFalse(CanonicalValues.sameJsonValue("[\"3\"]", "[3]"));
        assertFalse(CanonicalValues.sameJsonValue("[1, 2]", "[2, 1]"));
        assertTrue(CanonicalValues.sameJsonValue(null, null));
        assertFalse(CanonicalValues.sameJsonValue("[1]", null));
    }
}
