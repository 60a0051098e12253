package io.jdm.cli.run;

import io.jdm.cli.daemon.StatusProvider;
import io.jdm.cli.daemon.StatusServer;
import io.jdm.cli.daemon.TaskOp;
import io.jdm.cli.daemon.TaskOpRefused;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.lease.LeaseWait;
import io.jdm.common.lease.TaskLease;
import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.metrics.ProcessMetrics;
import io.jdm.common.position.BinlogPosition;
import io.prometheus.metrics.model.snapshots.Labels;
import io.jdm.sync.SyncMetrics;
import io.jdm.sync.SyncUnit;
import io.jdm.sync.ring.StoppedStatement;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the stages of a task: each source's dump and load ({@link SourceStages}), then the sync
 * units, for the sources this process runs ({@link TaskConfig#runInstances}: all of them, or those
 * of {@code --source-id} when the task is run by one process per source); records each stage in
 * the target, and serves the daemon endpoints (status, metrics, pause, resume, stop) while it runs. See the package documentation for the stage machine.
 */
public final class TaskRunner implements StatusProvider, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("jdm");
    /** How long pause-task waits for the writers, or the load's workers, to commit what they hold. */
    private static final Duration PAUSE_TIMEOUT = Duration.ofSeconds(30);

    /** Which stages a command runs. */
    public enum Stages { FROM_TASK_MODE, SYNC_ONLY }

    private final TaskConfig task;
    private final Stages stages;
    private final StageStore store;
    /** {@code --start-time}, or null. */
    private java.time.Instant startTime;
    private final Map<String, SourceState> sources = new ConcurrentHashMap<>();
    private final List<SyncUnit> syncs = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Whether {@link #run()} began: until then a stop has nothing to wait for. */
    private volatile boolean ran;
    private volatile boolean stopping;
    /** Completes when {@link #stopping} turns true (see {@link #markStopping}): what the sync supervision waits on. */
    private final CompletableFuture<Void> stopRequested = new CompletableFuture<>();
    /** Completes with the first sync unit once the task has one. */
    private final CompletableFuture<SyncUnit> firstSync = new CompletableFuture<>();
    /** Paused by pause-task, until resume-task: the dump or load that runs ends, the sync units hold their readers. */
    private final PauseGate gate = new PauseGate();
    /** One pause or resume at a time, and no sync unit starts during one; not the runner's own lock. */
    private final Object pauseLock = new Object();
    /** Told of each source's dump and load as they start to run at once: lets tests watch the feed. */
    volatile Consumer<DumpLoadOverlap> onOverlap = o -> { };
    /** How far each source's dump may run ahead of its load: lets tests hold the dump to one file. */
    volatile long overlapAheadBytes = DumpLoadOverlap.MAX_AHEAD_BYTES;
    private volatile FatalException leaseLost;
    private final List<TaskLease> leases = new ArrayList<>();
    /** How long {@link #takeLeases} waits for a lease another live process holds; a stop ends the wait. */
    private final LeaseWait leaseWait;

    /** A runner that refuses, at once, a source whose lease another live process holds. */
    public TaskRunner(TaskConfig task, Stages stages) {
        this(task, stages, LeaseWait.refuse());
    }

    public TaskRunner(TaskConfig task, Stages stages, LeaseWait leaseWait) {
        this.task = task;
        this.stages = stages;
        this.leaseWait = leaseWait;
        this.store = new StageStore(task.targetDatabase().toConnectionSpec(), task.metaSchema(), task.name());
        for (MySqlInstance i : task.runInstances()) {
            sources.put(i.sourceId(), new SourceState(i.sourceId()));
        }
    }

    /**
     * Runs a task as a command does: with the daemon endpoint and signal handling. Returns the exit
     * code. The signal handler comes first, so that a signal also ends a wait for a lease.
     */
    public static int runStages(TaskConfig task, Stages stages, LeaseWait leaseWait,
                                BiConsumer<String, Runnable> onSignal) throws IOException {
        return runStages(task, stages, leaseWait, StartOptions.NONE, onSignal);
    }

    /**
     * How dmctl start-task's flags start a task.
     *
     * @param removeMeta {@code --remove-meta}: the task's meta tables are dropped once the leases are held
     * @param startTime {@code --start-time}: every source's sync starts at the first transaction at or
     *                  after it (null: from its checkpoint, else meta)
     */
    public record StartOptions(boolean removeMeta, java.time.Instant startTime) {
        public static final StartOptions NONE = new StartOptions(false, null);
    }

    public static int runStages(TaskConfig task, Stages stages, LeaseWait leaseWait, StartOptions options,
                                BiConsumer<String, Runnable> onSignal) throws IOException {
        boolean removeMeta = options.removeMeta();
        if (options.startTime() != null && stages != Stages.SYNC_ONLY && task.taskMode().dumpsOrLoads()) {
            throw new FatalException("--start-time: task " + task.name() + " has task-mode "
                    + task.taskMode().yamlName() + "; a start time is for a sync: use task-mode incremental or jdm "
                    + "sync");
        }
        TaskRunner runner = new TaskRunner(task, stages, leaseWait);
        runner.startTime = options.startTime();
        onSignal.accept(task.name(), runner::requestStop);
        try {
            runner.takeLeases(); // a second process on the task says who owns it, before anything else
        } catch (LeaseWait.Stopped e) {
            return 0; // stopped before anything ran, as a stop of a running task ends
        }
        if (removeMeta) {
            try {
                MetaRemover.remove(task, stages != Stages.SYNC_ONLY && task.taskMode().loads());
            } catch (RuntimeException e) {
                runner.close();
                throw e;
            }
        }
        try (runner) {
            return serve(runner);
        }
    }

    private static int serve(TaskRunner runner) throws IOException {
        TaskConfig task = runner.task;
        try (StatusServer server = StatusServer.start(task.name(), task.status(), runner)) {
            runner.run();
            return 0;
        }
    }

    /** Runs every stage; returns when the task is done, or when stopped; throws the first failure. */
    public void run() {
        ran = true;
        try (ProcessMetrics.Registration metrics = ProcessMetrics.register(this::collect)) {
            try {
                takeLeases();
            } catch (LeaseWait.Stopped e) {
                return;
            }
            runStages();
        } finally {
            releaseLeases(); // given back before a waiting stop() lets the process exit
            stopped.countDown();
        }
        if (leaseLost != null) {
            throw leaseLost;
        }
    }

    /**
     * Takes the lease of every source this process runs ({@link TaskConfig#runInstances}, once),
     * waiting for another live process's as the runner's {@link LeaseWait} allows, or throws the one
     * line naming the process that runs it; {@link LeaseWait.Stopped} when a stop ended the wait (the
     * leases taken so far are given back). {@link #run()} does it first; a command calls it before
     * anything else starts.
     */
    public void takeLeases() {
        synchronized (leases) {
            if (!leases.isEmpty()) {
                return;
            }
            try {
                for (MySqlInstance i : task.runInstances()) {
                    leases.add(acquireLease(task, i, leaseWait));
                }
            } catch (LeaseWait.Stopped e) {
                releaseLeases();
                LOG.info("task {}: stopped while waiting for a source's lease; nothing was run", task.name());
                throw e;
            } catch (RuntimeException e) {
                releaseLeases();
                throw e;
            }
            leases.forEach(l -> l.keepRenewing(this::leaseLost));
        }
    }

    /**
     * Takes the lease of one source of the task, before anything of it is read or written, waiting for
     * another live process's as {@code wait} allows.
     */
    public static TaskLease acquireLease(TaskConfig task, MySqlInstance i, LeaseWait wait) {
        return TaskLease.acquire(task.targetDatabase().toConnectionSpec(), task.metaSchema(), task.name(),
                i.sourceId(), TaskLease.Timing.fromSystemProperties(), wait);
    }

    private void releaseLeases() {
        synchronized (leases) {
            leases.forEach(TaskLease::close);
            leases.clear();
        }
    }

    /** Another process may own the task now: stop every unit without applying more. */
    private void leaseLost(String message) {
        FatalException reason = new FatalException(message);
        synchronized (this) {
            if (leaseLost != null) {
                return;
            }
            leaseLost = reason;
        }
        LOG.error("{}", message);
        markStopping();
        synchronized (syncs) {
            syncs.forEach(u -> u.abort(reason));
        }
        gate.close();
    }

    private void runStages() {
        try {
            store.init();
            // under the lock a resume-task also takes to record itself: one that came as this process
            // started either cleared the recorded pause before it is read here, or finds the gate paused
            synchronized (pauseLock) {
                if (store.anyPaused(runIds())) {
                    gate.pause(PAUSE_TIMEOUT); // nothing runs yet: returns at once
                    LOG.info("task {}: paused by pause-task before this process started; resume-task goes on, "
                            + "stop-task stops", task.name());
                }
            }
            boolean syncing = stages == Stages.SYNC_ONLY || task.taskMode().syncs();
            SourceStages full = new SourceStages(task, store, gate, () -> stopping, o -> onOverlap.accept(o),
                    overlapAheadBytes);
            Map<String, BinlogPosition> syncStarts = new LinkedHashMap<>();
            for (MySqlInstance i : task.runInstances()) {
                BinlogPosition start = stages == Stages.SYNC_ONLY || !task.taskMode().dumpsOrLoads()
                        ? null : full.run(i, sources.get(i.sourceId()));
                if (stopping) {
                    return;
                }
                syncStarts.put(i.sourceId(), start);
            }
            if (syncing) {
                runSyncs(syncStarts);
            }
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("task " + task.name() + ": cannot read or write the stage table in "
                    + task.metaSchema(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            markStopping();
        }
    }

    /** The task stops from here on: nothing new starts, and whoever waits for a stop is woken. */
    private void markStopping() {
        stopping = true;
        stopRequested.complete(null);
    }

    /** Waits while paused; {@link PauseGate#CLOSED} once stopping. */
    private long awaitResumed() {
        try {
            return gate.awaitResumed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            markStopping();
            return PauseGate.CLOSED;
        }
    }

    /** Starts every sync unit, once not paused, and watches them. */
    private void runSyncs(Map<String, BinlogPosition> starts) {
        while (true) {
            if (awaitResumed() == PauseGate.CLOSED) {
                return;
            }
            synchronized (pauseLock) { // a pause now would miss the units started after it looked
                if (!gate.paused()) {
                    if (!startSyncs(starts)) {
                        return;
                    }
                    break;
                }
            }
        }
        awaitSyncs();
    }

    /** False when the task began to stop meanwhile. */
    private boolean startSyncs(Map<String, BinlogPosition> starts) {
        for (MySqlInstance i : task.runInstances()) {
            SyncUnit sync = new SyncUnit(startTime != null ? StartTime.sync(task, i, startTime)
                    : UnitConfigs.sync(task, i, starts.get(i.sourceId())));
            SourceState s = sources.get(i.sourceId());
            s.running("sync", sync.metrics());
            s.sync = sync;
            s.enter("sync");
            synchronized (syncs) {
                if (stopping) {
                    return false;
                }
                syncs.add(sync);
                firstSync.complete(syncs.get(0));
            }
            sync.start();
            try {
                store.stoppedAt(i.sourceId(), null); // the statement it stopped at last time is behind it now
            } catch (SQLException e) {
                LOG.debug("source {}: cannot clear the statement the sync stopped at: {}", i.sourceId(),
                        e.getMessage());
            }
        }
        return true;
    }

    /** Keeps the statement a failed sync stopped at for query-status after the process has exited. */
    private void keepStoppedAt(SourceState s) {
        StoppedStatement at = s.sync.stoppedAt();
        if (at == null) {
            return;
        }
        try {
            store.stoppedAt(s.sourceId, new StoppedStatement(at.binlogPos(), at.binlogGtid(), at.statement(),
                    at.error(), at.errorCode(), false));
        } catch (SQLException e) {
            LOG.warn("source {}: cannot keep the statement the sync stopped at in the stage table: {}", s.sourceId,
                    ErrorClassifier.oneLine(e));
        }
    }

    /** Sync units end only when stopped or failed: wait for either, woken by the first to happen. */
    private void awaitSyncs() {
        List<CompletableFuture<?>> ends = new ArrayList<>();
        syncUnits().forEach(u -> ends.add(u.failed()));
        ends.add(stopRequested);
        CompletableFuture<Object> any = CompletableFuture.anyOf(ends.toArray(CompletableFuture[]::new));
        while (true) {
            for (SourceState failed : sources.values()) {
                Optional<JdmException> f = failed.sync == null ? Optional.empty() : failed.sync.failure();
                if (f.isPresent()) {
                    keepStoppedAt(failed);
                    failed.exited("syncer", f.get());
                    sources.values().forEach(s -> s.failure = f.get());
                    new Thread(this::requestStop, task.name() + "-stop").start();
                    syncs.forEach(SyncUnit::awaitTermination);
                    throw f.get();
                }
            }
            if (stopping) {
                syncs.forEach(SyncUnit::awaitTermination);
                return;
            }
            try {
                any.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                markStopping();
                syncs.forEach(SyncUnit::stop);
            } catch (ExecutionException e) {
                throw new IllegalStateException("a failure or a stop request never completes exceptionally", e);
            }
        }
    }

    /** Stops whatever runs (drain, flush checkpoints) and waits a bounded time for it. */
    public void requestStop() {
        leaseWait.stop();
        if (stopping || stopped.getCount() == 0) {
            return;
        }
        markStopping();
        LOG.info("task {}: stopping", task.name());
        gate.close();
        synchronized (syncs) {
            syncs.forEach(SyncUnit::stop);
        }
        try {
            if (!stopped.await(60, TimeUnit.SECONDS)) {
                LOG.warn("task {}: did not stop within 60s", task.name());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Completes with the first sync unit once the task has one (it may still be starting); never if it ends before. */
    public CompletableFuture<SyncUnit> firstSyncUnit() {
        return firstSync.copy();
    }

    /** The sync units once streaming (for the demo and tests: lag, caught-up waits). */
    public List<SyncUnit> syncUnits() {
        synchronized (syncs) {
            return List.copyOf(syncs);
        }
    }

    @Override
    public TaskConfig task() {
        return task;
    }

    @Override
    public Map<String, Object> status() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (MySqlInstance i : task.runInstances()) {
            SourceState s = sources.get(i.sourceId());
            BinlogPosition master = "sync".equals(s.unitName) ? s.master(i) : null;
            list.add(DmResponses.source(ProcessMetrics.worker(), task.name(), dmStage(s), s, master));
        }
        return DmResponses.response(list);
    }

    @Override
    public Map<String, Object> operate(TaskOp op) {
        switch (op) {
            case PAUSE -> pause();
            case RESUME -> resume();
            case STOP -> remember(false); // stop-task ends the task: the next start is a new one, not a paused one
        }
        return DmResponses.operated(op, ProcessMetrics.worker(),
                task.runInstances().stream().map(MySqlInstance::sourceId).toList());
    }

    /** A stop starts once its answer is sent: it closes the status endpoint as the process ends. */
    @Override
    public void afterOperate(TaskOp op) {
        if (op == TaskOp.STOP && stopped.getCount() > 0 && !stopping) {
            new Thread(this::requestStop, task.name() + "-stop").start();
        }
    }

    /**
     * Pauses the task as DM does, in whatever unit each source is: a dump ends (resume-task dumps
     * again), a load's workers end after their current statement, its checkpoint committed (resume
     * goes on from it), and a sync unit's reader stops at a transaction boundary once its writers
     * have committed what they were handed (resume goes on from there). Returns once they have.
     */
    private void pause() {
        synchronized (pauseLock) {
            refuseWhenStopping("pause");
            try {
                if (!gate.pause(PAUSE_TIMEOUT)) {
                    LOG.warn("task {}: the dump or load is still ending its current statement after {}s; it stops "
                            + "after that", task.name(), PAUSE_TIMEOUT.toSeconds());
                }
                for (SyncUnit u : syncUnits()) {
                    if (!u.pause(PAUSE_TIMEOUT)) {
                        LOG.warn("task {}: the writers are still committing after {}s; they go on while paused",
                                task.name(), PAUSE_TIMEOUT.toSeconds());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            remember(true);
        }
        LOG.info("task {}: paused; resume-task goes on from here, stop-task stops", task.name());
    }

    private void resume() {
        synchronized (pauseLock) {
            refuseWhenStopping("resume");
            gate.resume();
            syncUnits().forEach(SyncUnit::resume);
            remember(false);
        }
        LOG.info("task {}: resumed", task.name());
    }

    /** Keeps a pause in the stage table, so a process started before resume-task starts paused. */
    private void remember(boolean paused) {
        try {
            store.paused(runIds(), paused);
        } catch (SQLException e) {
            LOG.warn("task {}: could not record the {} in the stage table ({}); a restart {}", task.name(),
                    paused ? "pause" : "resume", e.getMessage(), paused ? "runs on" : "may start paused");
        }
    }

    private List<String> runIds() {
        return task.runInstances().stream().map(MySqlInstance::sourceId).toList();
    }

    private void refuseWhenStopping(String what) {
        if (stopping || stopped.getCount() == 0) {
            throw new TaskOpRefused(what + "-task: task " + task.name() + " is stopping");
        }
    }

    @Override
    public String metrics() {
        return ProcessMetrics.scrape();
    }

    /** The source's stage as DM names it. */
    private DmStage dmStage(SourceState s) {
        if (s.failure != null) {
            return DmStage.PAUSED; // DM pauses a subtask that failed
        }
        if ("done".equals(s.stage)) {
            return DmStage.FINISHED;
        }
        if (stopped.getCount() == 0 || stopping) {
            return stopped.getCount() == 0 ? DmStage.STOPPED : DmStage.STOPPING;
        }
        if (gate.paused()) {
            return DmStage.PAUSED;
        }
        return "pending".equals(s.stage) ? DmStage.NEW : DmStage.RUNNING;
    }

    /**
     * The task's series: every source's stage, the series of the units it ran (see
     * {@link SourceState#running}), exits with error, the master position and binary logs.
     */
    private void collect(MetricFamilies f) {
        List<String> dmUnits = dmUnits();
        for (MySqlInstance i : task.runInstances()) {
            SourceState s = sources.get(i.sourceId());
            Labels l = ProcessMetrics.unitLabels(task.name(), i.sourceId());
            f.gauge("dm_worker_task_state", "state of task, 0 - invalidStage, 1 - New, 2 - Running, 3 - Paused, "
                    + "4 - Stopped, 5 - Finished, 8 - Stopping", l.add("worker", ProcessMetrics.worker()), dmStage(s).number);
            s.exitSeries(f, l, dmUnits);
            SyncUnit sync = s.sync;
            if (sync != null && "sync".equals(s.unitName)) {
                SyncMetrics.binlogPosition(f, "master", l, s.master(i));
                sync.metrics().sourceLogs(s.logs);
            }
            s.series().forEach(unit -> unit.collect(f));
        }
    }

    /** DM's names of the units this process runs for each source: mydumper, loader, syncer. */
    private List<String> dmUnits() {
        if (stages == Stages.SYNC_ONLY) {
            return List.of("syncer");
        }
        List<String> units = new ArrayList<>();
        if (task.taskMode().dumps()) {
            units.add("mydumper");
        }
        if (task.taskMode().loads()) {
            units.add("loader");
        }
        if (task.taskMode().syncs()) {
            units.add("syncer");
        }
        return units;
    }

    @Override
    public void close() {
        if (!ran) {
            markStopping(); // nothing ran (the status endpoint could not start, say): nothing to wait for
        } else {
            requestStop();
        }
        releaseLeases();
    }
}
