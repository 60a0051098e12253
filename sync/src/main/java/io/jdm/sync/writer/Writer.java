package io.jdm.sync.writer;

import com.lmax.disruptor.EventHandler;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.RetriableException;
import io.jdm.sync.checkpoint.CheckpointStore;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.PipelineCounters;
import io.jdm.sync.ring.RingSlot;
import io.jdm.sync.ring.WriterProgress;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of worker-count writers. Sees every slot, keeps those routed to it, and commits them in
 * batches of up to {@code batch} (fewer when the ring runs dry) in ONE target transaction together
 * with its checkpoint row: the position of the last slot it has seen. Every change routed to this
 * writer at or before that position is then in the target, and none after it. A writer with nothing
 * pending stores the position of the last slot it has seen once per checkpoint interval (at a batch
 * end, or when the ring has been quiet that long) and on a clean stop, so writers that receive no
 * rows do not hold the restart point back.
 */
public final class Writer implements EventHandler<RingSlot> {
    private static final Logger LOG = LoggerFactory.getLogger(Writer.class);

    private final int id;
    private final WriterSettings s;
    private final CheckpointStore store;
    private final DrainBarrier barrier;
    private final WriterProgress progress;
    private final PipelineCounters counters;
    private final SqlBuilder sql;
    private final DdlApplier ddl;
    private final CountDownLatch stopped;
    private final List<Pending> batch = new ArrayList<>();
    private final StringBuilder sb = new StringBuilder(64 * 1024);
    private Connection conn;
    private ChangePos seenPos;
    private long seenSeq = -1;
    private ChangePos savedPos;
    private long savedNanos = System.nanoTime();
    private long lastEventMillis;

    public Writer(int id, WriterSettings s, CheckpointStore store, DrainBarrier barrier, WriterProgress progress,
                  PipelineCounters counters, DdlApplier ddl, CountDownLatch stopped) {
        this.id = id;
        this.s = s;
        this.store = store;
        this.barrier = barrier;
        this.progress = progress;
        this.counters = counters;
        this.sql = new SqlBuilder(s.multipleRows());
        this.ddl = ddl;
        this.stopped = stopped;
    }

    @Override
    public void onEvent(RingSlot slot, long seq, boolean endOfBatch) throws Exception {
        if (slot.drainBefore) {
            flush();
            if (slot.ddl != null) {
                storePosition(); // a refused DDL leaves every writer's checkpoint right before it
            }
            barrier.await();
        }
        if (slot.ddl != null) {
            if (id == 0 && !slot.skip) {
                withRetry("DDL " + slot.ddl.sql(), slot.pos(), () -> ddl.apply(connection(), slot.ddl),
                        e -> DdlApplier.refused(slot.ddl, ErrorClassifier.oneLine(e)));
            }
            barrier.await(); // nobody applies rows of the table before its DDL is in
            seen(slot, seq);
            savedPos = seenPos;
            progress.committed(id, seq, seenPos);
            return;
        }
        if (!slot.skip && slot.route == id) {
            batch.add(Pending.of(slot.change, slot.keys));
            lastEventMillis = slot.change.eventMillis();
        }
        seen(slot, seq);
        if (batch.size() >= s.batch()) {
            flush();
        } else if (endOfBatch) {
            if (!batch.isEmpty()) {
                flush();
            } else {
                idle();
            }
        }
    }

    private void seen(RingSlot slot, long seq) {
        seenPos = slot.pos();
        seenSeq = seq;
    }

    /** The ring has been quiet for a checkpoint interval: store how far this writer has seen. */
    @Override
    public void onTimeout(long sequence) throws InterruptedException {
        if (batch.isEmpty()) {
            idle();
        }
    }

    /** Nothing of ours is pending: say so, and now and then move the stored position forward. */
    private void idle() throws InterruptedException {
        progress.committed(id, seenSeq, seenPos);
        if (System.nanoTime() - savedNanos > s.checkpointInterval().toNanos()) {
            storePosition();
        }
    }

    /** Stores the position of the last slot seen as this writer's checkpoint, if it moved. */
    private void storePosition() throws InterruptedException {
        if (seenPos != null && seenPos.isAfter(savedPos)) {
            sb.setLength(0);
            store.appendUpsert(sb, s.generation(), id, s.writers(), seenPos);
            String stmt = sb.toString();
            ChangePos pos = seenPos;
            withRetry("checkpoint", pos, () -> execute(stmt));
            savedPos = pos;
            savedNanos = System.nanoTime();
        }
    }

    /** Commits the batch with this writer's position in one transaction. */
    void flush() throws InterruptedException {
        if (batch.isEmpty()) {
            return;
        }
        long t0 = System.nanoTime();
        List<Pending> work = s.compact() ? Compactor.compact(batch) : batch;
        sb.setLength(0);
        sql.append(sb, work, s.safeMode().getAsBoolean());
        store.appendUpsert(sb, s.generation(), id, s.writers(), seenPos);
        String stmt = sb.toString();
        ChangePos pos = seenPos;
        if (LOG.isTraceEnabled()) {
            LOG.trace("writer {} at {}:\n{}", id, pos, stmt);
        }
        withRetry(describe(), pos, () -> execute(stmt));
        counters.rows.add(batch.size());
        counters.txns.increment();
        counters.batchSize.recordNanos(batch.size());
        counters.txnLatency.recordSince(t0);
        counters.committed(lastEventMillis);
        counters.lastCommitWallMillis.set(System.currentTimeMillis());
        batch.clear();
        savedPos = pos;
        savedNanos = System.nanoTime();
        progress.committed(id, seenSeq, pos);
        if (sb.capacity() > 4 << 20) {
            sb.setLength(0);
            sb.trimToSize(); // one huge batch should not pin its buffer forever
        }
    }

    private void execute(String stmt) throws SQLException {
        Connection c = connection();
        try (Statement st = c.createStatement()) {
            TargetSession.executeAll(st, stmt);
        }
        c.commit();
    }

    private interface SqlWork {
        void run() throws SQLException;
    }

    /**
     * Runs {@code work} until it commits, retrying retriable failures with backoff within the
     * budget. After a lost connection the stored checkpoint row tells whether the commit went through
     * before the connection broke, so a batch is never applied twice.
     */
    private void withRetry(String what, ChangePos pos, SqlWork work) throws InterruptedException {
        withRetry(what, pos, work, e -> "sync: writer " + id + " could not apply " + what + " at " + pos
                + ": " + ErrorClassifier.oneLine(e) + "; the target refused it: fix the cause on the "
                + "target and restart the task (it resumes from its checkpoint)");
    }

    private void withRetry(String what, ChangePos pos, SqlWork work,
                           java.util.function.Function<SQLException, String> refused) throws InterruptedException {
        long deadline = System.nanoTime() + s.retryBudget().toNanos();
        long backoff = 100;
        while (true) {
            try {
                work.run();
                return;
            } catch (SQLException e) {
                rollbackQuietly();
                if (!ErrorClassifier.isRetriable(e)) {
                    throw new FatalException(refused.apply(e), e);
                }
                closeQuietly();
                counters.retries.increment();
                if (System.nanoTime() > deadline) {
                    throw new RetriableException("sync: writer " + id + " gave up on " + what + " at " + pos
                            + " after " + s.retryBudget().toSeconds() + "s of retries: " + ErrorClassifier.oneLine(e)
                            + "; check the target and restart the task", e);
                }
                if (s.aborted().getAsBoolean()) {
                    throw new FatalException("sync: writer " + id + " stopped while retrying: another stage failed");
                }
                LOG.warn("sync: writer {} retrying in {} ms: {}", id, backoff, ErrorClassifier.oneLine(e));
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, s.maxBackoff().toMillis());
                if (committedAlready(pos)) {
                    return;
                }
            }
        }
    }

    private boolean committedAlready(ChangePos pos) {
        try {
            Connection c = connection();
            ChangePos stored = store.read(c, s.generation(), id);
            c.commit();
            if (stored != null && !pos.isAfter(stored) && pos.isAfter(savedPos)) {
                LOG.info("sync: writer {}: the commit at {} went through before the connection broke", id, pos);
                return true;
            }
        } catch (SQLException e) {
            closeQuietly();
        }
        return false;
    }

    private String describe() {
        Pending first = batch.get(0);
        return batch.size() + " change(s) starting with " + first.kind() + " on " + first.table().target();
    }

    private Connection connection() throws SQLException {
        if (conn == null) {
            conn = TargetSession.open(s.target());
        }
        return conn;
    }

    private void rollbackQuietly() {
        if (conn != null) {
            try {
                conn.rollback();
            } catch (SQLException ignored) {
                // the connection is about to be replaced or the error is reported anyway
            }
        }
    }

    private void closeQuietly() {
        if (conn != null) {
            try {
                conn.close();
            } catch (SQLException ignored) {
                // a broken connection often fails to close; a new one replaces it
            }
            conn = null;
        }
    }

    /**
     * On a clean stop every slot has been handled and the batch committed, so the last slot seen is
     * a true position for this writer: store it once, so the next start does not read from behind.
     * After a failure nothing is written (the task may already belong to another process).
     */
    @Override
    public void onShutdown() {
        try {
            if (!s.aborted().getAsBoolean() && batch.isEmpty() && seenPos != null && seenPos.isAfter(savedPos)) {
                sb.setLength(0);
                store.appendUpsert(sb, s.generation(), id, s.writers(), seenPos);
                execute(sb.toString());
                savedPos = seenPos;
            }
        } catch (SQLException e) {
            rollbackQuietly();
            LOG.warn("sync: writer {} could not store its position {} at stop (the next start reads from {}): {}",
                    id, seenPos, savedPos, ErrorClassifier.oneLine(e));
        } finally {
            closeQuietly();
            stopped.countDown();
        }
    }
}
