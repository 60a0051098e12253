package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which numbers of MySQL's JSON text only a DECIMAL prints, and their paths. */
class JsonTextNumbersTest {
    private static List<String> decimals(String text) {
        return JsonTextNumbers.of(text).typed().stream().map(t -> t.path() + " " + t.expression()).toList();
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
}
