package io.jdm.sync;


import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.hold.SyncHoldTable;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.metrics.ProgressLogger;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.causality.Causality;
import io.jdm.sync.checkpoint.AppliedFilter;
import io.jdm.sync.checkpoint.CheckpointStore;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.reader.BinlogReader;
import io.jdm.sync.reader.ChangeSink;
import io.jdm.sync.reader.ReadGate;
import io.jdm.sync.ring.ByteBudget;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.ParkingWaitStrategy;
import io.jdm.sync.ring.PipelineCounters;
import io.jdm.sync.ring.RingSlot;
import io.jdm.sync.ring.RowChange;
import io.jdm.sync.ring.SlotCleaner;
import io.jdm.sync.ring.WriterProgress;
import io.jdm.sync.writer.DdlApplier;
import io.jdm.sync.writer.DrainBarrier;
import io.jdm.sync.writer.Writer;
import io.jdm.sync.writer.WriterSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import com.lmax.disruptor.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replicates row changes from the source's binlog to the target: reader → ring → causality →
 * worker-count writers (see the package documentation for the picture and the position scheme).
 * {@link #start()} returns once the binlog streams; {@link #stop()} stops reading, lets the writers
 * drain and commit, and flushes the global checkpoint. The first failure of any stage stops the
 * whole unit and is kept in {@link #failure()}.
 */
public final class SyncUnit {
    private static final Logger LOG = LoggerFactory.getLogger(SyncUnit.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration HOLD_POLL = Duration.ofMillis(100);

    /**
     * TiDB's default {@code txn-total-size-limit}: a larger transaction fails with 8004 (a batch that
     * still does is committed in halves, see the package doc).
     */
    static final long TIDB_TXN_LIMIT = 100L << 20;

    private final SyncConfig cfg;
    private final PipelineCounters counters = new PipelineCounters();
    private final WriterProgress progress;
    private final AtomicReference<JdmException> failure = new AtomicReference<>();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final CountDownLatch writersStopped;
    private final CheckpointStore store;
    private final DdlMarkers markers;
    /** The DDL that was running when the last run stopped, or null. */
    private DdlMarkers.Marker pendingDdl;
    private final SyncMetrics metrics;
    private volatile boolean stopping;
    private volatile boolean started;
    private Disruptor<RingSlot> disruptor;
    private volatile RingBuffer<RingSlot> ring;
    private volatile BinlogReader reader;
    private ScheduledExecutorService flusher;
    private ScheduledExecutorService holdTimer;
    private HoldWatcher holdWatcher;
    private final ReadGate gate = new ReadGate();
    private final Object flushLock = new Object();
    private ProgressLogger progressLogger;
    private volatile BinlogPosition startPosition;
    private volatile ChangePos globalSaved;
    private int generation;
    private int oldestGeneration;
    private ChangePos oldGenerationsHorizon;
    private long safeUntilNanos;
    private final ByteBudget budget;
    /** A writer commits once its batch holds this many bytes of row images (see prepareCheckpoint). */
    private long batchBytes = 4L << 20;

    public SyncUnit(SyncConfig cfg) {
        this.cfg = cfg;
        this.progress = new WriterProgress(cfg.workerCount());
        this.writersStopped = new CountDownLatch(cfg.workerCount());
        this.store = new CheckpointStore(cfg.checkpointTable(), cfg.sourceId());
        this.markers = new DdlMarkers(cfg.ddlMarkerTable(), cfg.sourceId());
        this.budget = new ByteBudget(Long.getLong("jdm.sync.ring-bytes", ByteBudget.defaultLimit()),
                () -> failure.get() != null);
        this.metrics = new SyncMetrics(cfg.task(), cfg.sourceId(), counters, progress, () -> ring == null ? -1 : ring.getCursor(),
                this::checkpoint, () -> reader == null ? null : reader.lastEventEnd(),
                () -> reader == null ? 0 : reader.reconnects(), gate::isClosed);
    }

    /** Resolves the start point, starts every stage and returns once the binlog is streaming. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("sync unit already started");
        }
        started = true;
        try {
            AppliedFilter applied = prepareCheckpoint();
            buildRing(applied);
            reader = new BinlogReader(new BinlogReader.Settings(cfg.task(), cfg.source(), cfg.serverId(),
                    cfg.enableGtid(), cfg.heartbeatInterval(), cfg.retryBudget(), cfg.retryMaxBackoff(),
                    cfg.tableFilter(), cfg.router(), cfg.target(),
                    BinlogReader.scratchSchema(cfg.metaSchema(), cfg.task(), cfg.sourceId()), cfg.eventFilter(),
                    cfg.onlineDdl(), startOver()), startPosition, new RingSink(), this::fail, gate);
            holdWatcher = new HoldWatcher(cfg.target(), SyncHoldTable.of(cfg.metaSchema(), cfg.task()), cfg.task(),
                    cfg.sourceId(), gate, reader::lastEventEnd, () -> ring.getCursor(), progress::minSequence);
            holdWatcher.ensureTable();
            safeUntilNanos = System.nanoTime() + cfg.safeModeDuration().toNanos();
            if (cfg.safeModeUntil() != null) {
                LOG.info("sync: safe mode until the stream passes {}, where the lock-free dump's last chunk was read",
                        cfg.safeModeUntil());
            }
            disruptor.start();
            reader.start(Duration.ofSeconds(Math.max(30, cfg.source().connectTimeoutSeconds() * 2L)));
            flusher = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(cfg.task(), "sync",
                    "checkpoint", true));
            long ms = cfg.checkpointFlushInterval().toMillis();
            flusher.scheduleWithFixedDelay(this::flushGlobalQuietly, ms, ms, TimeUnit.MILLISECONDS);
            holdTimer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(cfg.task(), "sync", "hold",
                    true));
            holdTimer.scheduleWithFixedDelay(holdWatcher, 0, HOLD_POLL.toMillis(), TimeUnit.MILLISECONDS);
            progressLogger = new ProgressLogger(cfg.task(), "sync", metrics, 10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(new FatalException("sync: interrupted while starting"));
        } catch (JdmException e) {
            fail(e);
        } catch (SQLException e) {
            fail(ErrorClassifier.wrap("sync: cannot create the hold table of task " + cfg.task() + " on the target "
                    + cfg.target().address(), e));
        } catch (RuntimeException e) {
            fail(ErrorClassifier.wrap("sync: cannot start task " + cfg.task(), e));
        }
        JdmException f = failure.get();
        if (f != null) {
            awaitTermination();
            throw f;
        }
        LOG.info("sync: task {} started from {} with {} writers (generation {}, server id {})", cfg.task(),
                startPosition, cfg.workerCount(), generation, cfg.serverId());
    }

    /** Reads the checkpoint table: decides where to read from and what counts as applied. */
    private AppliedFilter prepareCheckpoint() {
        try (Connection c = DataSources.connect(cfg.target())) {
            store.ensureTable(c);
            markers.ensureTable(c);
            batchBytes = batchBytes(c);
            CheckpointStore.Saved saved = store.load(c);
            pendingDdl = saved.isEmpty() ? null : markers.load(c);
            if (saved.isEmpty()) {
                markers.clear(c);
                if (cfg.start() == null) {
                    throw new FatalException("sync: task " + cfg.task() + " has no checkpoint in "
                            + store.table() + " and no start position; set meta (binlog-name/binlog-pos or "
                            + "binlog-gtid) in the task file, or run the full migration first (task-mode all)");
                }
                startPosition = cfg.start();
                generation = 1;
                oldestGeneration = 1;
                store.startGeneration(c, generation, cfg.workerCount(), marker(startPosition));
                return AppliedFilter.none();
            }
            ChangePos min = saved.generations().stream().map(g -> g.min()).filter(java.util.Objects::nonNull)
                    .min(ChangePos::compareTo).orElseThrow();
            startPosition = min.restartPoint();
            if (pendingDdl != null && pendingDdl.pos().isAfter(min)) {
                // every writer committed everything before it: reading earlier would decode those rows
                // with table definitions the DDL may have changed already
                startPosition = pendingDdl.pos().restartPoint();
                LOG.info("sync: the last run stopped while running the DDL at {}; resuming from it: {}",
                        pendingDdl.pos(), pendingDdl.statement());
            }
            if (cfg.start() != null) {
                LOG.info("sync: a checkpoint exists; resuming from it ({}) instead of meta ({})", startPosition,
                        cfg.start());
            }
            var latest = saved.latest();
            oldestGeneration = saved.generations().get(0).id();
            if (latest.workerCount() == cfg.workerCount()) {
                generation = latest.id();
            } else {
                generation = latest.id() + 1;
                LOG.info("sync: worker-count changed from {} to {}: the old writers' positions stay in use until "
                        + "every writer has passed them", latest.workerCount(), cfg.workerCount());
                store.startGeneration(c, generation, cfg.workerCount(), marker(startPosition));
            }
            AppliedFilter f = new AppliedFilter(saved.generations());
            oldGenerationsHorizon = saved.generations().stream().filter(g -> g.id() != generation)
                    .map(g -> g.max()).filter(java.util.Objects::nonNull).max(ChangePos::compareTo).orElse(null);
            return f;
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: cannot read the checkpoint " + store.table() + " on the target "
                    + cfg.target().address(), e);
        }
    }

    /**
     * What removes this source's progress of the task on the target, so that task-mode all dumps
     * afresh: the sync checkpoint, the load checkpoint and the task's stage row (names as the load
     * unit and the task runner keep them, beside this unit's table in the meta schema).
     */
    private String startOver() {
        String where = " WHERE source_id = " + Identifiers.literal(cfg.sourceId());
        String meta = Identifiers.quote(cfg.metaSchema()) + ".";
        return "on the target DELETE FROM " + store.table().quoted() + where + "; DELETE FROM "
                + markers.table().quoted() + where + "; DELETE FROM " + meta
                + Identifiers.quote(cfg.task() + "_loader_checkpoint") + where + "; DELETE FROM " + meta
                + Identifiers.quote(cfg.task() + "_stage") + where + "; remove the task's dump directory";
    }

    private static long batchBytes(Connection c) throws SQLException {
        try (var st = c.createStatement(); var rs = st.executeQuery("SELECT @@max_allowed_packet, VERSION()")) {
            return rs.next() ? batchBytes(rs.getLong(1), rs.getString(2)) : 4L << 20;
        }
    }

    /**
     * A quarter of the target's {@code max_allowed_packet}: a batch goes to the target as one packet,
     * and its SQL text may be twice the bytes of its row images (short binary values as hex). On
     * TiDB also at most a quarter of {@link #TIDB_TXN_LIMIT}: a batch is one transaction, which
     * TiDB holds in memory as key-value pairs, one per row plus one per secondary index entry, so
     * the same rows take more room there than in the SQL text.
     */
    static long batchBytes(long maxAllowedPacket, String version) {
        long bytes = Math.max(64L << 10, maxAllowedPacket / 4);
        return Flavor.fromVersion(version) == Flavor.TIDB ? Math.min(bytes, TIDB_TXN_LIMIT / 4) : bytes;
    }

    /** A writer position meaning "nothing at or after {@code p} applied". */
    private static ChangePos marker(BinlogPosition p) {
        return new ChangePos(p.file(), p.pos(), -1, -1, p.gtidSet());
    }

    private void buildRing(AppliedFilter applied) {
        NamedThreadFactory named = new NamedThreadFactory(cfg.task(), "sync", "ring");
        ThreadFactory quietOnHalt = r -> {
            Thread t = named.newThread(r);
            // a stage ends by throwing out of Halting, which has recorded the failure as one line already
            t.setUncaughtExceptionHandler((th, ex) -> LOG.debug("sync: {} halted", th.getName(), ex));
            return t;
        };
        disruptor = new Disruptor<>(RingSlot::new, cfg.queueSize(), quietOnHalt, ProducerType.SINGLE,
                new ParkingWaitStrategy(cfg.checkpointFlushInterval()));
        disruptor.setDefaultExceptionHandler(new Halting());
        ring = disruptor.getRingBuffer();
        WriterSettings ws = new WriterSettings(cfg.task(), cfg.target(), cfg.workerCount(), cfg.batch(),
                cfg.compact(), cfg.multipleRows(), generation, first -> cfg.safeMode()
                || System.nanoTime() < safeUntilNanos || cfg.safeBefore(first), cfg.retryBudget(), cfg.retryMaxBackoff(),
                cfg.checkpointFlushInterval(), () -> failure.get() != null, budget, batchBytes);
        DrainBarrier barrier = new DrainBarrier(cfg.workerCount(), () -> failure.get() != null);
        DdlApplier ddl = new DdlApplier(store, markers, pendingDdl, generation, cfg.workerCount(), counters.ddl::increment);
        @SuppressWarnings("unchecked")
        EventHandler<RingSlot>[] writers = new EventHandler[cfg.workerCount()];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = new Writer(i, ws, store, barrier, progress, counters, ddl, writersStopped);
        }
        disruptor.handleEventsWith(new Causality(cfg.workerCount(), progress, applied, counters)).then(writers)
                .then(new SlotCleaner());
    }

    /** Publishes into the ring; while it is full, waits, unless the unit is failing. */
    private final class RingSink implements ChangeSink {
        @Override
        public void row(RowChange change) {
            long bytes = ByteBudget.sizeOf(change);
            budget.acquire(bytes);
            long seq = claim();
            ring.get(seq).set(change, bytes);
            ring.publish(seq);
            counters.lastReadEventMillis.set(change.eventMillis());
        }

        @Override
        public void ddl(DdlChange ddl) {
            long seq = claim();
            ring.get(seq).set(ddl);
            ring.publish(seq);
        }

        @Override
        public void progress(ChangePos boundary) {
            long seq = claim();
            ring.get(seq).set(boundary);
            ring.publish(seq);
        }

        private long claim() {
            while (true) {
                try {
                    return ring.tryNext();
                } catch (InsufficientCapacityException e) {
                    if (failure.get() != null) {
                        throw new FatalException("sync: reader stopped: another stage failed");
                    }
                    LockSupport.parkNanos(100_000);
                }
            }
        }
    }

    /** Disruptor exception handler: record the failure and halt the stage. Nothing is skipped. */
    private final class Halting implements ExceptionHandler<RingSlot> {
        @Override
        public void handleEventException(Throwable ex, long sequence, RingSlot slot) {
            String where = slot == null || (slot.change == null && slot.ddl == null) ? "" : " at " + slot.pos();
            fail(ex instanceof JdmException j ? j : ErrorClassifier.wrap("sync: failed" + where, ex));
            throw new IllegalStateException("sync stage halted" + where, ex);
        }

        @Override
        public void handleOnStartException(Throwable ex) {
            fail(ErrorClassifier.wrap("sync: a stage did not start", ex));
        }

        @Override
        public void handleOnShutdownException(Throwable ex) {
            LOG.warn("sync: a stage did not shut down cleanly: {}", ErrorClassifier.oneLine(ex));
        }
    }

    /**
     * Stops the unit at once as failed with {@code reason}: the writers halt without committing what
     * they hold (it replays on the next start), for when this process may no longer write the task.
     */
    public void abort(JdmException reason) {
        fail(reason);
    }

    private void fail(JdmException e) {
        if (failure.compareAndSet(null, e)) {
            LOG.error("{}", e.getMessage());
            LOG.debug("sync failure", e);
            new NamedThreadFactory(cfg.task(), "sync", "stopper", true).newThread(this::haltAfterFailure).start();
        }
    }

    private void haltAfterFailure() {
        try {
            if (reader != null) {
                reader.stop();
            }
            if (disruptor != null) {
                disruptor.halt();
            }
            closeTimers();
        } finally {
            terminated.countDown();
        }
    }

    /** Stops reading, lets every writer commit what it has, flushes the global checkpoint. Bounded in time. */
    public void stop() {
        synchronized (this) {
            if (stopping || !started) {
                return;
            }
            stopping = true;
        }
        if (failure.get() != null) {
            awaitTermination();
            return;
        }
        try {
            reader.stop();
            reader.join(STOP_TIMEOUT);
            if (reader.isAlive()) {
                LOG.warn("sync: reader did not stop within {}s", STOP_TIMEOUT.toSeconds());
            }
            try {
                disruptor.shutdown(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                LOG.warn("sync: writers did not drain within {}s; halting them (uncommitted batches replay on "
                        + "the next start)", STOP_TIMEOUT.toSeconds());
                disruptor.halt();
            }
            if (!writersStopped.await(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("sync: writers did not store their positions within {}s; the next start reads from "
                        + "further back and skips what is applied", STOP_TIMEOUT.toSeconds());
            }
            if (failure.get() == null) {
                flushGlobalQuietly();
            }
            closeTimers();
            LOG.info("{}", metrics.summaryLine());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            disruptor.halt();
        } finally {
            terminated.countDown();
        }
    }

    private void closeTimers() {
        if (flusher != null) {
            flusher.shutdownNow();
        }
        if (holdTimer != null) {
            holdTimer.shutdownNow();
            try {
                holdTimer.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (holdWatcher != null) {
            holdWatcher.close();
        }
        if (progressLogger != null) {
            progressLogger.close();
        }
    }

    /**
     * Pauses the unit ({@code jdm pause-task}): the reader stops at the next transaction boundary, the
     * writers commit what they were handed, each with its position, and the global checkpoint is
     * stored. Returns once that is done, or false when the writers are still busy after
     * {@code timeout} (they go on committing) or the unit failed. {@link #stop()} works while paused.
     */
    public boolean pause(Duration timeout) throws InterruptedException {
        gate.pauseTask();
        LOG.info("sync: task {} pausing: the reader stops at the next transaction boundary", cfg.task());
        long deadline = System.nanoTime() + timeout.toNanos();
        while (failure.get() == null) {
            RingBuffer<RingSlot> r = ring;
            if (r == null || progress.minSequence() >= r.getCursor()) {
                flushGlobalQuietly();
                LOG.info("sync: task {} paused; everything read is committed, checkpoint {}", cfg.task(),
                        checkpoint());
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** Lets the reader go on from where {@link #pause} stopped it. */
    public void resume() {
        gate.resumeTask();
        LOG.info("sync: task {} resumed from {}", cfg.task(), checkpoint());
    }

    public boolean isPaused() {
        return gate.isTaskPaused();
    }

    /** Blocks until the unit has stopped (after {@link #stop()} or a failure). */
    public void awaitTermination() {
        try {
            terminated.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts and blocks until stopped or failed; throws the failure, if any. */
    public void run() {
        start();
        awaitTermination();
        failure().ifPresent(f -> {
            throw f;
        });
    }

    public SyncMetrics metrics() {
        return metrics;
    }

    public Optional<JdmException> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** The global checkpoint: restarting from here loses nothing (every change before it is applied). */
    public BinlogPosition checkpoint() {
        ChangePos p = progress.minPosition();
        if (p != null) {
            return p.restartPoint();
        }
        return globalSaved != null ? globalSaved.restartPoint() : startPosition;
    }

    /**
     * Waits until every change up to {@code sourcePos} (as {@code SHOW MASTER STATUS} gives it) is
     * committed on the target. False on timeout or when the unit failed.
     */
    public boolean awaitCaughtUp(BinlogPosition sourcePos, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long target = -2;
        while (System.nanoTime() < deadline && failure.get() == null) {
            if (target == -2) {
                BinlogPosition read = reader == null ? null : reader.lastEventEnd();
                if (read != null && read.compareTo(BinlogPosition.of(sourcePos.file(), sourcePos.pos())) >= 0) {
                    target = ring.getCursor();
                }
            }
            if (target != -2 && progress.minSequence() >= target) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** Called by the flush timer, a pause and the stop, so one at a time. */
    /**
     * True when the reader has read up to {@code sourcePos} and every change it handed on is
     * committed: caught up at this moment (DM's {@code synced}).
     */
    public boolean caughtUp(BinlogPosition sourcePos) {
        BinlogReader r = reader;
        RingBuffer<RingSlot> slots = ring;
        BinlogPosition read = r == null ? null : r.lastEventEnd();
        return read != null && slots != null
                && read.compareTo(BinlogPosition.of(sourcePos.file(), sourcePos.pos())) >= 0
                && progress.minSequence() >= slots.getCursor();
    }

    private void flushGlobalQuietly() {
        synchronized (flushLock) {
            flushGlobal();
        }
    }

    private void flushGlobal() {
        ChangePos global = progress.minPosition();
        if (global == null || !global.isAfter(globalSaved)) {
            return;
        }
        int keepFrom = oldGenerationsHorizon == null || global.isAfter(oldGenerationsHorizon) ? generation
                : oldestGeneration;
        try (Connection c = DataSources.connect(cfg.target())) {
            store.saveGlobal(c, global, cfg.workerCount(), keepFrom);
            globalSaved = global;
            if (keepFrom == generation) {
                oldGenerationsHorizon = null;
            }
        } catch (SQLException e) {
            LOG.warn("sync: could not write the global checkpoint {}: {}", global, ErrorClassifier.oneLine(e));
        }
    }
}
