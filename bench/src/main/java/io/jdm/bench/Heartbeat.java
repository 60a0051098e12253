package io.jdm.bench;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lag measured the same way for every replicator (pt-heartbeat style): the source stamps a row with
 * this JVM's clock every {@link #PERIOD_MS} ms; lag is now minus the newest stamp visible on the
 * target. It reads at most one period high while caught up, for jdm and the peers alike.
 */
final class Heartbeat implements AutoCloseable {
    static final long PERIOD_MS = 100;
    static final String TABLE = "jdm_bench_heartbeat";
    private final ConnectionSpec target;
    private final TableName table;
    private final ScheduledExecutorService timer;
    private final Connection writer;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private Heartbeat(ConnectionSpec source, ConnectionSpec target, String db) throws SQLException {
        this.target = target;
        this.table = new TableName(db, TABLE);
        this.writer = DataSources.connect(source);
        this.timer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("bench", "sync", "heartbeat",
                true));
    }

    /** The heartbeat table, created on the source (so it reaches the target through the copy). */
    static String createTable(String db) {
        return "CREATE TABLE IF NOT EXISTS " + new TableName(db, TABLE).quoted()
                + " (id INT NOT NULL PRIMARY KEY, ts BIGINT NOT NULL)";
    }

    static Heartbeat start(ConnectionSpec source, ConnectionSpec target, String db) throws SQLException {
        Heartbeat h = new Heartbeat(source, target, db);
        // each sample starts without the row on either side, so its first beat is an insert every
        // replicator applies, whatever an earlier replicator left behind
        try (Statement st = h.writer.createStatement()) {
            st.execute("SET SESSION sql_log_bin = 0");
            st.execute("DELETE FROM " + h.table.quoted());
            st.execute("SET SESSION sql_log_bin = 1");
        }
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
            st.execute("DELETE FROM " + h.table.quoted());
        }
        h.timer.scheduleAtFixedRate(h::beat, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
        return h;
    }

    private void beat() {
        try (PreparedStatement ps = writer.prepareStatement("INSERT INTO " + table.quoted()
                + " (id, ts) VALUES (1, ?) ON DUPLICATE KEY UPDATE ts = VALUES(ts)")) {
            ps.setLong(1, System.currentTimeMillis());
            ps.executeUpdate();
        } catch (SQLException e) {
            failure.compareAndSet(null, e);
        }
    }

    /** Seconds between now and the newest stamp on the target; NaN before the first one arrives. */
    double lagSeconds(Connection targetConn) throws SQLException {
        if (failure.get() != null) {
            throw new SQLException("heartbeat on the source failed: " + failure.get().getMessage(), failure.get());
        }
        try (Statement st = targetConn.createStatement();
             ResultSet rs = st.executeQuery("SELECT ts FROM " + table.quoted() + " WHERE id = 1")) {
            return rs.next() ? Math.max(0, (System.currentTimeMillis() - rs.getLong(1)) / 1000.0) : Double.NaN;
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTable(e)) {
                return Double.NaN;
            }
            throw e;
        }
    }

    Connection targetConnection() throws SQLException {
        return DataSources.connect(target);
    }

    @Override
    public void close() throws SQLException {
        if (writer.isClosed()) {
            return;
        }
        timer.shutdown();
        try {
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
                timer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writer.close();
    }
}
