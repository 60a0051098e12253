package io.jdm.dump;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NO_SUCH_TABLE;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_TABLE_DEF_CHANGED;

import io.jdm.common.config.Consistency;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpListener;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.metrics.ProgressLogger;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.SqlModes;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dumps the selected tables of one source into a directory the load unit, myloader and DM's loader
 * read: consistent as of the recorded binlog position, split into chunks that {@code threads}
 * workers share, {@code metadata} written last so its presence means the dump is complete.
 */
public final class DumpUnit {
    private static final Logger LOG = LoggerFactory.getLogger(DumpUnit.class);
    private static final long PROGRESS_SECONDS = 5;

    private final DumpConfig config;
    private final DumpMetrics metrics;
    private final DumpState state = new DumpState();
    private final Queue<FileManifest.Entry> written = new ConcurrentLinkedQueue<>();
    private final DumpListener listener;
    /** Runs after the snapshot opened and before anything is read from it: lets tests change the source there. */
    Runnable afterSnapshot = () -> { };

    public DumpUnit(DumpConfig config) {
        this(config, DumpListener.NONE);
    }

    /**
     * A dump that tells {@code listener} of each file as it is finished (see {@link DumpListener}),
     * so that a load can follow it; the directory it writes is the same.
     */
    public DumpUnit(DumpConfig config, DumpListener listener) {
        this.config = config;
        this.listener = listener;
        this.metrics = new DumpMetrics(config.task(), config.sourceId());
    }

    /**
     * True when a run of {@code config} resumes the incomplete lock-free dump in its directory
     * rather than start over: its consistency is {@code lock-free} or {@code auto}.
     */
    public static boolean resumes(DumpConfig config) {
        return (config.consistency() == Consistency.LOCK_FREE || config.consistency() == Consistency.AUTO)
                && LockFreeRun.resumable(config);
    }

    public DumpMetrics metrics() {
        return metrics;
    }

    /** Asks a running dump to end; {@link #run()} then fails without writing {@code metadata}. */
    public void stop() {
        state.requestStop();
    }

    /**
     * Runs the dump to completion.
     *
     * @throws JdmException with a one-line message naming the table, chunk or path at fault; the
     *                      directory is then left without {@code metadata}
     */
    public DumpResult run() {
        LocalDateTime started = LocalDateTime.now();
        long t0 = System.nanoTime();
        OutputDirectory dir = new OutputDirectory(config.outputDir(), config.compress());
        try {
            dir.prepare();
        } catch (IOException e) {
            throw new FatalException(prefix() + "cannot write to output directory " + config.outputDir() + ": "
                    + ErrorClassifier.oneLine(e) + "; check the path, its permissions and free space", e);
        }
        LOG.info("{}dumping from {} into {}", prefix(), config.source().address(), config.outputDir());
        SnapshotOpener.Opened opened;
        BinlogPosition position;
        String sourceSqlMode;
        long openNanos;
        try (Connection meta = connect();
             ProgressLogger progress = new ProgressLogger(config.task(), "dump", metrics, PROGRESS_SECONDS)) {
            Flavor flavor = Flavor.detect(meta);
            opened = new SnapshotOpener(config, flavor, meta).open(LockFreeRun.resumable(config));
            openNanos = System.nanoTime() - t0;
            // the mode the source's sessions wrote the rows in: the load writes them back in it
            sourceSqlMode = SqlModes.global(meta);
            try (SnapshotPool pool = opened.pool()) {
                if (opened.used() == Consistency.LOCK_FREE) {
                    LOG.info("{}lock-free: each chunk in its own snapshot (binlog at {} now)", prefix(),
                            opened.position());
                    try (LockFreeRun run = LockFreeRun.open(config, dir,
                            new ChunkWindow(flavor, opened.position() != null))) {
                        dumpAll(pool, meta, dir, opened, run);
                        position = state.halted() ? null : run.lowest(opened.position());
                    }
                } else {
                    LOG.info("{}snapshot open ({}), position {}", prefix(), opened.used().label(), opened.position());
                    dir.clean();
                    dumpAll(pool, meta, dir, opened, null);
                    position = opened.position();
                }
            }
        } catch (SQLException e) {
            throw ErrorClassifier.wrap(prefix() + "source " + config.source().address(), e);
        } catch (IOException e) {
            throw new FatalException(prefix() + "cannot write to output directory " + config.outputDir() + ": "
                    + ErrorClassifier.oneLine(e) + "; check free space and permissions, then rerun", e);
        }
        if (state.failure() != null) {
            throw state.failure();
        }
        if (state.stopRequested()) {
            throw new FatalException(prefix() + "stopped before the dump was complete; " + config.outputDir()
                    + " has no metadata and a rerun " + (opened.used() == Consistency.LOCK_FREE
                    ? "resumes it from the chunks not finished" : "starts clean"));
        }
        metrics.finished();
        DumpMetadata metadata = new DumpMetadata(started, LocalDateTime.now(), position, opened.used().label(),
                sourceSqlMode);
        try {
            FileManifest.of(written).writeTo(config.outputDir());
            metadata.writeTo(config.outputDir());
        } catch (IOException e) {
            throw new FatalException(prefix() + "cannot write " + config.outputDir().resolve(DumpFileNames.METADATA)
                    + " or " + FileManifest.NAME + ": " + ErrorClassifier.oneLine(e)
                    + "; check free space and permissions, then rerun", e);
        }
        listener.completed(metadata);
        LOG.info("[dump] {}", metrics.summaryLine());
        return new DumpResult(position, opened.tables().size(), metrics.rows(), metrics.bytes(),
                Duration.ofNanos(System.nanoTime() - t0), Duration.ofNanos(openNanos));
    }

    /** Schemas, every chunk, views: in the one snapshot, or lock-free chunk by chunk when {@code run} is set. */
    private void dumpAll(SnapshotPool pool, Connection meta, OutputDirectory dir, SnapshotOpener.Opened opened,
                         LockFreeRun run) throws SQLException, IOException {
        afterSnapshot.run();
        SchemaDumper schemas = new SchemaDumper(config, dir, metrics, listener);
        try {
            schemas.start(meta, pool, run == null ? opened.tables() : run.tables(opened.tables()), opened.views(),
                    opened.fingerprint());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state.requestStop();
            return;
        }
        List<TableJob> jobs = runChunks(pool, meta, schemas, opened, dir, run);
        if (run != null && !state.halted()) {
            run.checkUnaltered(meta, jobs, opened.fingerprint());
        }
        if (!state.halted()) {
            schemas.views(meta, opened.views());
        }
    }

    private Connection connect() throws SQLException {
        return SnapshotOpener.connect(config);
    }

    /**
     * Plans each table and feeds the chunks to the workers; returns the tables once all are done.
     *
     * @param run a lock-free dump's bookkeeping; null for a dump in one snapshot
     */
    private List<TableJob> runChunks(SnapshotPool pool, Connection meta, SchemaDumper schemas,
                                     SnapshotOpener.Opened opened, OutputDirectory dir, LockFreeRun run) {
        BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(Math.max(16, config.threads() * 4));
        ExecutorService workers = Executors.newFixedThreadPool(config.threads(),
                new NamedThreadFactory(config.task(), "dump", "worker"));
        for (int i = 0; i < config.threads(); i++) {
            workers.execute(new ChunkWorker(queue, pool, state, config, metrics, dir.path(), written, listener,
                    run == null ? null : run.worker()));
        }
        List<TableJob> jobs = new ArrayList<>();
        try {
            if (run == null) {
                plan(pool, meta, schemas, opened.tables(), queue, jobs);
            } else {
                planLockFree(pool, meta, schemas, opened, run, queue, jobs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state.requestStop();
        } finally {
            endWorkers(queue);
            awaitWorkers(workers);
        }
        return jobs;
    }

    private void plan(SnapshotPool pool, Connection meta, SchemaDumper schemas, List<TableName> tables,
                      BlockingQueue<Chunk> queue, List<TableJob> jobs) throws InterruptedException {
        ChunkPlanner planner = new ChunkPlanner(config.rows(), config::where);
        for (TableName table : tables) {
            if (state.halted()) {
                return;
            }
            TableJob job = readTable(meta, schemas, table);
            List<Chunk> chunks = job == null ? null : planTable(pool, planner, job);
            if (chunks == null || !enqueue(job, chunks, queue)) {
                return;
            }
            jobs.add(job);
        }
    }

    /**
     * A lock-free dump plans every table first (or reads the plan it resumes), refuses tables
     * without a key, writes the plan, and only then hands out the chunks no earlier run finished,
     * after announcing the files of those it did.
     */
    private void planLockFree(SnapshotPool pool, Connection meta, SchemaDumper schemas, SnapshotOpener.Opened opened,
                              LockFreeRun run, BlockingQueue<Chunk> queue, List<TableJob> jobs)
            throws InterruptedException {
        ChunkPlanner planner = new ChunkPlanner(config.rows(), config::where);
        Map<TableJob, List<Chunk>> planned = new LinkedHashMap<>();
        List<TableName> keyless = new ArrayList<>();
        for (TableName table : run.tables(opened.tables())) {
            if (state.halted()) {
                return;
            }
            TableJob job = readTable(meta, schemas, table);
            if (job == null) {
                return;
            }
            if (!job.schema().hasIdentityKey()) {
                keyless.add(table);
                continue;
            }
            List<Chunk> chunks;
            try {
                chunks = run.planned(job, opened.fingerprint());
            } catch (JdmException e) {
                state.fail(e);
                return;
            }
            chunks = chunks != null ? chunks : planTable(pool, planner, job);
            if (chunks == null) {
                return;
            }
            planned.put(job, chunks);
        }
        if (!keyless.isEmpty()) {
            state.fail(run.keyless(keyless));
            return;
        }
        try {
            run.writePlan(planned, opened.fingerprint());
        } catch (IOException e) {
            state.fail(new FatalException(prefix() + "cannot write the chunk plan to " + config.outputDir() + ": "
                    + ErrorClassifier.oneLine(e) + "; check free space and permissions, then rerun", e));
            return;
        }
        for (Map.Entry<TableJob, List<Chunk>> e : planned.entrySet()) {
            List<FileManifest.Entry> kept = new ArrayList<>();
            List<Chunk> todo = run.unfinished(e.getKey(), e.getValue(), written, kept);
            ChunkWorker.announce(listener, state, kept);
            if (!enqueue(e.getKey(), todo, queue)) {
                return;
            }
            jobs.add(e.getKey());
        }
    }

    /** The table's columns and keys, its CREATE TABLE written; null (and the dump failed) when it cannot be read. */
    private TableJob readTable(Connection meta, SchemaDumper schemas, TableName table) {
        try {
            return schemas.table(meta, table);
        } catch (JdmException e) {
            state.fail(e);
        } catch (SQLException e) {
            state.fail(tableError(table, e));
        } catch (IOException e) {
            state.fail(new FatalException(prefix() + "cannot write the schema of " + table.quoted() + " to "
                    + config.outputDir() + ": " + ErrorClassifier.oneLine(e) + "; check free space and permissions,"
                    + " then rerun", e));
        }
        return null;
    }

    /** Hands a table's chunks to the workers; false when the dump halted meanwhile. */
    private boolean enqueue(TableJob job, List<Chunk> chunks, BlockingQueue<Chunk> queue) throws InterruptedException {
        metrics.chunksPlanned(chunks.size());
        for (Chunk chunk : chunks) {
            job.chunkPlanned();
            while (!queue.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
                if (state.halted()) {
                    return false;
                }
            }
        }
        if (job.release()) {
            metrics.tableDone();
            listener.tableWritten(job.name());
        }
        return true;
    }

    /** The table's chunks, planned on a snapshot connection (another one if it is lost); null on failure. */
    private List<Chunk> planTable(SnapshotPool pool, ChunkPlanner planner, TableJob job) throws InterruptedException {
        if (!planner.asks(job)) { // without waiting for a worker to give a connection back
            return planner.oneChunk(job);
        }
        while (true) {
            Connection c = pool.take(state::halted);
            if (c == null) {
                if (!state.halted()) {
                    state.fail(new FatalException(prefix() + "table " + job.name().quoted()
                            + ": no connection to the snapshot is left; rerun the dump"));
                }
                return null;
            }
            try {
                List<Chunk> chunks = planner.plan(c, job);
                pool.give(c);
                return chunks;
            } catch (SQLException e) {
                boolean retry = ErrorClassifier.isRetriable(e) && pool.canRetry();
                try {
                    pool.discard(c);
                } catch (SQLException reopen) {
                    retry = false;
                }
                if (!retry || state.halted()) {
                    state.fail(tableError(job.name(), e));
                    return null;
                }
                LOG.warn("{}planning {}: {}; using another snapshot connection", prefix(), job.name().quoted(),
                        ErrorClassifier.oneLine(e));
            }
        }
    }

    /** One {@link Chunk#END} per worker, behind the last chunk; a halted dump's workers end by themselves. */
    private void endWorkers(BlockingQueue<Chunk> queue) {
        try {
            for (int i = 0; i < config.threads(); i++) {
                while (!queue.offer(Chunk.END, 100, TimeUnit.MILLISECONDS)) {
                    if (state.halted()) {
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state.requestStop();
        }
    }

    private void awaitWorkers(ExecutorService workers) {
        workers.shutdown();
        try {
            while (!workers.awaitTermination(1, TimeUnit.SECONDS)) {
                LOG.debug("waiting for dump workers");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state.requestStop();
            workers.shutdownNow();
        }
    }

    JdmException tableError(TableName table, SQLException e) {
        return switch (e.getErrorCode()) {
            case ER_NO_SUCH_TABLE -> new FatalException(prefix() + "table " + table.quoted()
                    + " was dropped during the dump; rerun the dump", e);
            case ER_TABLE_DEF_CHANGED -> new FatalException(prefix() + "table " + table.quoted()
                    + " was altered during the dump and its snapshot version can no longer be read; rerun the dump", e);
            default -> new FatalException(prefix() + "table " + table.quoted() + ": " + ErrorClassifier.oneLine(e)
                    + (ErrorClassifier.isRetriable(e) ? "; the consistent snapshot cannot be reopened, rerun the dump"
                    : ""), e);
        };
    }

    private String prefix() {
        return "task " + config.task() + " dump: ";
    }
}
