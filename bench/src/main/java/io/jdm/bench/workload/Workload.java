package io.jdm.bench.workload;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.metrics.Latency;
import io.jdm.common.metrics.Throughput;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.util.NamedThreadFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Prepares sbtest tables and runs a write mix against them from {@code threads} connections until
 * stopped or for a duration. Every transaction it commits is counted; row changes are counted as
 * the binlog will carry them.
 */
public final class Workload implements AutoCloseable {
    private final DataSource ds;
    private final String db;
    private final int tables;
    private final Payload payload;
    private final AtomicLong[] maxId;
    private final Throughput transactions = new Throughput("transactions");
    private final Throughput rowChanges = new Throughput("row_changes");
    private final Latency latency = new Latency("workload_txn");
    private final AtomicBoolean running = new AtomicBoolean();
    private ExecutorService pool;
    private final List<Future<?>> futures = new ArrayList<>();

    public Workload(DataSource ds, String db, int tables) {
        this(ds, db, tables, Payload.NONE);
    }

    /** Tables of sysbench's shape with the wide-row columns of {@code payload}, filled by {@link #prepare}. */
    public Workload(DataSource ds, String db, int tables, Payload payload) {
        this.ds = ds;
        this.db = db;
        this.tables = tables;
        this.payload = payload;
        this.maxId = new AtomicLong[tables + 1];
        for (int i = 0; i <= tables; i++) {
            maxId[i] = new AtomicLong();
        }
    }

    /** Creates the database and tables and inserts {@code rowsPerTable} rows into each, in parallel. */
    public void prepare(long rowsPerTable, int threads) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(db));
            for (int i = 1; i <= tables; i++) {
                st.execute(Sbtest.createTable(db, i, payload));
            }
        }
        ExecutorService ex = Executors.newFixedThreadPool(Math.max(1, threads),
                new NamedThreadFactory("bench", "workload", "prepare", true));
        try {
            List<Future<?>> fs = new ArrayList<>();
            // fewer tables than threads: each table filled by several, in parts
            int parts = Math.max(1, threads / tables);
            for (int i = 1; i <= tables; i++) {
                for (int p = 0; p < parts; p++) {
                    int t = i;
                    int part = p;
                    long rows = rowsPerTable / parts + (p < rowsPerTable % parts ? 1 : 0);
                    fs.add(ex.submit(() -> {
                        fill(t, part, rows, rowsPerTable);
                        return null;
                    }));
                }
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted during prepare", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof SQLException s ? s : new SQLException(e.getCause());
        } finally {
            ex.shutdownNow();
        }
        for (int i = 1; i <= tables; i++) {
            maxId[i].set(readMaxId(i));
        }
    }

    /** {@code rows} rows of one part of a table, their k drawn from 1..{@code keys} as sysbench's. */
    private void fill(int table, int part, long rows, long keys) throws SQLException {
        SplittableRandom r = new SplittableRandom(table * 7919L + part * 104_729L);
        String head = "INSERT INTO " + qualified(table) + (payload.present() ? " (k, c, pad, doc, bin)" : " (k, c, pad)")
                + " VALUES ";
        int perStatement = payload.rowsPerStatement();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            long done = 0;
            while (done < rows) {
                int n = (int) Math.min(perStatement, rows - done);
                StringBuilder sb = new StringBuilder(head.length() + n * 200).append(head);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    sb.append('(').append(1 + r.nextInt((int) Math.min(Integer.MAX_VALUE, Math.max(1, keys)))).append(",'")
                            .append(Sbtest.c(r)).append("','").append(Sbtest.pad(r)).append('\'');
                    if (payload.present()) {
                        payload.appendValues(sb, r);
                    }
                    sb.append(')');
                }
                st.execute(sb.toString());
                done += n;
            }
        }
    }

    private long readMaxId(int table) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(id), 0) FROM " + qualified(table))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private String qualified(int table) {
        return Identifiers.quote(db) + "." + Identifiers.quote(Sbtest.tableName(table));
    }

    /** Starts {@code threads} writers running {@code mix}; {@link #stop()} ends them. */
    public synchronized void start(Mix mix, KeyDistribution keys, int threads) throws SQLException {
        for (int i = 1; i <= tables; i++) {
            maxId[i].set(readMaxId(i));
        }
        running.set(true);
        pool = Executors.newFixedThreadPool(threads, new NamedThreadFactory("bench", "workload", "writer", true));
        for (int t = 0; t < threads; t++) {
            long seed = 1_000_003L * (t + 1);
            futures.add(pool.submit(() -> {
                writerLoop(mix, keys, new SplittableRandom(seed));
                return null;
            }));
        }
    }

    /** Runs the mix for a fixed time, then stops. */
    public void runFor(Mix mix, KeyDistribution keys, int threads, Duration d) throws SQLException {
        start(mix, keys, threads);
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop();
    }

    private void writerLoop(Mix mix, KeyDistribution keys, SplittableRandom r) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            while (running.get()) {
                long t0 = System.nanoTime();
                int table = 1 + r.nextInt(tables);
                try {
                    int rows = transaction(c, mix, keys, r, table);
                    c.commit();
                    transactions.increment();
                    rowChanges.add(rows);
                    latency.recordSince(t0);
                } catch (SQLException e) {
                    c.rollback();
                    if (!ErrorClassifier.isRetriable(e) && !ErrorClassifier.isDuplicateKey(e)) {
                        throw e;
                    }
                }
            }
        }
    }

    private int transaction(Connection c, Mix mix, KeyDistribution keys, SplittableRandom r, int table)
            throws SQLException {
        String t = qualified(table);
        if (mix == Mix.OLTP_INSERT) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (k, c, pad) VALUES (?, ?, ?)")) {
                ps.setLong(1, 1 + r.nextInt(1_000_000));
                ps.setString(2, Sbtest.c(r));
                ps.setString(3, Sbtest.pad(r));
                ps.executeUpdate();
            }
            return 1;
        }
        long n = Math.max(1, maxId[table].get());
        int changed = 0;
        if (mix == Mix.OLTP_READ_WRITE) {
            try (PreparedStatement ps = c.prepareStatement("SELECT c FROM " + t + " WHERE id = ?")) {
                for (int i = 0; i < 10; i++) {
                    ps.setLong(1, keys.next(r, n));
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                    }
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + t + " SET k = k + 1 WHERE id = ?")) {
            ps.setLong(1, keys.next(r, n));
            changed += ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + t + " SET c = ? WHERE id = ?")) {
            ps.setString(1, Sbtest.c(r));
            ps.setLong(2, keys.next(r, n));
            changed += ps.executeUpdate();
        }
        long id = keys.next(r, n);
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + t + " WHERE id = ?")) {
            ps.setLong(1, id);
            changed += ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, k, c, pad) VALUES (?, ?, ?, ?)")) {
            ps.setLong(1, id);
            ps.setLong(2, 1 + r.nextInt(1_000_000));
            ps.setString(3, Sbtest.c(r));
            ps.setString(4, Sbtest.pad(r));
            changed += ps.executeUpdate();
        }
        return changed;
    }

    /** Stops the writers and waits for their last transactions; rethrows the first writer failure. */
    public synchronized void stop() throws SQLException {
        running.set(false);
        if (pool == null) {
            return;
        }
        pool.shutdown();
        try {
            if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof SQLException s ? s : new SQLException(e.getCause());
        } finally {
            futures.clear();
            pool = null;
        }
    }

    public Throughput transactions() {
        return transactions;
    }

    public Throughput rowChanges() {
        return rowChanges;
    }

    public Latency latency() {
        return latency;
    }

    @Override
    public void close() throws SQLException {
        stop();
    }
}
