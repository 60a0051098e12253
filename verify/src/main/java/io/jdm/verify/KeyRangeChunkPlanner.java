package io.jdm.verify;

import io.jdm.common.schema.Column;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.TableName;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a table into key ranges of about {@code chunkRows} rows, from the source. A single integer
 * key is split arithmetically between MIN and MAX by the estimated row count (no scan); any other
 * key by streaming the key in index order once and taking every {@code chunkRows}-th key as a
 * boundary (no OFFSET, so the scan is linear). The first and last ranges are open.
 */
final class KeyRangeChunkPlanner {
    /** Receives chunks as they are planned; may block when the workers are behind. */
    interface Out {
        void accept(KeyRangeChunk c) throws InterruptedException;
    }

    private KeyRangeChunkPlanner() {
    }

    /** Returns the number of chunks planned. */
    static int plan(Connection source, TablePlan p, long chunkRows, Out out) throws SQLException, InterruptedException {
        if (!p.hasKey()) {
            out.accept(new KeyRangeChunk(p, 0, null, null));
            return 1;
        }
        List<Object[]> bounds = p.integerKey().isPresent()
                ? integerBounds(source, p, p.integerKey().get(), chunkRows) : null;
        if (bounds != null) {
            return emit(p, bounds, out);
        }
        return scanBounds(source, p, chunkRows, out);
    }

    private static int emit(TablePlan p, List<Object[]> bounds, Out out) throws InterruptedException {
        Object[] lower = null;
        int index = 0;
        for (Object[] b : bounds) {
            out.accept(new KeyRangeChunk(p, index++, lower, b));
            lower = b;
        }
        out.accept(new KeyRangeChunk(p, index++, lower, null));
        return index;
    }

    /** Interior boundaries from MIN/MAX, or an empty list for an empty or one-chunk table. */
    static List<Object[]> integerBounds(Connection c, TablePlan p, Column key, long chunkRows) throws SQLException {
        String k = Identifiers.quote(key.name());
        TableName t = p.pair.source();
        BigInteger min;
        BigInteger max;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT MIN(" + k + "), MAX(" + k + ") FROM " + t.quoted())) {
            rs.next();
            if (rs.getString(1) == null) {
                return List.of();
            }
            min = new BigInteger(rs.getString(1));
            max = new BigInteger(rs.getString(2));
        }
        return splitInteger(min, max, estimateRows(c, t), chunkRows);
    }

    /** Interior boundaries that split {@code min..max} into ranges of about {@code chunkRows} of {@code estimate} rows. */
    static List<Object[]> splitInteger(BigInteger min, BigInteger max, long estimate, long chunkRows) {
        BigInteger span = max.subtract(min).add(BigInteger.ONE);
        long chunks = estimate > 0 ? ceilDiv(estimate, chunkRows)
                : Math.min(10_000, span.add(BigInteger.valueOf(chunkRows - 1)).divide(BigInteger.valueOf(chunkRows))
                .longValue());
        chunks = Math.max(1, Math.min(chunks, span.min(BigInteger.valueOf(1_000_000)).longValue()));
        List<Object[]> out = new ArrayList<>();
        BigInteger n = BigInteger.valueOf(chunks);
        BigInteger previous = min;
        for (long i = 1; i < chunks; i++) {
            BigInteger b = min.add(span.multiply(BigInteger.valueOf(i)).divide(n));
            if (b.compareTo(previous) > 0) {
                out.add(new Object[] {b.bitLength() < 64 ? (Object) b.longValue() : b});
                previous = b;
            }
        }
        return out;
    }

    static long estimateRows(Connection c, TableName t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private static int scanBounds(Connection c, TablePlan p, long chunkRows, Out out)
            throws SQLException, InterruptedException {
        List<Column> keyCols = new ArrayList<>();
        StringBuilder order = new StringBuilder();
        for (int k : p.key) {
            Column col = p.sourceColumns.get(k);
            keyCols.add(col);
            order.append(order.length() == 0 ? "" : ", ").append(Identifiers.quote(col.name()));
        }
        String sql = "SELECT " + ResultSetValues.selectList(keyCols) + " FROM " + p.pair.source().quoted()
                + " ORDER BY " + order;
        Object[] lower = null;
        int index = 0;
        try (Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(Integer.MIN_VALUE);
            try (ResultSet rs = st.executeQuery(sql)) {
                long row = 0;
                while (rs.next()) {
                    if (row > 0 && row % chunkRows == 0) {
                        Object[] b = new Object[keyCols.size()];
                        for (int i = 0; i < b.length; i++) {
                            b[i] = ResultSetValues.read(rs, i + 1, keyCols.get(i));
                        }
                        out.accept(new KeyRangeChunk(p, index++, lower, b));
                        lower = b;
                    }
                    row++;
                }
            }
        }
        out.accept(new KeyRangeChunk(p, index++, lower, null));
        return index;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
