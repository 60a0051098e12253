package io.jdm.load;

import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every worker of one run shares: the config, the checkpoint, the metrics, how to connect,
 * and the stop flag with the first failure (which wins and stops everyone).
 */
final class LoadJob {
    private static final Logger LOG = LoggerFactory.getLogger(LoadJob.class);

    /** Work on one connection that may be retried from the start on a fresh connection. */
    interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    final LoadConfig config;
    final LoaderCheckpoint checkpoint;
    final LoadMetrics metrics;
    /** What the dump recorded of its data files; null for a dump without {@code jdm-files}. Set before the workers start. */
    volatile FileManifest manifest;
    private volatile ConnectionSpec workerSpec;
    /** Used only by the coordinating thread, through {@link #withRetry}. */
    private Connection admin;
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private final AtomicReference<JdmException> failure = new AtomicReference<>();

    LoadJob(LoadConfig config, LoadMetrics metrics) {
        this.config = config;
        this.metrics = metrics;
        this.workerSpec = config.target();
        this.checkpoint = new LoaderCheckpoint(config.metaSchema(), config.task(), config.sourceId());
    }

    /** Session variables every later connection sets (the fast-path switches the user may set). */
    void useSession(java.util.Map<String, String> session) {
        workerSpec = config.target().withSession(session);
    }

    /**
     * Runs idempotent work (DDL with IF NOT EXISTS, checks before changes) on a fresh connection
     * and commits, retrying retriable failures within the budget.
     */
    <T> T withRetry(String what, SqlWork<T> work) {
        int failures = 0;
        while (true) {
            try {
                if (admin == null) {
                    admin = connect();
                }
                T result = work.run(admin);
                admin.commit();
                return result;
            } catch (SQLException e) {
                closeAdmin();
                boolean retriable = ErrorClassifier.isRetriable(e);
                if (!retriable || ++failures > config.maxRetries()) {
                    throw new FatalException(who() + ": " + what + " failed: " + ErrorClassifier.oneLine(e)
                            + (retriable ? "; gave up after " + config.maxRetries() + " retries, rerun once the target "
                            + config.target().address() + " is reachable" : ""), e);
                }
                long pause = backoffMillis(failures);
                metrics.retried();
                LOG.warn("{}: {}: retry {}/{} in {} ms: {}", who(), what, failures, config.maxRetries(), pause,
                        ErrorClassifier.oneLine(e));
                if (!pause(pause)) {
                    throw new FatalException(who() + ": stopped while " + what, e);
                }
            } catch (RuntimeException e) {
                closeAdmin();
                throw e;
            }
        }
    }

    /** Closes the connection {@link #withRetry} keeps between phases (idle while the workers load). */
    void closeAdmin() {
        closeQuietly(admin);
        admin = null;
    }

    /** A new target connection with the load's session settings, autocommit off. */
    Connection connect() throws SQLException {
        Connection c = DataSources.connect(workerSpec);
        try {
            c.setAutoCommit(false);
            return c;
        } catch (SQLException e) {
            closeQuietly(c);
            throw e;
        }
    }

    boolean stopping() {
        return stopRequested.get() || failure.get() != null;
    }

    void requestStop() {
        stopRequested.set(true);
    }

    boolean stopRequested() {
        return stopRequested.get();
    }

    /** Records the first failure; later ones are consequences and are dropped. */
    void fail(JdmException e) {
        failure.compareAndSet(null, e);
    }

    JdmException failure() {
        return failure.get();
    }

    /** The pause before retry number {@code attempt} (1-based): 250 ms doubling, capped. */
    long backoffMillis(int attempt) {
        long cap = TimeUnit.SECONDS.toMillis(config.maxBackoffSeconds());
        return Math.min(cap, 250L << Math.min(attempt - 1, 20));
    }

    /** Sleeps unless the job stops first; false when it should give up. */
    boolean pause(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!stopping()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** The common start of every message: {@code load task t (source s)}. */
    String who() {
        return "load task " + config.task() + " (source " + config.sourceId() + ")";
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // the connection is being thrown away after a failure already reported
        }
    }

    static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // a lost connection rolls back on the server by itself
        }
    }
}
