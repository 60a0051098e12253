package io.jdm.dump;

import java.util.List;

/**
 * WHERE conditions for key ranges: lower bound inclusive, upper bound exclusive, on one column or a
 * key tuple. Tuples are spelled out as OR of prefixes rather than {@code (a,b) >= (x,y)} because
 * every optimizer turns the spelled-out form into index ranges; the leading column is repeated as a
 * plain bound so the range scan starts at the right place.
 */
final class KeyRanges {
    private KeyRanges() {
    }

    /** {@code lo <= col < hi} on quoted column {@code col}; either bound may be null. Null when both are. */
    static String range(String col, String lo, String hi) {
        return range(List.of(col), lo == null ? null : List.of(lo), hi == null ? null : List.of(hi));
    }

    /** {@code lo <= (cols) < hi} in key order; literals are already SQL text. Null when both bounds are null. */
    static String range(List<String> cols, List<String> lo, List<String> hi) {
        String lower = lo == null ? null : bound(cols, lo, ">", ">=");
        String upper = hi == null ? null : bound(cols, hi, "<", "<");
        if (lower == null) {
            return upper;
        }
        return upper == null ? lower : lower + " AND " + upper;
    }

    private static String bound(List<String> cols, List<String> vals, String strict, String last) {
        if (cols.size() != vals.size()) {
            throw new IllegalArgumentException("key has " + cols.size() + " columns, bound has " + vals.size());
        }
        if (cols.size() == 1) {
            return cols.get(0) + " " + last + " " + vals.get(0);
        }
        String lead = cols.get(0) + " " + (strict.equals(">") ? ">=" : "<=") + " " + vals.get(0);
        StringBuilder sb = new StringBuilder(lead).append(" AND (");
        for (int i = 0; i < cols.size(); i++) {
            sb.append(i == 0 ? "(" : " OR (");
            for (int j = 0; j < i; j++) {
                sb.append(cols.get(j)).append(" = ").append(vals.get(j)).append(" AND ");
            }
            sb.append(cols.get(i)).append(' ').append(i == cols.size() - 1 ? last : strict).append(' ')
                    .append(vals.get(i)).append(')');
        }
        return sb.append(')').toString();
    }
}
