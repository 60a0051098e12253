package io.jdm.sync;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.causality.Causality;
import io.jdm.sync.checkpoint.AppliedFilter;
import io.jdm.sync.reader.ChangeSink;
import io.jdm.sync.ring.ByteBudget;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.ParkingWaitStrategy;
import io.jdm.sync.ring.PipelineCounters;
import io.jdm.sync.ring.RingSlot;
import io.jdm.sync.ring.RowChange;
import io.jdm.sync.ring.SlotCleaner;
import io.jdm.sync.ring.StoppedAt;
import io.jdm.sync.ring.WriterProgress;
import io.jdm.sync.writer.DdlApplier;
import io.jdm.sync.writer.DrainBarrier;
import io.jdm.sync.writer.Writer;
import io.jdm.sync.writer.WriterSettings;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ring and the stages behind it: causality, worker-count writers and the slot cleaner on a
 * Disruptor with a halting exception handler, and the sink the reader publishes into. Knows
 * nothing of the binlog or the checkpoint table beyond what it hands the writers.
 */
final class RingPipeline {
    private static final Logger LOG = LoggerFactory.getLogger(RingPipeline.class);

    private final SyncConfig cfg;
    private final PipelineCounters counters;
    private final WriterProgress progress;
    private final BooleanSupplier failed;
    private final BooleanSupplier disowned;
    private final Consumer<JdmException> fail;
    private final ByteBudget budget;
    private final StoppedAt stoppedAt;
    private final CountDownLatch writersStopped;
    private Disruptor<RingSlot> disruptor;
    private volatile RingBuffer<RingSlot> ring;

    /**
     * @param failed true once the unit failed: a full ring, a retry or a drain stop waiting
     * @param disowned true once another process may own the task: halting writers commit nothing more
     * @param fail records a stage's failure as the unit's (the first wins)
     * @param stoppedAt where the writers tell which statement they retry or the target refused
     */
    RingPipeline(SyncConfig cfg, PipelineCounters counters, WriterProgress progress, BooleanSupplier failed,
                 BooleanSupplier disowned, Consumer<JdmException> fail, StoppedAt stoppedAt) {
        this.cfg = cfg;
        this.counters = counters;
        this.progress = progress;
        this.failed = failed;
        this.disowned = disowned;
        this.fail = fail;
        this.stoppedAt = stoppedAt;
        this.budget = new ByteBudget(Long.getLong("jdm.sync.ring-bytes", ByteBudget.defaultLimit()), failed);
        this.writersStopped = new CountDownLatch(cfg.syncer().workerCount());
    }

    /** Wires the stages; they run from {@link #start()}. */
    void build(AppliedFilter applied, GlobalCheckpoint checkpoint, long batchBytes, Predicate<ChangePos> safeMode,
               io.jdm.common.jdbc.ConnectionSpec writerTarget, io.jdm.sync.ring.CommitListener committed) {
        NamedThreadFactory named = new NamedThreadFactory(cfg.task(), "sync", "ring");
        ThreadFactory quietOnHalt = r -> {
            Thread t = named.newThread(r);
            // a stage ends by throwing out of Halting, which has recorded the failure as one line already
            t.setUncaughtExceptionHandler((th, ex) -> LOG.debug("sync: {} halted", th.getName(), ex));
            return t;
        };
        disruptor = new Disruptor<>(RingSlot::new, cfg.syncer().queueSize(), quietOnHalt, ProducerType.SINGLE,
                new ParkingWaitStrategy(cfg.syncer().checkpointFlushInterval()));
        disruptor.setDefaultExceptionHandler(new Halting());
        ring = disruptor.getRingBuffer();
        WriterSettings ws = new WriterSettings(cfg.task(), writerTarget, cfg.syncer(), checkpoint.generation(),
                safeMode, cfg.retryBudget(), cfg.retryMaxBackoff(), failed, disowned, budget, batchBytes, stoppedAt,
                committed);
        DrainBarrier barrier = new DrainBarrier(cfg.syncer().workerCount(), failed);
        DdlApplier ddl = new DdlApplier(checkpoint.store(), checkpoint.markers(), checkpoint.pendingDdl(),
                checkpoint.generation(), cfg.syncer().workerCount(), counters.ddl::increment);
        @SuppressWarnings("unchecked")
        EventHandler<RingSlot>[] writers = new EventHandler[cfg.syncer().workerCount()];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = new Writer(i, ws, checkpoint.store(), barrier, progress, counters, ddl, writersStopped);
        }
        disruptor.handleEventsWith(new Causality(cfg.syncer().workerCount(), progress, applied, counters)).then(writers)
                .then(new SlotCleaner());
    }

    void start() {
        disruptor.start();
    }

    /** What the reader publishes into. */
    ChangeSink sink() {
        return new RingSink();
    }

    /** The sequence of the last slot published; -1 before the first (and before {@link #build}). */
    long cursor() {
        RingBuffer<RingSlot> r = ring;
        return r == null ? -1 : r.getCursor();
    }

    /**
     * Lets the stages take every slot published and stop, each writer committing what it holds and
     * storing its position; halts them when that takes longer than {@code timeout}. Call once the
     * reader has stopped.
     */
    void drain(Duration timeout) throws InterruptedException {
        try {
            disruptor.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("sync: writers did not drain within {}s; halting them (uncommitted batches replay on "
                    + "the next start)", timeout.toSeconds());
            disruptor.halt();
        }
        if (!writersStopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            LOG.warn("sync: writers did not store their positions within {}s; the next start reads from "
                    + "further back and skips what is applied", timeout.toSeconds());
        }
    }

    /** Stops every stage at once; what the writers hold is not committed (it replays on the next start). */
    void halt() {
        if (disruptor != null) {
            disruptor.halt();
        }
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
                    if (failed.getAsBoolean()) {
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
            fail.accept(ex instanceof JdmException j ? j : ErrorClassifier.wrap("sync: failed" + where, ex));
            throw new IllegalStateException("sync stage halted" + where, ex);
        }

        @Override
        public void handleOnStartException(Throwable ex) {
            fail.accept(ErrorClassifier.wrap("sync: a stage did not start", ex));
        }

        @Override
        public void handleOnShutdownException(Throwable ex) {
            LOG.warn("sync: a stage did not shut down cleanly: {}", ErrorClassifier.oneLine(ex));
        }
    }
}
