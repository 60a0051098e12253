package io.jdm.verify;

import io.jdm.common.schema.Column;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.verify.ChecksumSql.Side;
import io.jdm.verify.JsonScalars.Scalar;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Compares a chunk's JSON columns by type ({@link JsonTyping}) around the row merge, which sees
 * their texts only. The merge's rows stream on both connections, which take no other statement
 * meanwhile, so rows wait here until the streams end:
 * <ul>
 * <li>a row equal in every column whose JSON holds scalars the text does not type: its key, and
 *     those scalars' paths (about the size of the text of its numbers and dates);
 * <li>a missing or changed row whose JSON holds such scalars: the whole source row, whose JSON
 *     the fix must write with its types.
 * </ul>
 * {@link #finish} then asks both servers the types at those paths, by key ({@link JsonTypeLookup}),
 * on the same connections, so a snapshot's source answers from its snapshot. A row whose types
 * differ is changed; its rows are read again by key for the report and the fix. Everything else
 * goes to the sink as it came.
 */
final class JsonTypeCheck implements RowMerger.Sink {
    private final TablePlan plan;
    private final RowMerger.Sink sink;
    private final List<Held> held = new ArrayList<>();

    private enum Kind { MISSING, CHANGED, MATCHED }

    /**
     * A row awaiting types: a MISSING or CHANGED one whole, a MATCHED one as its key only.
     * {@code scalars}: per column, those of the source's document, null where the column is not
     * compared by type.
     */
    private record Held(Kind kind, Object[] source, Object[] target, List<Integer> changed,
                        List<List<Scalar>> scalars) {
        /** The target is asked the types of a typed column whose texts matched. */
        boolean comparesTypes(int column) {
            return kind != Kind.MISSING && !changed.contains(column);
        }
    }

    JsonTypeCheck(TablePlan plan, RowMerger.Sink sink) {
        this.plan = plan;
        this.sink = sink;
    }

    @Override
    public void missing(Object[] source) throws SQLException {
        List<List<Scalar>> scalars = scalars(source);
        if (scalars == null) {
            sink.missing(source);
        } else {
            held.add(new Held(Kind.MISSING, source, null, List.of(), scalars));
        }
    }

    @Override
    public void extra(Object[] target) throws SQLException {
        sink.extra(target);
    }

    @Override
    public void changed(Object[] source, Object[] target, List<Integer> columns) throws SQLException {
        List<List<Scalar>> scalars = scalars(source);
        if (scalars == null) {
            sink.changed(source, target, columns);
        } else {
            held.add(new Held(Kind.CHANGED, source, target, columns, scalars));
        }
    }

    @Override
    public void matched(Object[] source, Object[] target) {
        List<List<Scalar>> scalars = scalars(source);
        if (scalars != null) {
            Object[] key = new Object[source.length];
            for (int k : plan.key) {
                key[k] = source[k];
            }
            held.add(new Held(Kind.MATCHED, key, null, List.of(), scalars));
        }
    }

    /** Per typed column, the scalars of the source's document; null when no column has any. */
    private List<List<Scalar>> scalars(Object[] source) {
        List<List<Scalar>> out = new ArrayList<>(source.length);
        boolean any = false;
        for (int i = 0; i < source.length; i++) {
            List<Scalar> s = plan.typedJson[i] && source[i] != null ? JsonScalars.of((String) source[i]) : null;
            any |= s != null && !s.isEmpty();
            out.add(s);
        }
        return any ? out : null;
    }

    /**
     * Asks the types of every waiting row and hands the rows to the sink; call with the chunk's
     * connections once its streams are closed. Returns how many rows, equal by text, differ by type.
     */
    long finish(Connection source, Connection target) throws SQLException {
        if (held.isEmpty()) {
            return 0;
        }
        List<JsonTypeLookup.Probe> sourceProbes = new ArrayList<>();
        List<JsonTypeLookup.Probe> targetProbes = new ArrayList<>();
        for (Held h : held) {
            for (int i = 0; i < h.scalars.size(); i++) {
                List<Scalar> s = h.scalars.get(i);
                if (s != null && !s.isEmpty()) {
                    JsonTypeLookup.Probe p = new JsonTypeLookup.Probe(h.source, i, s.stream().map(Scalar::path).toList());
                    sourceProbes.add(p);
                    if (h.comparesTypes(i)) {
                        targetProbes.add(p);
                    }
                }
            }
        }
        List<String[]> sourceTypes = JsonTypeLookup.types(source, plan, Side.SOURCE, sourceProbes);
        List<String[]> targetTypes = JsonTypeLookup.types(target, plan, Side.TARGET, targetProbes);
        int sp = 0;
        int tp = 0;
        long typeDiffs = 0;
        for (Held h : held) {
            String[][] st = new String[h.scalars.size()][];
            String[][] tt = new String[h.scalars.size()][];
            List<Integer> differ = new ArrayList<>();
            for (int i = 0; i < h.scalars.size(); i++) {
                List<Scalar> s = h.scalars.get(i);
                if (s != null && !s.isEmpty()) {
                    st[i] = sourceTypes.get(sp++);
                    if (h.comparesTypes(i)) {
                        tt[i] = targetTypes.get(tp++);
                        if (!Arrays.equals(st[i], tt[i])) {
                            differ.add(i);
                        }
                    }
                }
            }
            if (deliver(h, st, tt, differ, source, target)) {
                typeDiffs++;
            }
        }
        held.clear();
        return typeDiffs;
    }

    /** Hands one row to the sink, its documents typed; true when it was equal by text and differs by type. */
    private boolean deliver(Held h, String[][] st, String[][] tt, List<Integer> differ, Connection source,
                            Connection target) throws SQLException {
        switch (h.kind) {
            case MISSING -> sink.missing(typed(h.source, h.scalars, st));
            case CHANGED -> sink.changed(typed(h.source, h.scalars, st), typed(h.target, h.scalars, tt),
                    union(h.changed, differ));
            case MATCHED -> {
                if (differ.isEmpty()) {
                    return false;
                }
                Object[] s = reread(source, Side.SOURCE, h.source);
                Object[] t = reread(target, Side.TARGET, h.source);
                if (s == null || t == null) { // deleted since the merge read it: servers being written
                    return false;
                }
                sink.changed(typed(s, h.scalars, st), typed(t, h.scalars, tt), differ);
                return true;
            }
        }
        return false;
    }

    /**
     * {@code row} with each typed document whose types were asked as a {@link TypedJson}; a document
     * whose scalars are no longer those asked (a row read again after a change) stays text.
     */
    private static Object[] typed(Object[] row, List<List<Scalar>> scalars, String[][] types) {
        Object[] out = row.clone();
        for (int i = 0; i < out.length; i++) {
            if (types[i] != null && out[i] instanceof String text) {
                List<Scalar> own = JsonScalars.of(text);
                List<Scalar> asked = scalars.get(i);
                if (own.size() == asked.size() && paths(own).equals(paths(asked))) {
                    out[i] = new TypedJson(text, own, List.of(types[i]));
                }
            }
        }
        return out;
    }

    private static List<String> paths(List<Scalar> scalars) {
        return scalars.stream().map(Scalar::path).toList();
    }

    /** The row of {@code key} read again, or null when it is gone. */
    private Object[] reread(Connection c, Side side, Object[] key) throws SQLException {
        List<Column> columns = side == Side.SOURCE ? plan.sourceColumns : plan.targetColumns;
        StringBuilder sql = new StringBuilder("SELECT ").append(ResultSetValues.selectList(columns));
        List<Object> params = new ArrayList<>();
        JsonTypeLookup.appendRow(sql, plan, side, key, params);
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            ChecksumSql.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                return RowMerger.next(rs, columns);
            }
        }
    }

    private static List<Integer> union(List<Integer> a, List<Integer> b) {
        TreeSet<Integer> all = new TreeSet<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }
}
