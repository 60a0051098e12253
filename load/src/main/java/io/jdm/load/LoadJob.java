package io.jdm.load;

import io.jdm.common.schema.TableEngines;
import io.jdm.common.config.OnDuplicate;
import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.retry.Retries;
import io.jdm.common.sql.SqlModes;
import io.jdm.common.util.NamedThreadFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
    /** The first pause after a retriable failure; later ones double up to max-backoff-seconds. */
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

    /** Work on one connection that may be retried from the start on a fresh connection. */
    interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    final LoadConfig config;
    final LoaderCheckpoint checkpoint;
    final LoadMetrics metrics;
    /**
     * Target tables whose files load with {@code unique_checks} on although the task turns them off:
     * MariaDB refused a COMMIT into one with them off (error 1180, "Got error 1"), which is how it
     * reports a duplicate of a unique key it checks only then, without naming the key; with them on
     * the statement that holds the duplicate fails naming it.
     */
    final java.util.Set<io.jdm.common.sql.TableName> uniqueChecked = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Which target tables keep their rows outside transactions. */
    final TableEngines engines = new TableEngines();
    /** The target tables' columns. */
    final TargetSchemas schemas = new TargetSchemas();
    /**
     * What the dump recorded of a data file ({@code jdm-files}, or what a dump being followed announced);
     * null for a dump without that record. Set before the workers start.
     */
    volatile Function<String, FileManifest.Entry> recorded = name -> null;
    private volatile ConnectionSpec workerSpec;
    private volatile OnDuplicate onDuplicate;
    /** Why files are not loaded with LOAD DATA LOCAL ({@link BulkLoader}); null while they may be. */
    private volatile String noBulk = "not checked yet";
    /** The target is MariaDB, whose statistics thread spins while LOAD DATA fills an empty table. */
    private volatile boolean mariadb;
    /** The target is TiDB, whose every CREATE TABLE waits for its schema change to spread. */
    private volatile boolean tidb;
    /** Used only by the coordinating thread, through {@link #withRetry}. */
    private final Session admin = new Session();
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private final AtomicReference<JdmException> failure = new AtomicReference<>();
    private final Retries adminRetries;

    LoadJob(LoadConfig config, LoadMetrics metrics) {
        this.config = config;
        this.metrics = metrics;
        this.workerSpec = config.target();
        this.checkpoint = new LoaderCheckpoint(config.metaSchema(), config.task(), config.sourceId());
        this.adminRetries = retries(ErrorClassifier::isRetriable);
    }

    /**
     * How a row that collides with one in the target is written: the config's, except that a
     * lock-free dump's {@code error} is {@code replace}. Its chunks are read at different moments, so
     * two of them may hold the same unique value on two rows (a swap between the reads); the sync
     * that follows replays the rows changed meanwhile, so whichever row the load keeps is
     * corrected. Decided at the first data file: the dump writes its plan before any.
     */
    OnDuplicate onDuplicate() {
        OnDuplicate d = onDuplicate;
        if (d == null) {
            d = config.onDuplicate();
            if (d == OnDuplicate.ERROR && ChunkPlan.existsIn(config.dir())) {
                LOG.info("{}: the dump is lock-free, its chunks read at different moments: rows that collide on"
                        + " a unique key are replaced (on-duplicate error reads as replace) and the sync corrects"
                        + " them", who());
                d = OnDuplicate.REPLACE;
            }
            onDuplicate = d;
        }
        return d;
    }

    /**
     * Whether files not begun may load through {@link BulkLoader}: the target takes LOAD DATA
     * LOCAL, is not TiDB (whose LOAD DATA may commit part of a file on its own), and rows are not
     * to be ignored on a duplicate key (LOCAL turns every error into a warning, and the load could
     * not tell the duplicates from the rest).
     */
    boolean bulk() {
        return noBulk == null && onDuplicate() != OnDuplicate.IGNORE;
    }

    /** Decides {@link #bulk()} from the target's {@code local_infile} and version, once before the workers start. */
    void checkBulk() {
        String why = withRetry("checking local_infile", c -> {
            try (java.sql.Statement st = c.createStatement();
                 java.sql.ResultSet rs = st.executeQuery("SELECT @@local_infile, VERSION()")) {
                rs.next();
                mariadb = rs.getString(2).contains("MariaDB");
                tidb = rs.getString(2).contains("TiDB");
                if (tidb) {
                    return "the target is TiDB";
                }
                return rs.getBoolean(1) ? null : "the target's local_infile is OFF (SET GLOBAL local_infile = 1"
                        + " on the target makes the load faster)";
            }
        });
        noBulk = why;
        if (why != null) {
            LOG.info("{}: files load statement by statement, not with LOAD DATA LOCAL: {}", who(), why);
        }
    }

    /**
     * Whether the tables this load creates have their automatic statistics paused until their rows
     * are in ({@link SchemaLoader#createTable}): on a MariaDB target taking LOAD DATA, whose
     * statistics thread otherwise recomputes an empty table's statistics over and over while one
     * LOAD DATA fills it (measured: a load of 8 x 500k sysbench rows, 15.6 -> 11.9 s of the
     * target's CPU, 9.5 -> 8.7 s wall).
     */
    boolean pausesStatistics() {
        return mariadb && noBulk == null; // not bulk(): how duplicates go is decided at the first data file
    }

    /** Whether {@link #checkBulk} found the target to be TiDB. */
    boolean tidb() {
        return tidb;
    }

    /** The target refused LOAD DATA LOCAL after all: the rest loads statement by statement. */
    void noBulk(String why) {
        if (noBulk == null) {
            noBulk = why;
            LOG.info("{}: files load statement by statement from now on: {}", who(), why);
        }
    }

    /**
     * Session variables every later connection sets (the sql_mode, the fast-path switches the user
     * may set); the connection {@link #withRetry} kept, opened before, is closed so that the schemas
     * too are created in them.
     */
    void useSession(java.util.Map<String, String> session) {
        workerSpec = config.target().withSession(session);
        closeAdmin();
    }

    /**
     * Whether every connection of the load is opened with foreign_key_checks off ({@link
     * #useSession}): a step that needs them off then has nothing to set, nor to set back.
     */
    boolean foreignKeyChecksOff() {
        return "0".equals(workerSpec.session().get("foreign_key_checks"));
    }

    /** The sql_mode every connection of the load starts in ({@link LoadSqlMode}); each data file starts in it. */
    String sqlMode() {
        return workerSpec.session().getOrDefault("sql_mode", SqlModes.REPLAY);
    }

    /**
     * Runs idempotent work (DDL with IF NOT EXISTS, checks before changes) on a fresh connection
     * and commits, retrying retriable failures under the load's retry policy.
     */
    <T> T withRetry(String what, SqlWork<T> work) {
        return admin.withRetry(what, work);
    }

    /**
     * One thread's target connection for steps retried as {@link #withRetry} retries them: opened
     * when first needed, replaced after a failure, committed after each step.
     */
    final class Session implements AutoCloseable {
        private Connection c;

        <T> T withRetry(String what, SqlWork<T> work) {
            try {
                return adminRetries.call(who() + ": " + what, retry -> {
                    try {
                        if (c == null) {
                            c = connect();
                        }
                        T result = work.run(c);
                        c.commit();
                        return result;
                    } catch (SQLException | RuntimeException e) {
                        close();
                        throw e;
                    }
                });
            } catch (SQLException e) {
                throw new FatalException(who() + ": " + what + " failed: " + ErrorClassifier.oneLine(e), e);
            } catch (Retries.GaveUp e) {
                if (e.stopped()) {
                    throw new FatalException(who() + ": stopped while " + what, e.getCause());
                }
                throw new FatalException(who() + ": " + what + " failed: " + e.getMessage() + "; gave up after "
                        + config.maxRetries() + " retries, rerun once the target " + config.target().address()
                        + " is reachable", e.getCause());
            }
        }

        @Override
        public void close() {
            closeQuietly(c);
            c = null;
        }
    }

    /** Work on one item of {@link #inParallel}, on a connection of its thread. */
    interface SqlItemWork<T> {
        void run(Connection c, T item) throws SQLException;
    }

    /**
     * Runs {@code work} on each of {@code items} on up to {@code pool-size} (at most 8) target
     * connections at once, each item retried as {@link #withRetry} retries and committed; for the
     * steps that are one statement per table (creating tables, giving their statistics back),
     * which the target runs in parallel while a single connection would wait for each in turn.
     * Once one item failed the others not begun are left; the first failure is thrown.
     *
     * @param what names an item in messages, e.g. "creating `db`.`t`"
     */
    <T> void inParallel(List<T> items, Function<T, String> what, SqlItemWork<T> work) {
        int threads = Math.min(items.size(), Math.min(config.poolSize(), 8));
        if (threads <= 1) {
            items.forEach(item -> withRetry(what.apply(item), c -> {
                work.run(c, item);
                return null;
            }));
            return;
        }
        ConcurrentLinkedQueue<T> todo = new ConcurrentLinkedQueue<>(items);
        AtomicReference<JdmException> first = new AtomicReference<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads,
                new NamedThreadFactory(config.task(), "load", "schema"));
        try {
            for (int i = 0; i < threads; i++) {
                pool.execute(() -> {
                    Session session = new Session();
                    try {
                        while (first.get() == null && !stopRequested()) {
                            T it = todo.poll();
                            if (it == null) {
                                break;
                            }
                            session.withRetry(what.apply(it), c -> {
                                work.run(c, it);
                                return null;
                            });
                        }
                    } catch (JdmException e) {
                        first.compareAndSet(null, e);
                    } finally {
                        session.close();
                    }
                });
            }
        } finally {
            pool.shutdown();
            try {
                // each item ends within its retry budget, or when the job stops
                while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
                    Thread.onSpinWait();
                }
            } catch (InterruptedException e) {
                pool.shutdownNow();
                Thread.currentThread().interrupt();
                requestStop();
            }
        }
        if (first.get() != null) {
            throw first.get();
        }
    }

    /**
     * The retry policy of this load for {@code retriable} failures: {@code max-retries} in a row,
     * pauses from 250 ms doubling up to {@code max-backoff-seconds}, ending when the job stops.
     */
    Retries retries(java.util.function.Predicate<Throwable> retriable) {
        return Retries.builder().maxRetries(config.maxRetries())
                .backoff(FIRST_BACKOFF, Duration.ofSeconds(config.maxBackoffSeconds()))
                .retryIf(retriable).counter(metrics.retries()).stopWhen(this::stopping).build();
    }

    /** Closes the connection {@link #withRetry} keeps between phases (idle while the workers load). */
    void closeAdmin() {
        admin.close();
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
