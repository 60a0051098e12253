package io.jdm.verify;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.retry.Retries;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import io.jdm.common.util.NamedThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code threads} workers, each owning a source and a target connection, taking chunks from a
 * bounded queue. A chunk whose checksums differ is narrowed to rows in its final round, or handed
 * back for another look at a later snapshot. A chunk's failure marks its table ERROR and the worker
 * goes on; a worker that cannot reconnect stops the run (first error wins).
 */
final class Workers {
    private static final Logger LOG = LoggerFactory.getLogger(Workers.class);
    private static final KeyRangeChunk POISON = new KeyRangeChunk(null, -1, null, null);
    /** A chunk is compared at most three times, pausing 200 ms, then 400 ms (each ± a quarter). */
    private static final int RETRIES = 2;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    private static final Duration MAX_BACKOFF = Duration.ofMillis(400);
    private static final String WORKER_LOST = "verify: a worker lost its connection and could not reconnect";

    private final VerifyConfig config;
    private final Map<TablePair, TableTally> tallies;
    private final FixSql fix;
    private final VerifyMetrics metrics;
    private final boolean finalRound;
    private final boolean snapshot;
    private final BlockingQueue<KeyRangeChunk> queue;
    private final List<KeyRangeChunk> recheck = Collections.synchronizedList(new ArrayList<>());
    private final AtomicReference<JdmException> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();
    private final Retries retries;

    /** @param sourceConnections one snapshot connection per worker, or null to open plain ones */
    Workers(VerifyConfig config, Map<TablePair, TableTally> tallies, FixSql fix, VerifyMetrics metrics,
            List<Connection> sourceConnections, boolean finalRound) {
        this.config = config;
        this.tallies = tallies;
        this.fix = fix;
        this.metrics = metrics;
        this.finalRound = finalRound;
        this.snapshot = sourceConnections != null;
        this.queue = new ArrayBlockingQueue<>(config.threads() * 2);
        // A snapshot round never retries: its source connections cannot be opened again at the snapshot.
        // Narrowing is never tried again either: the rows it recorded would be listed twice.
        this.retries = Retries.builder().maxRetries(snapshot ? 0 : RETRIES).backoff(FIRST_BACKOFF, MAX_BACKOFF)
                .retryIf(e -> !(e instanceof NarrowingFailed || e instanceof WorkerLost)
                        && ErrorClassifier.isRetriable(e))
                .build();
        ThreadFactory tf = new NamedThreadFactory(config.task(), "verify", "chunk", true);
        for (int i = 0; i < config.threads(); i++) {
            Connection src = sourceConnections == null ? null : sourceConnections.get(i);
            ExecutorService companion = Executors.newSingleThreadExecutor(
                    new NamedThreadFactory(config.task(), "verify", "target" + i, true));
            Thread t = tf.newThread(() -> work(src, companion));
            threads.add(t);
            t.start();
        }
    }

    /** Queues a chunk, waiting while the workers are behind; throws the first fatal failure. */
    void submit(KeyRangeChunk c) throws InterruptedException {
        while (!queue.offer(c, 100, TimeUnit.MILLISECONDS)) {
            throwIfFailed();
        }
    }

    /** Waits for every queued chunk; returns the chunks that differed in a non-final round. */
    List<KeyRangeChunk> finish() throws InterruptedException {
        for (int i = 0; i < threads.size(); i++) {
            submit(POISON);
        }
        for (Thread t : threads) {
            t.join();
        }
        throwIfFailed();
        return List.copyOf(recheck);
    }

    /** Stops the workers without waiting for the queue; used when the run is abandoned. */
    void abort() {
        threads.forEach(Thread::interrupt);
    }

    private void throwIfFailed() {
        JdmException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    private void work(Connection snapshotSource, ExecutorService companion) {
        Connection src = snapshotSource;
        Connection tgt = null;
        try {
            while (true) {
                KeyRangeChunk c = queue.take();
                if (c == POISON) {
                    return;
                }
                // Opened at the first chunk: a run with fewer chunks than threads opens fewer connections.
                if (src == null) {
                    src = open(config.source());
                }
                if (tgt == null) {
                    tgt = open(config.target());
                }
                Connection[] conns = {src, tgt};
                handle(c, conns, companion);
                src = conns[0];
                tgt = conns[1];
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException | RuntimeException e) {
            JdmException j = ErrorClassifier.wrap(WORKER_LOST, e);
            failure.compareAndSet(null, j);
            queue.clear();
        } finally {
            companion.shutdownNow();
            closeQuietly(src);
            closeQuietly(tgt);
        }
    }

    private void handle(KeyRangeChunk c, Connection[] conns, ExecutorService companion) throws SQLException,
            InterruptedException {
        TableTally tally = tallies.get(c.plan.pair);
        if (tally.failed()) {
            return;
        }
        try {
            retries.call("verify: " + c.describe(), retry -> {
                try {
                    compare(c, new ChunkComparer(conns[0], conns[1], companion), tally);
                    return null;
                } catch (SQLException | RuntimeException e) {
                    reconnectIfLost(c, conns, e, tally);
                    throw e;
                }
            });
        } catch (Retries.GaveUp e) {
            if (e.stopped()) {
                throw new InterruptedException("verify: interrupted while retrying " + c.describe());
            }
            tally.fail(c.describe() + ": " + ErrorClassifier.oneLine(e.getCause()));
        } catch (WorkerLost e) {
            throw e.failure;
        } catch (NarrowingFailed e) {
            tally.fail(c.describe() + ": " + ErrorClassifier.oneLine(e.getCause()));
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) { // SQL or runtime: not retriable
            tally.fail(c.describe() + ": " + ErrorClassifier.oneLine(e));
        }
    }

    /**
     * After a failed try: opens both connections again if either was lost. A snapshot's source
     * connection cannot be opened again at its snapshot, so losing it stops the worker, as does a
     * connection that cannot be opened again.
     */
    private void reconnectIfLost(KeyRangeChunk c, Connection[] conns, Exception e, TableTally tally)
            throws SQLException {
        if (conns[0].isValid(2) && conns[1].isValid(2)) {
            return;
        }
        Throwable cause = e instanceof NarrowingFailed n ? n.getCause() : e;
        if (snapshot) {
            tally.fail(c.describe() + ": " + ErrorClassifier.oneLine(cause));
            throw new WorkerLost(ErrorClassifier.wrap("verify --snapshot: a source connection of the snapshot was lost",
                    e));
        }
        LOG.warn("verify: reconnecting after {}: {}", c.describe(), ErrorClassifier.oneLine(cause));
        closeQuietly(conns[0]);
        closeQuietly(conns[1]);
        try {
            conns[0] = open(config.source());
            conns[1] = open(config.target());
        } catch (SQLException | RuntimeException lost) {
            throw new WorkerLost(ErrorClassifier.wrap(WORKER_LOST, lost));
        }
    }

    private void compare(KeyRangeChunk c, ChunkComparer comparer, TableTally tally)
            throws SQLException, InterruptedException {
        ChunkComparer.Sums[] sums = comparer.checksum(c);
        if (sums[0].sameAs(sums[1])) {
            tally.chunkDone(sums[0].rows(), sums[1].rows(), sums[0].filtered(), false);
            metrics.chunkDone(sums[0].rows(), false, 0);
            return;
        }
        if (!finalRound) {
            recheck.add(c);
            return;
        }
        long diffs;
        try {
            diffs = comparer.narrow(c, new DiffRecorder(c.plan, tally, fix == null ? null : fix.table(c.plan)));
        } catch (SQLException | RuntimeException e) {
            // Some rows may already be recorded: a retry would list them twice.
            throw new NarrowingFailed(e);
        }
        tally.chunkDone(sums[0].rows(), sums[1].rows(), sums[0].filtered(), true);
        metrics.chunkDone(sums[0].rows(), true, diffs);
    }

    /**
     * Opens a connection for verify. Results come back in utf8mb4 whatever the column's charset
     * (the driver leaves {@code character_set_results} NULL, which would send latin1 bytes as they
     * are stored); {@code max_sort_length} is raised so long values order fully.
     */
    static Connection open(ConnectionSpec spec) throws SQLException {
        Connection c = DataSources.connect(spec);
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION character_set_results = utf8mb4");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        // While the merge waits for one side's first row (a sort), the other side's stream must not
        // time out on its blocked writes.
        for (String set : new String[] {"SET SESSION max_sort_length = 8388608",
                "SET SESSION net_write_timeout = 3600"}) {
            try (Statement st = c.createStatement()) {
                st.execute(set);
            } catch (SQLException e) {
                LOG.debug("{} failed on {}: {}", set, spec.address(), e.getMessage());
            }
        }
        return c;
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                LOG.debug("closing a verify connection: {}", e.getMessage());
            }
        }
    }

    /** The worker stops with {@code failure}: its connections are gone for good. */
    private static final class WorkerLost extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final JdmException failure;

        WorkerLost(JdmException failure) {
            super(failure.getMessage(), failure);
            this.failure = failure;
        }
    }

    /** A failure after some of a chunk's differing rows were recorded; never retried. */
    private static final class NarrowingFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NarrowingFailed(Throwable cause) {
            super(cause.getMessage(), cause);
        }
    }
}
