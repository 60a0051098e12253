package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.verify.JsonScalars.Scalar;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How verify reads MySQL's JSON text for the scalars whose type it hides: paths, escapes, text that is not JSON. */
class JsonScalarsTest {
    @Test
    void pathsFollowNestingAndKeepKeysAsPrinted() {
        assertEquals(List.of(
                new Scalar("$[0][0][0][0]", true, "1"),
                new Scalar("$[1].\"a\".\"b\"[0]", false, "2020-01-02"),
                new Scalar("$[1].\"a\".\"b\"[1].\"c\"", true, "2.5")),
                JsonScalars.of("[[[[1]]], {\"a\": {\"b\": [\"2020-01-02\", {\"c\": 2.5}]}}]"));
        assertEquals(List.of(
                new Scalar("$.\"\\u0001k\".\"\\\"\"[2]", false, "12:00:00"),
                new Scalar("$.\"\\\\\"", true, "-0.0")),
                JsonScalars.of("{\"\\u0001k\": {\"\\\"\": [[], {}, \"12:00:00\"]}, \"\\\\\": -0.0}"));
        assertEquals(List.of(new Scalar("$.\"g\"", true, "1")), JsonScalars.of("{\"e\": { }, \"f\": [ ], \"g\": 1}"));
    }

    @Test
    void aStringsTextIsItsContentsWithEscapesAsPrinted() {
        assertEquals(List.of(new Scalar("$[2]", true, "2")),
                JsonScalars.of("[\"a\\\", 1, \\\"\", \"2020-01-02\\\\\", 2]"));
        assertEquals(List.of(new Scalar("$[1]", false, "2020-01-02 03:04:05.000000")),
                JsonScalars.of("[\"\\u0031\\u0032:00:00\", \"2020-01-02 03:04:05.000000\"]"));
    }

    @Test
    void textThatIsNotJsonYieldsWhatWasReadBeforeTheFault() {
        assertEquals(List.of(), JsonScalars.of(""));
        assertEquals(List.of(), JsonScalars.of("not json 1"));
        assertEquals(List.of(new Scalar("$.\"a\"[0]", true, "1.5"), new Scalar("$.\"a\"[1]", false, "2020-01-02"),
                new Scalar("$.\"a\"[2].\"b\"", true, "3")), JsonScalars.of("{\"a\": [1.5, \"2020-01-02\", {\"b\": 3"));
        assertEquals(List.of(new Scalar("$[0]", true, "1")), JsonScalars.of("[1, \"2020-01-02"));
        assertEquals(List.of(new Scalar("$[0]", true, "1")), JsonScalars.of("[1] 2"));
        assertEquals(List.of(new Scalar("$[0]", true, "1-2"), new Scalar("$[1]", true, "1.5.0")),
                JsonScalars.of("[1-2, 1.5.0]"));
        // where a colon or a closing bracket should be, any character is passed over
        assertEquals(List.of(new Scalar("$.\"b\"", true, "2")), JsonScalars.of("{\"a\" 1, \"b\": 2}"));
        assertEquals(List.of(new Scalar("$[0].\"a\"", true, "1"), new Scalar("$[1]", true, "2")),
                JsonScalars.of("[{\"a\": 1], 2]"));
    }
}
