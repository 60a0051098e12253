package io.jdm.common.lease;

import io.jdm.common.meta.MetaColumns;
import io.jdm.common.meta.MetaTable;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_DUP_FIELDNAME;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_LOCK_DEADLOCK;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
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
 * target: who owns it (host, pid, a random token, and what tells that pid's process apart on its
 * host: see {@link OwnerProcess}), since when, and until when. Taken in one target transaction (a
 * new row, one whose lease has run out by the target's clock, or one whose owner this host can see
 * has died), renewed by a named background thread, deleted on {@link #close()}. Two processes on one
 * task and source would both apply every event; the second one waits for the lease, as long as its
 * {@link LeaseWait} allows, or refuses at start.
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
    private final OwnerProcess self;
    private final ScheduledExecutorService renewer;
    private Consumer<String> onLost = m -> { };
    private volatile long renewedNanos;
    private volatile boolean lost;
    private boolean tableReady;

    private TaskLease(ConnectionSpec target, String metaSchema, String task, String sourceId, Timing timing,
                      OwnerProcess self) {
        this.target = target;
        this.self = self;
        this.table = MetaTable.OWNER.of(metaSchema, task);
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
        return acquire(target, metaSchema, task, sourceId, timing, LeaseWait.refuse());
    }

    /**
     * Takes the lease of {@code sourceId} for this process, waiting for a live owner's as long as
     * {@code wait} allows (saying so once); then throws a one-line {@link FatalException} naming the
     * owner. Throws {@link LeaseWait.Stopped} when the wait is stopped. Nothing else of the task is
     * read or written before this returns.
     */
    public static TaskLease acquire(ConnectionSpec target, String metaSchema, String task, String sourceId,
                                    Timing timing, LeaseWait wait) {
        TaskLease lease = new TaskLease(target, metaSchema, task, sourceId, timing, OwnerProcess.current());
        try {
            lease.takeWaiting(wait);
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
     * Takes the row, polling while another process holds it and {@code wait} allows: each poll sleeps
     * until just past the holder's expiry by the target's clock, at most one renewal interval (a
     * holder on this host that dies meanwhile is seen at the next poll).
     */
    private void takeWaiting(LeaseWait wait) throws SQLException {
        long began = System.nanoTime();
        boolean said = false;
        for (Holder h = take(); h != null; h = take()) {
            long waited = System.nanoTime() - began;
            if (!wait.allows(waited)) {
                throw new FatalException("task " + task + ": source " + sourceId + " is already run by "
                        + h.describe() + (said ? "; waited " + Duration.ofNanos(waited).toSeconds() + "s for it"
                        : "; stop that process first (the lease of a process that died elsewhere expires by "
                        + "itself)"));
            }
            if (!said) {
                LOG.info("task {}: source {} is run by {}; waiting for its lease {}", task, sourceId, h.describe(),
                        wait.describe());
                said = true;
            }
            wait.pause(h.pollPause(timing));
        }
    }

    /** The live owner of the lease as one poll found it. */
    private record Holder(OwnerProcess owner, String since, String expiresAt, long remainingMicros) {
        String describe() {
            return owner + " since " + since + " UTC (lease expires at " + expiresAt + " UTC unless renewed)";
        }

        /** Until just past the expiry, at least 10 ms, at most one renewal interval. */
        Duration pollPause(Timing timing) {
            long micros = Math.max(10_000, Math.min(remainingMicros + 20_000, timing.renewEvery().toNanos() / 1000));
            return Duration.ofNanos(micros * 1000);
        }
    }

    /**
     * Takes the row in one transaction, again when the target chose it as a deadlock victim: the
     * processes of a task's other sources starting at the same moment lock the same gap of a new
     * table (InnoDB's gap locks), and one of them must simply try again.
     */
    private Holder take() throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return takeOnce();
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

    /** Takes the row; null when taken, else its live holder (nothing changed). */
    private Holder takeOnce() throws SQLException {
        try (Connection c = DataSources.connect(target)) {
            if (!tableReady) {
                createTable(c); // once: a waiting process polls
                tableReady = true;
            }
            c.setAutoCommit(false);
            try {
                Holder holder = liveOwner(c);
                if (holder != null) {
                    c.rollback();
                    return holder;
                }
                try (PreparedStatement ps = c.prepareStatement("REPLACE INTO " + table.quoted()
                        + " (source_id, owner_host, owner_pid, owner_pid_space, owner_start, token, acquired_at, "
                        + "expires_at) VALUES (?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(3), "
                        + "UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND)")) {
                    ps.setString(1, sourceId);
                    ps.setString(2, self.host());
                    ps.setLong(3, self.pid());
                    ps.setString(4, self.pidSpace());
                    ps.setObject(5, self.start());
                    ps.setString(6, token);
                    ps.setLong(7, timing.expiry().toNanos() / 1000);
                    ps.executeUpdate();
                }
                c.commit();
                renewedNanos = System.nanoTime();
                return null;
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

    private void createTable(Connection c) throws SQLException {
        MetaTable.create(c, table, "source_id VARCHAR(128) NOT NULL PRIMARY KEY, owner_host VARCHAR(255) NOT NULL, "
                + "owner_pid BIGINT NOT NULL, owner_pid_space VARCHAR(128) NULL, owner_start BIGINT NULL, "
                + "token VARCHAR(64) NOT NULL, acquired_at DATETIME(3) NOT NULL, expires_at DATETIME(3) NOT NULL");
        addProcessColumns(c);
        keepMetaVersion(c);
    }

    /**
     * Refuses the task when a newer jdm ran it (its form of the meta tables, {@link MetaTable#VERSION},
     * is kept in {@link MetaTable#VERSION_TABLE}), else records this one's when it is the newer.
     */
    private void keepMetaVersion(Connection c) throws SQLException {
        TableName versions = MetaTable.VERSION_TABLE.of(table.schema(), task);
        MetaTable.create(c, versions, "id TINYINT NOT NULL PRIMARY KEY, version INT NOT NULL, "
                + "updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP");
        try (Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT version FROM " + versions.quoted() + " WHERE id = 1")) {
                if (rs.next() && rs.getInt(1) > MetaTable.VERSION) {
                    throw new FatalException("task " + task + ": its meta tables in " + table.schema() + " were"
                            + " written by a newer jdm (their form " + rs.getInt(1) + "; this jdm reads up to "
                            + MetaTable.VERSION + "): run the task with that jdm or a newer one");
                }
            }
            st.executeUpdate("INSERT INTO " + versions.quoted() + " (id, version) VALUES (1, " + MetaTable.VERSION
                    + ") ON DUPLICATE KEY UPDATE version = GREATEST(version, VALUES(version))");
        }
    }

    /**
     * A table made before rows told the owner's process apart gets the columns; its rows have none
     * (NULL), so their owners are waited for as before. One column per statement (TiDB before 6.2
     * changes one at a time); a process of another source adding one at the same moment makes the
     * second attempt a duplicate column, which is fine.
     */
    private void addProcessColumns(Connection c) throws SQLException {
        MetaColumns.addIfMissing(c, table, "owner_pid_space", "VARCHAR(128) NULL AFTER owner_pid");
        MetaColumns.addIfMissing(c, table, "owner_start", "BIGINT NULL AFTER owner_pid_space");
    }

    /**
     * The live owner, locking its row; null when there is none, its lease ran out, or it is a
     * process this host can see has died ({@link OwnerProcess#isGoneSeenFrom}).
     */
    private Holder liveOwner(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT owner_host, owner_pid, owner_pid_space, owner_start, "
                + "acquired_at, expires_at, expires_at > UTC_TIMESTAMP(3), "
                + "TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), expires_at) FROM " + table.quoted()
                + " WHERE source_id = ? FOR UPDATE")) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long startTicks = rs.getLong(4);
                Long start = rs.wasNull() ? null : startTicks;
                OwnerProcess owner = new OwnerProcess(rs.getString(1), rs.getLong(2), rs.getString(3), start);
                if (!rs.getBoolean(7)) {
                    LOG.info("task {}: source {}: taking over the lease of {}, which expired at {} UTC", task,
                            sourceId, owner, rs.getString(6));
                    return null;
                }
                if (owner.isGoneSeenFrom(self)) {
                    LOG.info("task {}: source {}: taking over the lease of {}, which no longer runs on this host "
                            + "(its lease would have expired at {} UTC)", task, sourceId, owner, rs.getString(6));
                    return null;
                }
                return new Holder(owner, rs.getString(5), rs.getString(6), rs.getLong(8));
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
}
