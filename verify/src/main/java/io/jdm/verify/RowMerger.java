package io.jdm.verify;

import io.jdm.common.sql.CanonicalValues;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.ResultSetValues;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Merge-compares one chunk's rows, streamed from both sides in the same order, holding one row per
 * side: a key only in the source is missing, only in the target extra, in both with other values
 * changed. Without a key every column is the key, so the comparison is a multiset one: duplicates
 * pair off and what is left over is missing or extra.
 */
final class RowMerger {
    /** Receives the differing rows, as canonical values in the plan's column order. */
    interface Sink {
        void missing(Object[] source) throws SQLException;

        void extra(Object[] target) throws SQLException;

        void changed(Object[] source, Object[] target, List<Integer> columns) throws SQLException;

        /** A row in both with equal values; JSON compared by type still awaits its types ({@link JsonTypeCheck}). */
        default void matched(Object[] source, Object[] target) throws SQLException {
        }
    }

    private final TablePlan plan;
    private final int[] order;

    RowMerger(TablePlan plan) {
        this.plan = plan;
        this.order = plan.orderColumns();
    }

    /** Returns how many rows differ. */
    long merge(ResultSet source, ResultSet target, Sink sink) throws SQLException {
        long diffs = 0;
        Object[] s = next(source, plan.sourceColumns);
        Object[] t = next(target, plan.targetColumns);
        while (s != null || t != null) {
            int c = s == null ? 1 : t == null ? -1 : compareOrder(s, t);
            if (c < 0) {
                sink.missing(s);
                diffs++;
                s = next(source, plan.sourceColumns);
            } else if (c > 0) {
                sink.extra(t);
                diffs++;
                t = next(target, plan.targetColumns);
            } else {
                List<Integer> changed = changedColumns(s, t);
                if (!changed.isEmpty()) {
                    sink.changed(s, t, changed);
                    diffs++;
                } else {
                    sink.matched(s, t);
                }
                s = next(source, plan.sourceColumns);
                t = next(target, plan.targetColumns);
            }
        }
        return diffs;
    }

    private int compareOrder(Object[] s, Object[] t) {
        for (int i : order) {
            int c = CanonicalValues.compare(plan.sourceColumns.get(i), s[i], t[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    List<Integer> changedColumns(Object[] s, Object[] t) {
        List<Integer> out = new ArrayList<>(0);
        for (int i = 0; i < s.length; i++) {
            boolean same = plan.typedJson[i] ? CanonicalValues.sameJsonValue((String) s[i], (String) t[i])
                    : CanonicalValues.same(plan.sourceColumns.get(i), s[i], t[i], plan.json[i]);
            if (!same) {
                out.add(i);
            }
        }
        return out;
    }

    /** The next row of {@code rs} read as {@code columns}, or null after the last. */
    static Object[] next(ResultSet rs, List<Column> columns) throws SQLException {
        if (!rs.next()) {
            return null;
        }
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = ResultSetValues.read(rs, i + 1, columns.get(i));
        }
        return row;
    }
}
