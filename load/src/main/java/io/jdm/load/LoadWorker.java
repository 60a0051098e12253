package io.jdm.load;

import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Queue;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of the pool: takes files from the shared queue until it is empty, loading each
 * through a {@link FileLoader}. A retriable failure (the target went away, a deadlock) drops the
 * connection, waits with doubling backoff and resumes the file from the offset the target has
 * committed; after {@code maxRetries} failures in a row without progress the load stops with the
 * checkpoint intact. Any other failure stops the whole load at once.
 */
final class LoadWorker implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(LoadWorker.class);
    /** Room left in a packet for the protocol header and the rewritten statement head. */
    private static final long PACKET_MARGIN = 1024;

    private final LoadJob job;
    private final Queue<DumpDirectory.DataFile> queue;
    /** Checkpoint rows read before the workers started, by file name. */
    private final Map<String, LoaderCheckpoint.Row> known;
    private Connection conn;
    private FileLoader.Session session;
    private long maxStatementBytes;

    LoadWorker(LoadJob job, Queue<DumpDirectory.DataFile> queue, Map<String, LoaderCheckpoint.Row> known) {
        this.job = job;
        this.queue = queue;
        this.known = known;
    }

    @Override
    public void run() {
        try {
            DumpDirectory.DataFile f;
            while (!job.stopping() && (f = queue.poll()) != null) {
                loadWithRetry(f);
            }
        } catch (JdmException e) {
            job.fail(e);
        } catch (RuntimeException e) {
            job.fail(new FatalException(job.who() + ": internal error in a load worker: " + e, e));
        } finally {
            LoadJob.closeQuietly(conn);
        }
    }

    private void loadWithRetry(DumpDirectory.DataFile f) {
        TableName target = job.config.router().apply(f.source());
        FileLoader loader = new FileLoader(job, f, target, known.get(f.name()));
        DiskProgress progress = new DiskProgress(job.metrics);
        int failures = 0;
        long lastFailedAt = -1;
        while (!job.stopping()) {
            try {
                progress.restart();
                Connection c = connection(loader.committedOffset());
                loader.load(c, session, maxStatementBytes, progress);
                return; // finished, or stopped by the job
            } catch (LoadFailure e) {
                LoadJob.closeQuietly(conn);
                conn = null;
                if (e.damaged()) {
                    throw new FatalException(where(f, target, e.offset()) + ": " + e.getMessage()
                            + "; nothing of this file was committed, run the dump again", e);
                }
                if (!e.retriable()) {
                    throw new FatalException(where(f, target, e.offset()) + ": " + e.getMessage()
                            + "; the checkpoint is intact, rerun to resume", e);
                }
                failures = loader.committedOffset() > lastFailedAt ? 1 : failures + 1;
                lastFailedAt = loader.committedOffset();
                if (failures > job.config.maxRetries()) {
                    throw new FatalException(where(f, target, e.offset()) + ": gave up after " + job.config.maxRetries()
                            + " retries: " + e.getMessage() + "; the checkpoint is intact, rerun to resume once "
                            + "the target " + job.config.target().address() + " is reachable", e);
                }
                long pause = job.backoffMillis(failures);
                job.metrics.retried();
                LOG.warn("{}: retry {}/{} in {} ms: {}", where(f, target, e.offset()), failures,
                        job.config.maxRetries(), pause, e.getMessage());
                job.pause(pause);
            }
        }
    }

    private Connection connection(long offset) throws LoadFailure {
        if (conn != null) {
            return conn;
        }
        try {
            conn = job.connect();
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT @@max_allowed_packet")) {
                rs.next();
                maxStatementBytes = Math.max(1024, rs.getLong(1) - PACKET_MARGIN);
            }
            conn.commit();
            session = new FileLoader.Session();
            return conn;
        } catch (SQLException e) {
            LoadJob.closeQuietly(conn);
            conn = null;
            throw LoadFailure.sql(offset, "connecting to the target " + job.config.target().address(), e);
        }
    }

    private String where(DumpDirectory.DataFile f, TableName target, long offset) {
        String route = target.equals(f.source()) ? target.quoted() : f.source().quoted() + " -> " + target.quoted();
        return job.who() + ", table " + route + ", file " + f.name() + " at byte offset " + offset;
    }

    /** Counts disk bytes once per file, however often the file is re-read after a retry. */
    private static final class DiskProgress implements LongConsumer {
        private final LoadMetrics metrics;
        private long position;
        private long reported;

        DiskProgress(LoadMetrics metrics) {
            this.metrics = metrics;
        }

        void restart() {
            position = 0;
        }

        @Override
        public void accept(long n) {
            position += n;
            if (position > reported) {
                metrics.addBytes(position - reported);
                reported = position;
            }
        }
    }
}
