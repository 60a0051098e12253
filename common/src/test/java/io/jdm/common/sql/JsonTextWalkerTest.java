package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The numbers and strings of MySQL's JSON text with their paths, read strictly and leniently. */
class JsonTextWalkerTest {
    /** What a walk reports, one line a value: {@code path number|string text}. */
    private static final class Seen implements JsonTextWalker.Scalars {
        private final String text;
        private final List<String> lines = new ArrayList<>();

        Seen(String text) {
            this.text = text;
        }

        @Override
        public void number(CharSequence path, int from, int to) {
            lines.add(path + " number " + text.substring(from, to));
        }

        @Override
        public void string(CharSequence path, int from, int to) {
            lines.add(path + " string " + text.substring(from, to));
        }
    }

    private static List<String> strict(String text) {
        Seen seen = new Seen(text);
        JsonTextWalker.walk(text, seen);
        return seen.lines;
    }

    private static List<String> lenient(String text) {
        Seen seen = new Seen(text);
        try {
            JsonTextWalker.walkLeniently(text, seen);
        } catch (IllegalArgumentException endsEarly) {
            seen.lines.add("ends early");
        }
        return seen.lines;
    }

    @Test
    void everyNumberAndStringComesWithItsPathInDocumentOrder() {
        String text = "{\"a\": [1, \"x\\\"y\", {\"k\\\\\": -2.5e3}], \"\\u00e9\": { }, \"b\": [ ], "
                + "\"c\": true, \"d\": null}";
        List<String> expected = List.of("$.\"a\"[0] number 1", "$.\"a\"[1] string x\\\"y",
                "$.\"a\"[2].\"k\\\\\" number -2.5e3");
        assertEquals(expected, strict(text));
        assertEquals(expected, lenient(text));
        assertEquals(List.of("$ string "), strict(" \"\" "));
        assertEquals(List.of("$ number 7"), strict("7"));
    }

    @Test
    void theStrictWalkRefusesWhatIsNotOneValueAsMySqlPrintsIt() {
        for (String t : new String[] {"", "[1", "[\"x", "[\"\\", "[1] 2", "{\"a\" 1}", "{a: 1}", "{\"a\": 1]", "[1 2]",
                "{\"a\": 1,}"}) {
            assertThrows(IllegalArgumentException.class, () -> strict(t), t);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> strict("{\"a\": 1]"));
        assertEquals("not JSON as MySQL prints it: expected '}' at offset 7", e.getMessage());
    }

    @Test
    void theLenientWalkReadsOnWhereTheStrictOneStops() {
        assertEquals(List.of("$[0].\"a\" number 1", "$[1] number 2"), lenient("[{\"a\": 1], 2]"));
        assertEquals(List.of("$.\"b\" number 2"), lenient("{\"a\" 1, \"b\": 2}"));
        assertEquals(List.of("$[0] number 1"), lenient("[1] 2"));
        assertEquals(List.of("$[0] number 1", "ends early"), lenient("[1, \"x"));
    }
}
