package io.jdm.load;

import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.retry.Retries;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of the pool: takes files from the shared queue until no more come, loading each
 * through a {@link FileLoader}. A retriable failure (the target went away, a deadlock, a TiDB write
 * conflict) drops the connection, waits under the load's retry policy and resumes the file from the
 * offset the target has committed; after {@code maxRetries} failures in a row without progress the
 * load stops with the checkpoint intact. A transaction TiDB finds too large is run again as smaller
 * ones. Any other failure stops the whole load at once.
 */
final class LoadWorker implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(LoadWorker.class);
    /** Room left in a packet for the protocol header and the rewritten statement head. */
    private static final long PACKET_MARGIN = 1024;

    private final LoadJob job;
    private final FileQueue queue;
    /** Checkpoint rows read before the workers started, by file name. */
    private final Map<String, LoaderCheckpoint.Row> known;
    private Connection conn;
    private FileLoader.Session session;
    private long maxStatementBytes;
    /** Retries what the target may accept later (it went away, a deadlock, a write conflict). */
    private final Retries retries;

    LoadWorker(LoadJob job, FileQueue queue, Map<String, LoaderCheckpoint.Row> known) {
        this.job = job;
        this.queue = queue;
        this.known = known;
        this.retries = job.retries(t -> t instanceof LoadFailure f && f.retriable());
    }

    @Override
    public void run() {
        try {
            List<DumpDirectory.DataFile> group;
            while (!job.stopping() && !(group = queue.nextGroup(g -> job.bulk() && fresh(g))).isEmpty()) {
                DumpDirectory.DataFile f = group.get(0);
                if (job.bulk() && fresh(f)) {
                    BulkLoader loader = new BulkLoader(job, group, job.config.router().apply(f.source()));
                    BulkLoader.Outcome outcome = bulkWithRetry(loader);
                    group = loader.files();
                    if (outcome == BulkLoader.Outcome.STOPPED) {
                        break;
                    }
                    if (outcome == BulkLoader.Outcome.FINISHED) {
                        group.forEach(queue::finished);
                        continue;
                    }
                }
                for (DumpDirectory.DataFile g : group) {
                    if (!loadWithRetry(g)) {
                        break;
                    }
                    queue.finished(g);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // interrupted only when the load is being torn down
        } catch (JdmException e) {
            job.fail(e);
        } catch (RuntimeException e) {
            job.fail(new FatalException(job.who() + ": internal error in a load worker: " + e, e));
        } finally {
            LoadJob.closeQuietly(conn);
        }
    }

    /** A file no row of which is committed yet: the checkpoint read before the start says so. */
    private boolean fresh(DumpDirectory.DataFile f) {
        LoaderCheckpoint.Row row = known.get(f.name());
        return row != null && row.offset() == 0 && !row.finished();
    }

    /**
     * Loads a group of files not begun with {@link BulkLoader}, retrying what the target may accept
     * later; after any outcome but FINISHED the connection is dropped (the transfer may have ended
     * mid-protocol).
     */
    private BulkLoader.Outcome bulkWithRetry(BulkLoader loader) {
        List<DumpDirectory.DataFile> group = loader.files();
        DumpDirectory.DataFile f = group.get(0);
        TableName target = job.config.router().apply(f.source());
        DiskProgress progress = new DiskProgress(job.metrics);
        String where = where(f, target, 0);
        String what = group.size() > 1 ? " (loading it and the next " + (group.size() - 1) + " file(s) as one LOAD DATA)"
                : " (loading it with LOAD DATA)";
        try {
            return retries.call(where, retry -> {
                BulkLoader.Outcome outcome;
                try {
                    progress.restart();
                    outcome = loader.load(connection(0), session, progress);
                } catch (LoadFailure e) {
                    dropConnection();
                    throw e;
                }
                if (outcome != BulkLoader.Outcome.FINISHED) {
                    dropConnection();
                }
                return outcome;
            });
        } catch (LoadFailure e) {
            if (e.damaged()) {
                throw new FatalException(where + what + ": " + e.getMessage() + "; nothing of these files was"
                        + " committed, run the dump again", e);
            }
            if (e.txnTooLarge()) {
                return BulkLoader.Outcome.STATEMENTS; // statement by statement, in transactions that shrink
            }
            throw new FatalException(where + what + ": " + e.getMessage() + "; the checkpoint is intact, rerun to"
                    + " resume", e);
        } catch (Retries.GaveUp e) {
            if (e.stopped()) {
                return BulkLoader.Outcome.STOPPED;
            }
            LoadFailure last = (LoadFailure) e.getCause();
            throw new FatalException(where + ": gave up after " + job.config.maxRetries() + " retries" + what + ": "
                    + last.getMessage() + "; the checkpoint is intact, rerun to resume once the target "
                    + job.config.target().address() + " is reachable", last);
        }
    }

    private void dropConnection() {
        LoadJob.closeQuietly(conn);
        conn = null;
    }

    /** Loads the file; true when it is finished, false when the job stopped first. */
    private boolean loadWithRetry(DumpDirectory.DataFile f) {
        TableName target = job.config.router().apply(f.source());
        FileLoader loader = new FileLoader(job, f, target, known.get(f.name()));
        DiskProgress progress = new DiskProgress(job.metrics);
        while (!job.stopping()) {
            long before = loader.committedOffset();
            try {
                return retries.call(where(f, target, before), retry -> {
                    try {
                        progress.restart();
                        return loader.load(connection(loader.committedOffset()), session, maxStatementBytes, progress);
                    } catch (LoadFailure e) {
                        LoadJob.closeQuietly(conn);
                        conn = null;
                        throw e;
                    }
                });
            } catch (LoadFailure e) {
                if (e.damaged()) {
                    throw new FatalException(where(f, target, e.offset()) + ": " + e.getMessage()
                            + "; nothing of this file was committed, run the dump again", e);
                }
                if (!e.txnTooLarge()) {
                    throw new FatalException(where(f, target, e.offset()) + ": " + e.getMessage()
                            + "; the checkpoint is intact, rerun to resume", e);
                }
                if (!loader.halveTransactions()) {
                    throw new FatalException(where(f, target, e.offset()) + ": the statement there is larger than"
                            + " the target takes in one transaction (" + e.getMessage() + "); raise TiDB's"
                            + " txn-total-size-limit or dump with a smaller statement-size, then rerun", e);
                }
                LOG.info("{}: the target refused a transaction as too large; committing fewer statements at once",
                        where(f, target, e.offset()));
            } catch (Retries.GaveUp e) {
                if (e.stopped()) {
                    return false; // the job stops: its first failure, or the stop request, is what is reported
                }
                if (loader.committedOffset() > before) {
                    continue; // the file moved on between the failures: a fresh count of retries in a row
                }
                LoadFailure last = (LoadFailure) e.getCause();
                throw new FatalException(where(f, target, last.offset()) + ": gave up after "
                        + job.config.maxRetries() + " retries: " + last.getMessage() + "; the checkpoint is intact,"
                        + " rerun to resume once the target " + job.config.target().address() + " is reachable", last);
            }
        }
        return false;
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
            session = new FileLoader.Session(job.sqlMode());
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
