package io.jdm.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyRangesTest {
    @Test
    void singleColumnLowerInclusiveUpperExclusive() {
        assertEquals("`id` >= 10 AND `id` < 20", KeyRanges.range("`id`", "10", "20"));
        assertEquals("`id` < 20", KeyRanges.range("`id`", null, "20"));
        assertEquals("`id` >= 10", KeyRanges.range("`id`", "10", null));
        assertNull(KeyRanges.range("`id`", null, null));
    }

    @Test
    void tupleBoundsSpellOutThePrefixes() {
        List<String> cols = List.of("`a`", "`b`", "`c`");
        assertEquals("`a` >= 1 AND ((`a` > 1) OR (`a` = 1 AND `b` > 'x') OR (`a` = 1 AND `b` = 'x' AND `c` >= 2))",
                KeyRanges.range(cols, List.of("1", "'x'", "2"), null));
        assertEquals("`a` <= 5 AND ((`a` < 5) OR (`a` = 5 AND `b` < 'y') OR (`a` = 5 AND `b` = 'y' AND `c` < 0))",
                KeyRanges.range(cols, null, List.of("5", "'y'", "0")));
    }

    /** Evaluates the spelled-out tuple bound the way SQL would, to prove it is the lexicographic order. */
    @Test
    void tupleBoundMatchesLexicographicOrderOnAGrid() {
        int[] lo = {1, 1};
        int[] hi = {2, 1};
        for (int a = 0; a <= 3; a++) {
            for (int b = 0; b <= 3; b++) {
                boolean expected = compare(a, b, lo) >= 0 && compare(a, b, hi) < 0;
                boolean lower = a >= lo[0] && (a > lo[0] || (a == lo[0] && b >= lo[1]));
                boolean upper = a <= hi[0] && (a < hi[0] || (a == hi[0] && b < hi[1]));
                assertEquals(expected, lower && upper, "a=" + a + " b=" + b);
            }
        }
        assertEquals("`a` >= 1 AND ((`a` > 1) OR (`a` = 1 AND `b` >= 1)) AND `a` <= 2 AND ((`a` < 2) OR (`a` = 2 AND `b` < 1))",
                KeyRanges.range(List.of("`a`", "`b`"), List.of("1", "1"), List.of("2", "1")));
    }

    private static int compare(int a, int b, int[] t) {
        return a != t[0] ? Integer.compare(a, t[0]) : Integer.compare(b, t[1]);
    }

    @Test
    void andJoinsOptionalConditions() {
        assertEquals("(`id` < 5) AND (x > 1)", ChunkPlanner.and("`id` < 5", "x > 1"));
        assertEquals("x > 1", ChunkPlanner.and(null, "x > 1"));
        assertNull(ChunkPlanner.and(null, null));
    }
}
