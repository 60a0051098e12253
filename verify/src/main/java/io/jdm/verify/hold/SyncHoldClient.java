package io.jdm.verify.hold;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.hold.SyncHoldTable;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.verify.TargetHold;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verify's side of the hold (see the package documentation): asks the running sync of one task and
 * source, through the hold row on the target, to pause and then to stop at the snapshot's position,
 * renews the lease while the comparison runs and deletes the row at the end.
 */
public final class SyncHoldClient implements TargetHold {
    private static final Logger LOG = LoggerFactory.getLogger(SyncHoldClient.class);
    static final Duration POLL = Duration.ofMillis(100);

    private final ConnectionSpec target;
    private final SyncHoldTable table;
    private final HoldRequestRow row;
    private final String task;
    private final String sourceId;
    private final Duration lease;
    private final Duration answerTimeout;
    private final String token = UUID.randomUUID().toString();
    private Connection conn;
    private ScheduledExecutorService renewer;

    /**
     * @param lease how long the sync keeps holding without hearing from this verify
     * @param answerTimeout how long to wait for a running sync to answer the pause
     */
    public SyncHoldClient(ConnectionSpec target, SyncHoldTable table, String task, String sourceId, Duration lease,
                          Duration answerTimeout) {
        this.target = target;
        this.table = table;
        this.row = new HoldRequestRow(table.table());
        this.task = task;
        this.sourceId = sourceId;
        this.lease = lease;
        this.answerTimeout = answerTimeout;
    }

    @Override
    public void pause(Duration timeout) throws InterruptedException {
        try {
            conn = DataSources.connect(target);
            table.ensure(conn);
            long busy = row.take(conn, sourceId, token, lease.toMillis(), "jdm verify");
            if (busy > 0) {
                closeQuietly();
                throw new FatalException("verify --snapshot: another verify holds the sync of task " + task
                        + " (source " + sourceId + ") for " + (busy + 999) / 1000 + " s more; wait for it to finish");
            }
            startRenewing();
            if (!awaitAnswer(a -> true, Math.min(timeout.toNanos(), answerTimeout.toNanos()))) {
                release();
                throw new FatalException("verify --snapshot: no running sync of task " + task + " (source "
                        + sourceId + ") answered within " + answerTimeout.toSeconds() + " s; --snapshot compares "
                        + "while `jdm sync` or `jdm run` replicates into " + target.address() + "; with no sync "
                        + "running, stop writes to the source and verify without --snapshot");
            }
            LOG.info("verify: the sync of task {} paused at a transaction boundary", task);
        } catch (SQLException e) {
            release();
            throw ErrorClassifier.wrap("verify --snapshot: cannot write the hold row " + table.table()
                    + " on the target " + target.address(), e);
        }
    }

    @Override
    public void holdAt(BinlogPosition p, Duration timeout) throws InterruptedException {
        try {
            row.setUntil(conn, sourceId, token, p);
            BinlogPosition want = BinlogPosition.of(p.file(), p.pos());
            if (!awaitAnswer(a -> a.holding() && want.equals(a.at()), timeout.toNanos())) {
                throw new FatalException("verify --snapshot: the sync of task " + task + " did not reach source "
                        + "position " + p + " within " + timeout.toSeconds() + " s; check its lag with `jdm "
                        + "status`, or raise --snapshot-timeout");
            }
            LOG.info("verify: the sync of task {} holds the target at source position {}", task, p);
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("verify --snapshot: lost the hold row " + table.table() + " on the target "
                    + target.address(), e);
        }
    }

    /** Polls the sync's answer to this verify's request until {@code ok} accepts it; false after {@code nanos}. */
    private boolean awaitAnswer(Predicate<HoldRequestRow.Answer> ok, long nanos)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (true) {
            Optional<HoldRequestRow.Answer> a = row.answer(conn, sourceId);
            if (a.isPresent() && a.get().token().equals(token) && ok.test(a.get())) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    @Override
    public void release() {
        if (renewer != null) {
            renewer.shutdownNow();
            renewer = null;
        }
        if (conn == null) {
            return;
        }
        try {
            row.delete(conn, sourceId, token);
        } catch (SQLException e) {
            LOG.warn("verify: could not delete the hold row {} ({}); the sync goes on when its lease ends",
                    table.table(), ErrorClassifier.oneLine(e));
        }
        closeQuietly();
    }

    private void startRenewing() {
        renewer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(task, "verify", "hold", true));
        long every = Math.max(100, lease.toMillis() / 4);
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
    }

    private void renew() {
        try (Connection c = DataSources.connect(target)) {
            if (!row.renew(c, sourceId, token, lease.toMillis())) {
                LOG.warn("verify: the hold row {} of source {} is gone", table.table(), sourceId);
            }
        } catch (SQLException e) {
            LOG.warn("verify: could not renew the hold lease: {}", ErrorClassifier.oneLine(e));
        }
    }

    private void closeQuietly() {
        try {
            conn.close();
        } catch (SQLException e) {
            LOG.debug("hold connection close: {}", e.getMessage());
        }
        conn = null;
    }
}
