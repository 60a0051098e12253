package io.jdm.sync;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.hold.SyncHoldTable;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.metrics.ProgressLogger;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.checkpoint.AppliedFilter;
import io.jdm.sync.checkpoint.OnlineDdlStore;
import io.jdm.sync.operator.BinlogOperator;
import io.jdm.sync.operator.OperatorStore;
import io.jdm.sync.operator.Operators;
import io.jdm.sync.reader.BinlogReader;
import io.jdm.sync.shard.ShardCoordinator;
import io.jdm.sync.reader.ReadGate;
import io.jdm.sync.ring.PipelineCounters;
import io.jdm.sync.ring.StoppedAt;
import io.jdm.sync.ring.StoppedStatement;
import io.jdm.sync.ring.WriterProgress;
import io.jdm.sync.validator.Validator;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replicates row changes from the source's binlog to the target: reader → ring → causality →
 * worker-count writers (see the package documentation for the picture and the position scheme).
 * {@link #start()} returns once the binlog streams; {@link #stop()} stops reading, lets the writers
 * drain and commit, and flushes the global checkpoint. The first failure of any stage stops the
 * whole unit and is kept in {@link #failure()}.
 *
 * <p>This class runs the unit's life (start, pause, resume, stop, halt on failure); the ring and
 * its stages are {@link RingPipeline}, the checkpoint table and the global checkpoint
 * {@link GlobalCheckpoint}, the caught-up waits {@link CatchUp}, safe mode {@link SafeMode}.
 */
public final class SyncUnit {
    private static final Logger LOG = LoggerFactory.getLogger(SyncUnit.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration HOLD_POLL = Duration.ofMillis(100);
    /** How often a running sync reads the binlog operators again ({@code jdm binlog} writes them on the target). */
    private static final Duration OPERATOR_POLL = Duration.ofSeconds(2);

    private final SyncConfig cfg;
    private final PipelineCounters counters = new PipelineCounters();
    private final WriterProgress progress;
    private final Termination end = new Termination();
    private final GlobalCheckpoint checkpoint;
    private final RingPipeline pipeline;
    private final CatchUp catchUp;
    private final SafeMode safeMode;
    private final SyncMetrics metrics;
    private final ReadGate gate = new ReadGate();
    private final StoppedAt stoppedAt = new StoppedAt();
    private volatile boolean stopping;
    private volatile boolean started;
    /** Set by {@link #abort}: another process may own the task, so nothing more is written. */
    private volatile boolean disowned;
    /** Set by {@link #failReading}: the failure is the reader's, what it handed on is applied first. */
    private volatile boolean drainOnFailure;
    /** The furthest any writer of an earlier run got (see {@link ShardCoordinator#drainAfter}); null on a first start. */
    private io.jdm.sync.ring.ChangePos appliedHorizon;
    private volatile BinlogReader reader;
    /** The online DDL statements recorded for a cut-over, read at start; null with online-ddl off. */
    private OnlineDdlStore onlineDdl;
    /** The source's binlog operators, read at start and again every {@link #OPERATOR_POLL}. */
    private volatile Operators operators;
    /** shard-mode pessimistic: this source's part in the group DDL locks; null without it. */
    private volatile ShardCoordinator shards;
    private ScheduledExecutorService holdTimer;
    private HoldWatcher holdWatcher;
    private ProgressLogger progressLogger;
    /** Compares the rows the writers commit with the target, when validation runs (see io.jdm.sync.validator). */
    private final Validator validator;

    public SyncUnit(SyncConfig cfg) {
        this.cfg = cfg;
        this.validator = new Validator(cfg.task(), cfg.sourceId(), cfg.target(), cfg.metaSchema(), cfg.validator(),
                this::checkpoint);
        this.progress = new WriterProgress(cfg.syncer().workerCount());
        this.checkpoint = new GlobalCheckpoint(cfg, progress, counters.checkpointFlushIntervals);
        this.pipeline = new RingPipeline(cfg, counters, progress, end::hasFailed, () -> disowned, this::fail,
                stoppedAt);
        this.catchUp = new CatchUp(this::readPosition, pipeline::cursor, progress, end::hasFailed);
        this.safeMode = new SafeMode(cfg);
        this.metrics = new SyncMetrics(cfg.task(), cfg.sourceId(), counters, progress, pipeline::cursor,
                this::checkpoint, this::readPosition, () -> reader == null ? 0 : reader.reconnects(),
                gate::isClosed, this::unresolvedShardGroups, validator);
    }

    /** Resolves the start point, starts every stage and returns once the binlog is streaming. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("sync unit already started");
        }
        started = true;
        try {
            prepare();
            if (!cfg.shardSources().isEmpty()) {
                shards = new ShardCoordinator(cfg.target(), cfg.metaSchema(), cfg.task(), cfg.sourceId(),
                        cfg.shardSources(), cfg.shardOptimistic(), cfg.extraColumns());
                shards.start(cfg.source(), cfg.tableFilter(), cfg.router());
                shards.drainAfter(appliedHorizon);
            }
            reader = new BinlogReader(new BinlogReader.Settings(cfg.task(), cfg.source(), cfg.serverId(),
                    cfg.syncer().enableGtid(), heartbeat(), cfg.retryBudget(), cfg.retryMaxBackoff(),
                    cfg.tableFilter(), cfg.router(), cfg.target(),
                    BinlogReader.scratchSchema(cfg.metaSchema(), cfg.task(), cfg.sourceId()), cfg.eventFilter(),
                    cfg.onlineDdl(), checkpoint.startOver(), shards, operators, onlineDdl, cfg.extraColumns(),
                    cfg.rowFilter()),
                    checkpoint.startPosition(), pipeline.sink(), this::failReading, gate);
            reader.countEventBytes(counters::binlogEvent);
            holdWatcher = new HoldWatcher(cfg.target(), SyncHoldTable.of(cfg.metaSchema(), cfg.task()), cfg.task(),
                    cfg.sourceId(), gate, reader::lastEventEnd, pipeline::cursor, progress::minSequence);
            holdWatcher.ensureTable();
            startValidator();
            boolean exact = checkpoint.resumed() || cfg.startExact();
            if (safeMode.started(exact)) {
                LOG.info("sync: safe mode for the first {} (safe-mode-duration): the start position {} comes from "
                        + "meta or a dump without a consistent snapshot", cfg.syncer().safeModeDuration(), cfg.start());
            }
            if (cfg.safeModeUntil() != null) {
                LOG.info("sync: safe mode until the stream passes {}, where the lock-free dump's last chunk was read",
                        cfg.safeModeUntil());
            }
            pipeline.start();
            reader.start(Duration.ofSeconds(Math.max(30, cfg.source().connectTimeoutSeconds() * 2L)));
            checkpoint.startFlushing();
            holdTimer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(cfg.task(), "sync", "hold",
                    true));
            holdTimer.scheduleWithFixedDelay(holdWatcher, 0, HOLD_POLL.toMillis(), TimeUnit.MILLISECONDS);
            holdTimer.scheduleWithFixedDelay(this::refreshOperators, OPERATOR_POLL.toMillis(),
                    OPERATOR_POLL.toMillis(), TimeUnit.MILLISECONDS);
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
        Optional<JdmException> f = end.failure();
        if (f.isPresent()) {
            awaitTermination();
            throw f.get();
        }
        LOG.info("sync: task {} started from {} with {} writers (generation {}, server id {})", cfg.task(),
                checkpoint.startPosition(), cfg.syncer().workerCount(), checkpoint.generation(), cfg.serverId());
    }

    /** Takes the binlog operators written since the start; a failure to read them is retried at the next poll. */
    private void refreshOperators() {
        try (Connection c = DataSources.connect(cfg.target())) {
            operators.refresh(c, cfg.sourceId());
        } catch (SQLException | RuntimeException e) {
            LOG.debug("sync: could not read the binlog operators again: {}", e.getMessage());
        }
    }

    /**
     * The binlog heartbeat: the task's, but at most a second in a shard mode, where a quiet stream's
     * heartbeats are the transaction boundaries at which waiting shards' spools are drained.
     */
    private Duration heartbeat() {
        Duration h = cfg.syncer().heartbeatInterval();
        return shards != null && h.compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : h;
    }

    /**
     * Reads the target's limits and the checkpoint table (where to read from, what counts as
     * applied) and wires the ring with them.
     */
    private void prepare() {
        try (Connection c = DataSources.connect(cfg.target())) {
            long batchBytes = BatchBytes.of(c);
            AppliedFilter applied = checkpoint.prepare(c);
            appliedHorizon = applied.horizon();
            pipeline.build(applied, checkpoint, batchBytes, safeMode, WriterSqlMode.writerTarget(cfg, c), validator);
            operators = Operators.load(c, new OperatorStore(cfg.operatorTable()), cfg.sourceId());
            onlineDdl = cfg.onlineDdl().enabled() ? OnlineDdlStore.open(c, cfg.onlineDdlTable(), cfg.sourceId())
                    : null;
            for (BinlogOperator o : operators.waiting()) {
                LOG.info("sync: task {} source {}: binlog {} waits at {}", cfg.task(), cfg.sourceId(),
                        o.kind().word(), o.position());
            }
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: cannot read the checkpoint " + checkpoint.store().table()
                    + " on the target " + cfg.target().address(), e);
        }
    }

    private BinlogPosition readPosition() {
        BinlogReader r = reader;
        return r == null ? null : r.lastEventEnd();
    }

    /**
     * Stops the unit at once as failed with {@code reason}: the writers halt without committing what
     * they hold (it replays on the next start), for when this process may no longer write the task.
     * After any other failure a halting writer still commits the batch it holds, with its position.
     */
    public void abort(JdmException reason) {
        disowned = true;
        fail(reason);
    }

    private void fail(JdmException e) {
        if (end.fail(e)) {
            LOG.error("{}", e.getMessage());
            LOG.debug("sync failure", e);
            progress.wakeWaiters();
            new NamedThreadFactory(cfg.task(), "sync", "stopper", true).newThread(this::haltAfterFailure).start();
        }
    }

    /**
     * The reader stopped at a change it cannot hand on (a statement-logged row change, a DDL no
     * grammar reads, a purged binlog…): what it handed on before is the source's and is applied
     * before the unit stops, so the checkpoint ends right before that change, not wherever the
     * writers happened to be.
     */
    private void failReading(JdmException e) {
        BinlogReader r = reader;
        StoppedStatement at = r == null ? null : r.stoppedAt();
        if (at != null) {
            stoppedAt.stopped(at);
        }
        drainOnFailure = true;
        fail(e);
    }

    private void haltAfterFailure() {
        try {
            if (reader != null) {
                reader.stop();
            }
            if (drainOnFailure && !disowned) {
                try {
                    pipeline.drain(STOP_TIMEOUT);
                    checkpoint.flush();
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    pipeline.halt();
                }
            } else {
                pipeline.halt();
            }
            closeTimers();
        } finally {
            end.terminated();
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
        if (end.hasFailed()) {
            awaitTermination();
            return;
        }
        try {
            reader.stop();
            reader.join(STOP_TIMEOUT);
            if (reader.isAlive()) {
                LOG.warn("sync: reader did not stop within {}s", STOP_TIMEOUT.toSeconds());
            }
            pipeline.drain(STOP_TIMEOUT);
            if (!end.hasFailed()) {
                checkpoint.flush();
            }
            closeTimers();
            LOG.info("{}", metrics.summaryLine());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pipeline.halt();
        } finally {
            end.terminated();
        }
    }

    private void startValidator() {
        try {
            validator.start();
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: cannot read the validator's state of task " + cfg.task()
                    + " on the target " + cfg.target().address(), e);
        }
    }

    private void closeTimers() {
        checkpoint.stopFlushing();
        validator.close();
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
        if (shards != null) {
            shards.close();
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
        if (!catchUp.awaitPublishedCommitted(timeout)) {
            return false;
        }
        checkpoint.flush();
        LOG.info("sync: task {} paused; everything read is committed, checkpoint {}", cfg.task(), checkpoint());
        return true;
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
        end.await();
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
        return end.failure();
    }

    /** Completes with the unit's first failure, once there is one; never when it stops cleanly. */
    public CompletableFuture<JdmException> failed() {
        return end.failedFuture();
    }

    /** Completes once the unit has stopped, after {@link #stop()} or a failure. */
    public CompletableFuture<Void> terminated() {
        return end.terminatedFuture();
    }

    /** The global checkpoint: restarting from here loses nothing (every change before it is applied). */
    public BinlogPosition checkpoint() {
        return checkpoint.current();
    }

    /**
     * Waits until every change up to {@code sourcePos} (as {@code SHOW MASTER STATUS} gives it) is
     * committed on the target. False on timeout or when the unit failed.
     */
    public boolean awaitCaughtUp(BinlogPosition sourcePos, Duration timeout) throws InterruptedException {
        return catchUp.await(sourcePos, timeout);
    }

    /**
     * The statement the sync stands at: the one it stopped at (refused by the target, or one the
     * reader cannot replay), else the earliest one a writer is retrying; null when none.
     */
    /** The continuous validator's status in DM's shape, null when validation never ran for this source. */
    public java.util.Map<String, Object> validationStatus() {
        return validator.status();
    }

    public StoppedStatement stoppedAt() {
        return stoppedAt.current();
    }

    /** The source's binlog operators, waiting and applied, as read from the target at most 2 s ago. */
    public List<BinlogOperator> operators() {
        Operators o = operators;
        return o == null ? List.of() : o.all();
    }

    /** Shard modes: the group DDLs this source's shards wait on (DM's unresolvedGroups); empty otherwise. */
    public List<ShardCoordinator.Group> unresolvedShardGroups() {
        ShardCoordinator s = shards;
        return s == null ? List.of() : s.unresolved();
    }

    /**
     * True when the reader has read up to {@code sourcePos} and every change it handed on is
     * committed: caught up at this moment (DM's {@code synced}).
     */
    public boolean caughtUp(BinlogPosition sourcePos) {
        return catchUp.caughtUp(sourcePos);
    }
}
