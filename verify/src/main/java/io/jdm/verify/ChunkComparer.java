package io.jdm.verify;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.verify.ChecksumSql.Side;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One worker's pair of connections. The target's query runs on a companion thread while the
 * source's runs on the worker's own, so both servers work on a chunk at the same time.
 */
final class ChunkComparer {
    /**
     * A chunk's checksum on one side; {@code sum} is null for no rows. {@code filtered}: the source's
     * rows of the chunk the task does not copy, not in {@code rows} and not compared.
     */
    record Sums(long rows, BigDecimal sum, long filtered) {
        Sums(long rows, BigDecimal sum) {
            this(rows, sum, 0);
        }

        boolean sameAs(Sums o) {
            if (rows != o.rows) {
                return false;
            }
            if (sum == null || o.sum == null) {
                return sum == o.sum;
            }
            // A row too long to hash cannot be compared by checksum: compare its chunk row by row.
            return sum.compareTo(ChecksumSql.OVERSIZE) < 0 && sum.compareTo(o.sum) == 0;
        }
    }

    private final Connection source;
    private final Connection target;
    private final ExecutorService companion;

    ChunkComparer(Connection source, Connection target, ExecutorService companion) {
        this.source = source;
        this.target = target;
        this.companion = companion;
    }

    /** Source and target sums of one chunk, computed concurrently. */
    Sums[] checksum(KeyRangeChunk c) throws SQLException, InterruptedException {
        List<Object> sp = new ArrayList<>();
        String sSql = ChecksumSql.checksum(c.plan, Side.SOURCE, c, sp);
        List<Object> tp = new ArrayList<>();
        String tSql = ChecksumSql.checksum(c.plan, Side.TARGET, c, tp);
        Future<Sums> t = companion.submit(() -> sums(target, tSql, tp));
        Sums s;
        try {
            s = sums(source, sSql, sp);
        } finally {
            awaitQuietly(t);
        }
        return new Sums[] {s, get(t)};
    }

    /**
     * Streams the chunk from both sides and merges; returns the number of differing rows. JSON
     * compared by type is asked its types once the streams are closed ({@link JsonTypeCheck}).
     */
    long narrow(KeyRangeChunk c, RowMerger.Sink sink) throws SQLException {
        TablePlan p = c.plan;
        JsonTypeCheck types = p.hasTypedJson() ? new JsonTypeCheck(p, sink) : null;
        List<Object> sp = new ArrayList<>();
        String sSql = ChecksumSql.rows(p, Side.SOURCE, c, sp);
        List<Object> tp = new ArrayList<>();
        String tSql = ChecksumSql.rows(p, Side.TARGET, c, tp);
        long diffs;
        try (PreparedStatement sps = streaming(source, sSql, sp);
             PreparedStatement tps = streaming(target, tSql, tp);
             ResultSet srs = sps.executeQuery();
             ResultSet trs = tps.executeQuery()) {
            diffs = new RowMerger(p).merge(srs, trs, types == null ? sink : types);
        }
        return types == null ? diffs : diffs + types.finish(source, target);
    }

    private static PreparedStatement streaming(Connection c, String sql, List<Object> params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        ps.setFetchSize(Integer.MIN_VALUE);
        ChecksumSql.bind(ps, params);
        return ps;
    }

    /** Runs a {@link ChecksumSql#checksum} query. */
    static Sums sums(Connection c, String sql, List<Object> params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ChecksumSql.bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long rows = rs.getLong(1);
                return new Sums(rows, rs.getBigDecimal(2), rs.getLong(3) - rows);
            }
        }
    }

    private static void awaitQuietly(Future<?> f) throws InterruptedException {
        try {
            f.get();
        } catch (ExecutionException e) {
            // reported by get() below when the source side succeeded
        }
    }

    private static Sums get(Future<Sums> f) throws SQLException, InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException s) {
                throw s;
            }
            throw new FatalException("verify: target checksum failed: " + ErrorClassifier.oneLine(e), e.getCause());
        }
    }
}
