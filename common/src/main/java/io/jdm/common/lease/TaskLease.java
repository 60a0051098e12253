package io.jdm.common.lease;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_LOCK_DEADLOCK;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease of one task's source, row {@code source_id} of {@code {meta}.{task}_owner} on the
 * target: who owns it (host, pid, a random token), since when, and until when. Taken in one target
 * transaction (a new row, or one whose lease has run out by the target's clock), renewed by a named
 * background thread, deleted on {@link #close()}. Two processes on one task and source would both
 * apply every event; the second one refuses at start instead.
 *
 * <p>Losing it (the row names another token, or no renewal went through for so long that the lease
 * may run out before the next try) is reported once to {@code onLost}; the owner must then stop
 * writing before its lease could have been taken over.
 */
public final class TaskLease implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TaskLease.class);
    /** Tries to take the lease past deadlocks with processes taking other sources' leases at once. */
    private static final int TAKE_ATTEMPTS = 10;

    /**
     * How often the lease is renewed and how long it lasts. A dead owner blocks a successor for at
     * most {@code expiry}; several renewals fit in one expiry, so a slow target does not lose it.
     */
    public record Timing(Duration renewEvery, Duration expiry) {
        public static final Timing DEFAULT = new Timing(Duration.ofSeconds(5), Duration.ofSeconds(30));

        public Timing {
            if (renewEvery == null || renewEvery.toMillis() < 10) {
                throw new IllegalArgumentException("lease renew interval: must be >= 10 ms, got " + renewEvery);
            }
            if (expiry == null || expiry.compareTo(renewEvery.multipliedBy(3)) < 0) {
                throw new IllegalArgumentException("lease expiry: must be at least 3 renew intervals ("
                        + renewEvery.multipliedBy(3) + "), got " + expiry);
            }
        }

        /** {@link #DEFAULT}, or {@code jdm.lease.renew-ms} / {@code jdm.lease.expiry-ms} when set. */
        public static Timing fromSystemProperties() {
            long renew = Long.getLong("jdm.lease.renew-ms", DEFAULT.renewEvery.toMillis());
            long expiry = Long.getLong("jdm.lease.expiry-ms", DEFAULT.expiry.toMillis());
            return new Timing(Duration.ofMillis(renew), Duration.ofMillis(expiry));
        }
    }

    private final ConnectionSpec target;
    private final TableName table;
    private final String task;
    private final String sourceId;
    private final Timing timing;
    private final String token = UUID.randomUUID().toString();
    private final ScheduledExecutorService renewer;
    private Consumer<String> onLost = m -> { };
    private volatile long renewedNanos;
    private volatile boolean lost;

    private TaskLease(ConnectionSpec target, String metaSchema, String task, String sourceId, Timing timing) {
        this.target = target;
        this.table = new TableName(metaSchema, task + "_owner");
        this.task = task;
        this.sourceId = sourceId;
        this.timing = timing;
        this.renewer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(task, "lease", "renew",
                true));
    }

    /**
     * Takes the lease of {@code sourceId} for this process, or throws a one-line {@link FatalException}
     * naming the live owner. Nothing else of the task is read or written before this returns.
     */
    public static TaskLease acquire(ConnectionSpec target, String metaSchema, String task, String sourceId,
                                    Timing timing) {
        TaskLease lease = new TaskLease(target, metaSchema, task, sourceId, timing);
        try {
            lease.take();
        } catch (SQLException e) {
            lease.renewer.shutdownNow();
            throw ErrorClassifier.wrap("task " + task + ": cannot take the lease of source " + sourceId + " in "
                    + lease.table + " on the target " + target.address(), e);
        } catch (RuntimeException e) {
            lease.renewer.shutdownNow();
            throw e;
        }
        return lease;
    }

    /** Starts renewing; {@code onLost} hears once, with one line, if the lease is lost. */
    public void keepRenewing(Consumer<String> onLost) {
        this.onLost = onLost;
        long ms = timing.renewEvery().toMillis();
        renewer.scheduleWithFixedDelay(this::renew, ms, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * Takes the row in one transaction, again when the target chose it as a deadlock victim: the
     * processes of a task's other sources starting at the same moment lock the same gap of a new
     * table (InnoDB's gap locks), and one of them must simply try again.
     */
    private void take() throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                takeOnce();
                return;
            } catch (SQLException e) {
                if (attempt >= TAKE_ATTEMPTS || !isDeadlock(e)) {
                    throw e;
                }
                LOG.debug("task {}: source {}: taking the lease met a deadlock; again (attempt {})", task,
                        sourceId, attempt + 1);
                try {
                    Thread.sleep(ThreadLocalRandom.current().nextLong(10, 50L * attempt));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static boolean isDeadlock(SQLException e) {
        return e.getErrorCode() == ER_LOCK_DEADLOCK || "40001".equals(e.getSQLState());
    }

    private void takeOnce() throws SQLException {
        try (Connection c = DataSources.connect(target)) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(table.schema()));
                st.execute("CREATE TABLE IF NOT EXISTS " + table.quoted() + " (source_id VARCHAR(128) NOT NULL "
                        + "PRIMARY KEY, owner_host VARCHAR(255) NOT NULL, owner_pid BIGINT NOT NULL, "
                        + "token VARCHAR(64) NOT NULL, acquired_at DATETIME(3) NOT NULL, "
                        + "expires_at DATETIME(3) NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
            }
            c.setAutoCommit(false);
            try {
                String owner = liveOwner(c);
                if (owner != null) {
                    c.rollback();
                    throw new FatalException("task " + task + ": source " + sourceId + " is already run by " + owner
                            + "; stop that process first (a process that died leaves its lease to expire)");
                }
                try (PreparedStatement ps = c.prepareStatement("REPLACE INTO " + table.quoted()
                        + " (source_id, owner_host, owner_pid, token, acquired_at, expires_at) VALUES (?, ?, ?, ?, "
                        + "UTC_TIMESTAMP(3), UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND)")) {
                    ps.setString(1, sourceId);
                    ps.setString(2, host());
                    ps.setLong(3, ProcessHandle.current().pid());
                    ps.setString(4, token);
                    ps.setLong(5, timing.expiry().toNanos() / 1000);
                    ps.executeUpdate();
                }
                c.commit();
                renewedNanos = System.nanoTime();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                if (e instanceof SQLException se && ErrorClassifier.isDuplicateKey(se)) {
                    throw new FatalException("task " + task + ": source " + sourceId + " was taken by another "
                            + "process at the same moment; stop it first", se);
                }
                throw e;
            }
        }
    }

    /** The live owner's description, locking its row; null when there is none or its lease ran out. */
    private String liveOwner(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT owner_host, owner_pid, acquired_at, expires_at, "
                + "expires_at > UTC_TIMESTAMP(3) FROM " + table.quoted() + " WHERE source_id = ? FOR UPDATE")) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                if (!rs.getBoolean(5)) {
                    LOG.info("task {}: source {}: taking over the lease of {} pid {}, which expired at {} UTC", task,
                            sourceId, rs.getString(1), rs.getLong(2), rs.getString(4));
                    return null;
                }
                return rs.getString(1) + " pid " + rs.getLong(2) + " since " + rs.getString(3)
                        + " UTC (lease expires at " + rs.getString(4) + " UTC unless renewed)";
            }
        }
    }

    private void renew() {
        if (lost) {
            return;
        }
        try (Connection c = DataSources.connect(target);
             PreparedStatement ps = c.prepareStatement("UPDATE " + table.quoted() + " SET expires_at = "
                     + "UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND WHERE source_id = ? AND token = ?")) {
            ps.setLong(1, timing.expiry().toNanos() / 1000);
            ps.setString(2, sourceId);
            ps.setString(3, token);
            if (ps.executeUpdate() == 0) {
                lose("task " + task + ": source " + sourceId + ": another process took over the lease in " + table
                        + "; stopping without applying more");
                return;
            }
            renewedNanos = System.nanoTime();
        } catch (SQLException e) {
            // the lease may run out before the next try: stop while it surely still holds
            long held = System.nanoTime() - renewedNanos;
            if (held + 2 * timing.renewEvery().toNanos() >= timing.expiry().toNanos()) {
                lose("task " + task + ": source " + sourceId + ": cannot renew the lease in " + table + " on the "
                        + "target " + target.address() + " for " + Duration.ofNanos(held).toSeconds() + "s ("
                        + ErrorClassifier.oneLine(e) + "); stopping before another process may take over");
            } else {
                LOG.warn("task {}: source {}: lease renewal failed, retrying: {}", task, sourceId,
                        ErrorClassifier.oneLine(e));
            }
        } catch (RuntimeException e) {
            lose("task " + task + ": source " + sourceId + ": lease renewal failed: " + ErrorClassifier.oneLine(e));
        }
    }

    private void lose(String message) {
        lost = true;
        onLost.accept(message);
    }

    /** Stops renewing and gives the lease back (when still ours), so a successor need not wait. */
    @Override
    public void close() {
        renewer.shutdownNow();
        try {
            if (!renewer.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("task {}: lease renewer did not stop within 5s", task);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (lost) {
            return;
        }
        try (Connection c = DataSources.connect(target);
             PreparedStatement ps = c.prepareStatement("DELETE FROM " + table.quoted()
                     + " WHERE source_id = ? AND token = ?")) {
            ps.setString(1, sourceId);
            ps.setString(2, token);
            ps.executeUpdate();
        } catch (SQLException e) {
            LOG.warn("task {}: could not release the lease of source {} (it expires by itself in {}s): {}", task,
                    sourceId, timing.expiry().toSeconds(), ErrorClassifier.oneLine(e));
        }
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
