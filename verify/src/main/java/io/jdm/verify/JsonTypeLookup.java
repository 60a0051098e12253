package io.jdm.verify;

import io.jdm.common.schema.Column;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.verify.ChecksumSql.Side;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Asks one server {@code JSON_TYPE(JSON_EXTRACT(doc, path))} at the paths of rows found by key. One
 * statement reads up to {@link #ROWS_PER_STATEMENT} rows and asks each the union of their paths,
 * at most {@link #PATHS_PER_STATEMENT}: documents alike (the same keys, arrays of like lengths)
 * share one statement per few hundred rows; a document with more paths is asked alone, in slices.
 */
final class JsonTypeLookup {
    /**
     * Paths asked of each row of a statement: every row pays for the union, so documents unlike each
     * other split into more statements rather than make each other's cost.
     */
    static final int PATHS_PER_STATEMENT = 256;
    /** Rows a statement reads by key. */
    static final int ROWS_PER_STATEMENT = 500;

    private JsonTypeLookup() {
    }

    /** The types at {@code paths} of JSON column {@code column} (a plan position) in the row whose key is {@code key}. */
    record Probe(Object[] key, int column, List<String> paths) {
    }

    /**
     * The answers, probe for probe and path for path: the JSON type, or {@code ""} where the row or
     * the path is absent. Runs on the connection the rows were streamed from, once the streams are
     * closed, so a snapshot's source is asked inside its snapshot.
     */
    static List<String[]> types(Connection c, TablePlan p, Side side, List<Probe> probes) throws SQLException {
        List<String[]> out = new ArrayList<>(probes.size());
        Map<Integer, List<Integer>> byColumn = new LinkedHashMap<>();
        for (int i = 0; i < probes.size(); i++) {
            String[] none = new String[probes.get(i).paths().size()];
            Arrays.fill(none, "");
            out.add(none);
            byColumn.computeIfAbsent(probes.get(i).column(), k -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<Integer, List<Integer>> e : byColumn.entrySet()) {
            List<Integer> batch = new ArrayList<>();
            LinkedHashMap<String, Integer> union = new LinkedHashMap<>();
            for (int i : e.getValue()) {
                List<String> paths = probes.get(i).paths();
                if (paths.size() > PATHS_PER_STATEMENT) { // alone, slice by slice
                    for (int from = 0; from < paths.size(); from += PATHS_PER_STATEMENT) {
                        LinkedHashMap<String, Integer> slice = new LinkedHashMap<>();
                        paths.subList(from, Math.min(paths.size(), from + PATHS_PER_STATEMENT))
                                .forEach(x -> slice.putIfAbsent(x, slice.size()));
                        ask(c, p, side, e.getKey(), List.of(i), slice, probes, out);
                    }
                    continue;
                }
                long added = paths.stream().filter(x -> !union.containsKey(x)).distinct().count();
                if (!batch.isEmpty() && (union.size() + added > PATHS_PER_STATEMENT || batch.size() >= ROWS_PER_STATEMENT)) {
                    ask(c, p, side, e.getKey(), batch, union, probes, out);
                    batch = new ArrayList<>();
                    union.clear();
                }
                batch.add(i);
                paths.forEach(x -> union.putIfAbsent(x, union.size()));
            }
            if (!batch.isEmpty()) {
                ask(c, p, side, e.getKey(), batch, union, probes, out);
            }
        }
        return out;
    }

    /** One statement: the rows of {@code batch} by key, each asked the types at every path of {@code paths}. */
    private static void ask(Connection c, TablePlan p, Side side, int column, List<Integer> batch,
                            Map<String, Integer> paths, List<Probe> probes, List<String[]> out) throws SQLException {
        List<Column> columns = side == Side.SOURCE ? p.sourceColumns : p.targetColumns;
        List<Column> keyColumns = new ArrayList<>();
        for (int k : p.key) {
            keyColumns.add(columns.get(k));
        }
        String q = Identifiers.quote(p.sourceColumns.get(column).name());
        StringBuilder sql = new StringBuilder("SELECT ").append(ResultSetValues.selectList(keyColumns))
                .append(", CONCAT_WS(','");
        List<Object> params = new ArrayList<>();
        for (String path : paths.keySet()) {
            sql.append(", IFNULL(JSON_TYPE(JSON_EXTRACT(").append(q).append(", ?)), '')");
            params.add(path);
        }
        sql.append(") FROM ").append((side == Side.SOURCE ? p.pair.source() : p.pair.target()).quoted())
                .append(" WHERE (");
        Map<String, List<Integer>> byKey = new HashMap<>();
        for (int b = 0; b < batch.size(); b++) {
            Object[] key = probes.get(batch.get(b)).key();
            sql.append(b == 0 ? "(" : " OR (");
            appendKey(sql, p, key, params);
            sql.append(')');
            byKey.computeIfAbsent(keyText(p, key), k -> new ArrayList<>()).add(batch.get(b));
        }
        sql.append(')');
        if (side == Side.TARGET) {
            p.pair.extra().appendConditions(sql);
        }
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            ChecksumSql.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Object[] key = new Object[columns.size()];
                    for (int k = 0; k < p.key.length; k++) {
                        key[p.key[k]] = ResultSetValues.read(rs, k + 1, keyColumns.get(k));
                    }
                    String[] types = rs.getString(p.key.length + 1).split(",", -1);
                    for (int i : byKey.getOrDefault(keyText(p, key), List.of())) {
                        List<String> asked = probes.get(i).paths();
                        String[] into = out.get(i);
                        for (int k = 0; k < asked.size(); k++) {
                            Integer at = paths.get(asked.get(k));
                            if (at != null && at < types.length) {
                                into[k] = types[at];
                            }
                        }
                    }
                }
            }
        }
    }

    /** {@code k1 <=> ? AND k2 <=> ?}. */
    private static void appendKey(StringBuilder sql, TablePlan p, Object[] key, List<Object> params) {
        for (int n = 0; n < p.key.length; n++) {
            sql.append(n == 0 ? "" : " AND ");
            Identifiers.appendQuoted(sql, p.sourceColumns.get(p.key[n]).name());
            sql.append(" <=> ?");
            params.add(key[p.key[n]]);
        }
    }

    /**
     * {@code FROM t WHERE k1 <=> ? AND k2 <=> ?}: one row by key, on the target with the pair's
     * extra columns' values (its shard's rows; see {@link ChecksumSql#where}).
     */
    static void appendRow(StringBuilder sql, TablePlan p, Side side, Object[] key, List<Object> params) {
        sql.append(" FROM ").append((side == Side.SOURCE ? p.pair.source() : p.pair.target()).quoted())
                .append(" WHERE ");
        appendKey(sql, p, key, params);
        if (side == Side.TARGET) {
            p.pair.extra().appendConditions(sql);
        }
    }

    /** A key's values as text both sides' readings give alike: decimals without trailing zeros, bytes in hex. */
    private static String keyText(TablePlan p, Object[] key) {
        StringBuilder sb = new StringBuilder();
        for (int k : p.key) {
            Object v = key[k];
            String s = v instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString()
                    : v instanceof byte[] b ? HexFormat.of().formatHex(b) : String.valueOf(v);
            sb.append(s).append('\u0000');
        }
        return sb.toString();
    }
}
