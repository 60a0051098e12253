package io.jdm.verify;

import java.util.Arrays;

/**
 * A key range of one table: {@code lower <= key < upper}, compared lexicographically over the key
 * columns; a null bound is open. The first and last chunks are open so the target's rows outside
 * the source's key range are compared too. A table without a key is one chunk with both bounds open.
 * The bounds are key values, bound as parameters, so one chunk selects the same range on the source
 * and on the target (the dump's chunks, by contrast, are SQL conditions read inside one snapshot).
 */
final class KeyRangeChunk {
    final TablePlan plan;
    final int index;
    final Object[] lower;
    final Object[] upper;

    KeyRangeChunk(TablePlan plan, int index, Object[] lower, Object[] upper) {
        this.plan = plan;
        this.index = index;
        this.lower = lower == null ? null : lower.clone();
        this.upper = upper == null ? null : upper.clone();
    }

    /** {@code table chunk 3 [(100) .. (200))}, for error lines. */
    String describe() {
        return plan.pair + " chunk " + index + " [" + bound(lower) + " .. " + bound(upper) + ")";
    }

    private static String bound(Object[] b) {
        if (b == null) {
            return "*";
        }
        String s = Arrays.deepToString(b);
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
