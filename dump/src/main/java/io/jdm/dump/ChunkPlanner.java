package io.jdm.dump;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.ValueEncoder;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Splits a table into chunks of about {@code rows} rows, reading inside the snapshot:
 *
 * <ul>
 *   <li>key whose leading column is an integer: equal ranges of that column between its MIN and MAX;</li>
 *   <li>any other key: ordered key ranges, each boundary found by {@code ORDER BY key LIMIT 1 OFFSET rows}
 *       from the previous one (an index walk that reads the key once);</li>
 *   <li>no primary or NOT NULL unique key, {@code rows = 0}, or a small table: one chunk.</li>
 * </ul>
 */
final class ChunkPlanner {
    private final long rowsPerChunk;
    private final Function<TableSchema, String> where;

    /** @param where a table's condition for the rows it dumps (null for all) */
    ChunkPlanner(long rowsPerChunk, Function<TableSchema, String> where) {
        this.rowsPerChunk = rowsPerChunk;
        this.where = where;
    }

    List<Chunk> plan(Connection c, TableJob job) throws SQLException {
        TableSchema schema = job.schema();
        List<Column> key = keyColumns(schema);
        String orderBy = key.isEmpty() ? null : quotedList(key);
        if (!asks(job)) {
            return oneChunk(job);
        }
        String cond = where.apply(schema);
        List<String> conditions = key.get(0).isIntegral() ? intRanges(c, job, key.get(0), cond)
                : keyRanges(c, job, key, cond);
        List<Chunk> out = new ArrayList<>(conditions.size());
        for (int i = 0; i < conditions.size(); i++) {
            out.add(new Chunk(job, i + 1, conditions.get(i), orderBy));
        }
        return out;
    }

    /**
     * Whether planning {@code job} asks the source its key ranges; a table of one chunk (no key, or
     * no more rows than a chunk's) is planned without a connection.
     */
    boolean asks(TableJob job) {
        return !job.schema().identityKey().isEmpty() && rowsPerChunk > 0 && job.estimatedRows() > rowsPerChunk;
    }

    /** The plan of a table that {@link #asks} nothing: the whole table, in key order where it has a key. */
    List<Chunk> oneChunk(TableJob job) {
        List<Column> key = keyColumns(job.schema());
        return List.of(new Chunk(job, 1, null, key.isEmpty() ? null : quotedList(key)));
    }

    private static List<Column> keyColumns(TableSchema schema) {
        List<Column> out = new ArrayList<>();
        for (String name : schema.identityKey()) {
            out.add(schema.column(name).orElseThrow());
        }
        return out;
    }

    private List<String> intRanges(Connection c, TableJob job, Column lead, String where) throws SQLException {
        String q = Identifiers.quote(lead.name());
        BigInteger min;
        BigInteger max;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT MIN(" + q + "), MAX(" + q + ") FROM " + job.name().quoted()
                     + (where == null ? "" : " WHERE " + where))) {
            rs.next();
            if (rs.getString(1) == null) {
                return nullList();
            }
            min = new BigInteger(rs.getString(1));
            max = new BigInteger(rs.getString(2));
        }
        List<BigInteger> bounds = IntRangeSplitter.boundaries(min, max, job.estimatedRows(), rowsPerChunk);
        List<String> out = new ArrayList<>();
        String lo = null;
        for (BigInteger b : bounds) {
            out.add(KeyRanges.range(q, lo, b.toString()));
            lo = b.toString();
        }
        out.add(KeyRanges.range(q, lo, null));
        return out;
    }

    private List<String> keyRanges(Connection c, TableJob job, List<Column> key, String where)
            throws SQLException {
        List<String> cols = key.stream().map(k -> Identifiers.quote(k.name())).toList();
        String select = "SELECT " + ResultSetValues.selectList(key) + " FROM " + job.name().quoted() + " WHERE ";
        String tail = " ORDER BY " + String.join(",", cols) + " LIMIT 1 OFFSET " + rowsPerChunk;
        List<String> out = new ArrayList<>();
        List<String> lo = null;
        while (true) {
            String range = lo == null ? null : KeyRanges.range(cols, lo, null);
            String cond = and(range, where);
            List<String> next = null;
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery(select + (cond == null ? "1=1" : cond) + tail)) {
                if (rs.next()) {
                    next = new ArrayList<>(key.size());
                    for (int i = 0; i < key.size(); i++) {
                        next.add(ValueEncoder.encode(key.get(i), ResultSetValues.read(rs, i + 1, key.get(i))));
                    }
                }
            }
            out.add(KeyRanges.range(cols, lo, next));
            if (next == null) {
                return nullSafe(out);
            }
            lo = next;
        }
    }

    /** A single open range means "everything": keep the chunk but drop the vacuous condition. */
    private static List<String> nullSafe(List<String> out) {
        return out.size() == 1 && out.get(0) == null ? nullList() : out;
    }

    private static List<String> nullList() {
        List<String> l = new ArrayList<>(1);
        l.add(null);
        return l;
    }

    static String and(String a, String b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : "(" + a + ") AND (" + b + ")";
    }

    private static String quotedList(List<Column> cols) {
        StringBuilder sb = new StringBuilder();
        for (Column c : cols) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            Identifiers.appendQuoted(sb, c.name());
        }
        return sb.toString();
    }
}
