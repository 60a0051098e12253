package io.jdm.sync.writer;

import com.lmax.disruptor.EventHandler;
import com.mysql.cj.jdbc.JdbcConnection;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.RetriableException;
import io.jdm.common.retry.Retries;
import io.jdm.sync.checkpoint.CheckpointStore;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.ParkingWaitStrategy;
import io.jdm.sync.ring.PipelineCounters;
import io.jdm.sync.ring.RingSlot;
import io.jdm.sync.ring.StoppedStatement;
import io.jdm.sync.ring.WriterProgress;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
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
    /** The first pause after a retriable failure; later ones double up to the max backoff. */
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    /**
     * How long a batch that is not full may wait for more of the stream before it is committed:
     * fewer, fuller transactions for the target (sysbench write_only, 8 writers: 3,960 transactions
     * of 100 rows instead of 7,000), at most this much more lag.
     */
    static final long LINGER_NANOS = Duration.ofMillis(50).toNanos();

    private final int id;
    private final WriterSettings s;
    private final CheckpointStore store;
    private final DrainBarrier barrier;
    private final WriterProgress progress;
    private final PipelineCounters counters;
    private final SqlBuilder sql;
    private final DdlApplier ddl;
    private final CountDownLatch stopped;
    private final Retries retries;
    private final List<Pending> batch = new ArrayList<>();
    /** The position of each change in {@link #batch}, for a batch committed in parts. */
    private final List<ChangePos> positions = new ArrayList<>();
    private final StringBuilder sb = new StringBuilder(64 * 1024);
    /**
     * A statement longer than this (a sixty-fourth of the heap, in chars) is followed by a new connection:
     * Connector/J keeps a connection's send buffer as large as the largest statement it sent.
     */
    private static final long REOPEN_AFTER_CHARS = Runtime.getRuntime().maxMemory() / 64;
    private Connection conn;
    private ChangePos seenPos;
    private long seenSeq = -1;
    private ChangePos savedPos;
    private long savedNanos = System.nanoTime();
    private long lastEventMillis;
    /** Budget bytes of the changes in {@link #batch}, given back when it is committed. */
    private long batchBytes;
    /** True once committing the batch failed here: the failure is the unit's, the batch stays uncommitted. */
    private boolean refusedBatch;
    /** When the first change of {@link #batch} arrived (nanoTime). */
    private long batchStartNanos;

    public Writer(int id, WriterSettings s, CheckpointStore store, DrainBarrier barrier, WriterProgress progress,
                  PipelineCounters counters, DdlApplier ddl, CountDownLatch stopped) {
        this.id = id;
        this.s = s;
        this.store = store;
        this.barrier = barrier;
        this.progress = progress;
        this.counters = counters;
        this.sql = new SqlBuilder(s.syncer().multipleRows());
        this.ddl = ddl;
        this.stopped = stopped;
        this.retries = Retries.builder().budget(s.retryBudget()).backoff(FIRST_BACKOFF, s.maxBackoff())
                .counter(counters.retries).stopWhen(s.aborted()).build();
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
                try {
                    attempt("DDL " + slot.ddl.sql(), slot.pos(), slot.ddl::sql, () -> ddl.apply(connection(),
                            slot.ddl));
                } catch (SQLException e) {
                    s.stoppedAt().stopped(StoppedStatement.at(slot.pos(), slot.ddl.sql(), e, false));
                    throw new FatalException(DdlApplier.refused(slot.ddl, ErrorClassifier.oneLine(e)), e);
                }
            }
            barrier.await(); // nobody applies rows of the table before its DDL is in
            seen(slot, seq);
            savedPos = seenPos;
            progress.committed(id, seq, seenPos);
            return;
        }
        if (slot.route == id && slot.change != null) {
            if (slot.skip) {
                s.budget().release(slot.bytes);
            } else {
                if (batch.isEmpty()) {
                    batchStartNanos = System.nanoTime();
                }
                batch.add(Pending.of(slot.change, slot.keys));
                positions.add(slot.change.pos());
                batchBytes += slot.bytes;
                lastEventMillis = slot.change.eventMillis();
            }
        }
        seen(slot, seq);
        if (batch.size() >= s.syncer().batch() || batchBytes >= s.batchBytes()) {
            flush();
        } else if (endOfBatch) {
            if (batch.isEmpty()) {
                idle();
            } else if (System.nanoTime() - batchStartNanos < LINGER_NANOS
                    && s.budget().inFlight() < s.budget().limit() / 2) {
                // wait a little for more of the stream, at most until the batch is LINGER old (the
                // wait then ends in onTimeout, which commits); not while the reader may be waiting
                // for the bytes this batch holds
                ParkingWaitStrategy.timeoutBy(batchStartNanos + LINGER_NANOS);
            } else {
                flush();
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
        } else {
            flush();
        }
    }

    /** Nothing of ours is pending: say so, and now and then move the stored position forward. */
    private void idle() throws InterruptedException {
        progress.committed(id, seenSeq, seenPos);
        if (System.nanoTime() - savedNanos > s.syncer().checkpointFlushInterval().toNanos()) {
            storePosition();
        }
    }

    /** Stores the position of the last slot seen as this writer's checkpoint, if it moved. */
    private void storePosition() throws InterruptedException {
        if (seenPos != null && seenPos.isAfter(savedPos)) {
            sb.setLength(0);
            store.appendUpsert(sb, s.generation(), id, s.syncer().workerCount(), seenPos);
            String stmt = withCommit(sb);
            ChangePos pos = seenPos;
            try {
                attempt("checkpoint", pos, null, () -> execute(stmt));
            } catch (SQLException e) {
                throw new FatalException(refused("checkpoint", pos, e), e);
            }
            savedPos = pos;
            savedNanos = System.nanoTime();
        }
    }

    /** Commits the batch with this writer's position in one transaction. */
    void flush() throws InterruptedException {
        ParkingWaitStrategy.timeoutBy(0);
        if (batch.isEmpty()) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            commit(0, batch.size(), seenPos);
        } catch (RuntimeException | InterruptedException e) {
            refusedBatch = true; // not tried again at shutdown
            throw e;
        }
        counters.rows.add(batch.size());
        counters.txns.increment();
        counters.batchSize.recordNanos(batch.size());
        counters.transactionRows.observe(batch.size());
        counters.txnLatency.recordSince(t0);
        counters.committed(lastEventMillis);
        counters.lastCommitWallMillis.set(System.currentTimeMillis());
        for (Pending p : batch) {
            s.committed().committed(p.kind(), p.table(), p.before(), p.after(), p.eventMillis());
        }
        batch.clear();
        positions.clear();
        s.budget().release(batchBytes);
        batchBytes = 0;
        progress.committed(id, seenSeq, seenPos);
        if (sb.capacity() > 1 << 20) { // up to 2 MiB a writer, past which a batch pays for its own buffer
            boolean huge = sb.capacity() > REOPEN_AFTER_CHARS;
            sb.setLength(0);
            sb.trimToSize(); // one huge batch should not pin its buffer forever
            if (huge) {
                // nor the driver's send buffer, which the connection keeps as large as its largest statement:
                // with every writer holding one, rows of many MB outgrew a small heap
                closeQuietly();
            }
        }
    }

    /** A batch that writes a table whose engine keeps rows outside transactions runs in safe mode. */
    private static boolean outsideTransactions(List<Pending> work) {
        for (Pending p : work) {
            if (p.table().targetOutsideTransactions()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Commits the changes {@code [from, to)} of the batch with {@code pos} as this writer's
     * checkpoint, in one transaction. When TiDB finds the transaction too large (8004), or one of
     * its entries (8025), the changes are committed in two halves instead, the first with the
     * position of its own last change: every change of this writer up to that position is then in
     * the target and none after it, as for any checkpoint. Halving ends at the one change an entry
     * limit refuses, which stops the unit naming its table and key.
     */
    private void commit(int from, int to, ChangePos pos) throws InterruptedException {
        List<Pending> part = batch.subList(from, to);
        List<Pending> work = s.syncer().compact() ? Compactor.compact(part) : part;
        sb.setLength(0);
        sql.append(sb, work, s.safeMode().test(positions.get(from)) || outsideTransactions(work));
        store.appendUpsert(sb, s.generation(), id, s.syncer().workerCount(), pos);
        String stmt = withCommit(sb);
        List<SqlBuilder.Prepared> prepared = List.copyOf(sql.prepared());
        List<byte[]> params = List.copyOf(sql.parameters());
        sql.clear();
        if (LOG.isTraceEnabled()) {
            LOG.trace("writer {} at {}:\n{}", id, pos, stmt);
        }
        ChangePos first = positions.get(from);
        Supplier<String> statement = () -> describe(part) + key(part.get(0)); // built only when it fails
        try {
            attempt(describe(part), pos, first, statement, () -> execute(stmt, prepared, params));
        } catch (SQLException e) {
            boolean txnTooLarge = ErrorClassifier.isTxnTooLarge(e);
            if (!txnTooLarge && !ErrorClassifier.isEntryTooLarge(e)) {
                s.stoppedAt().stopped(StoppedStatement.at(first, statement.get(), e, false));
                throw new FatalException(refused(describe(part), pos, e), e);
            }
            if (to - from == 1) {
                s.stoppedAt().stopped(StoppedStatement.at(first, statement.get(), e, false));
                throw new FatalException(tooLarge(part.get(0), pos, txnTooLarge, e), e);
            }
            int mid = (from + to) >>> 1;
            LOG.info("sync: writer {}: the target refused {} as one transaction ({}); committing it in two",
                    id, describe(part), ErrorClassifier.oneLine(e));
            commit(from, mid, positions.get(mid - 1));
            commit(mid, to, pos);
            return;
        }
        savedPos = pos;
        savedNanos = System.nanoTime();
    }

    /**
     * The text with its COMMIT, so the transaction ends in the same round trip: a statement that
     * fails ends the text there, uncommitted, and the caller rolls back.
     */
    private static String withCommit(StringBuilder sb) {
        return sb.append(";\nCOMMIT").toString();
    }

    private void execute(String stmt) throws SQLException {
        execute(stmt, List.of(), List.of());
    }

    /**
     * Runs the batch and commits. The statements in {@code prepared} carry large binary values as
     * parameters: they run as server-side prepared statements (values sent as raw bytes, not as
     * text), the text between them as multi-statement strings, all in the one transaction, which the
     * text's last statement commits (see {@link #withCommit}).
     */
    private void execute(String stmt, List<SqlBuilder.Prepared> prepared, List<byte[]> params) throws SQLException {
        Connection c = connection();
        try (Statement st = c.createStatement()) {
            int at = 0;
            for (SqlBuilder.Prepared p : prepared) {
                if (!stmt.substring(at, p.start()).isBlank()) {
                    TargetSession.executeAll(st, stmt.substring(at, p.start()));
                }
                try (PreparedStatement ps = c.unwrap(JdbcConnection.class)
                        .serverPrepareStatement(stmt.substring(p.start(), p.end()))) {
                    for (int i = p.from(); i < p.to(); i++) {
                        ps.setBytes(i - p.from() + 1, params.get(i));
                    }
                    ps.execute();
                }
                at = p.end() + 1; // past its ';'
            }
            TargetSession.executeAll(st, at == 0 ? stmt : stmt.substring(at));
        }
    }

    private interface SqlWork {
        void run() throws SQLException;
    }

    /** As {@link #attempt(String, ChangePos, ChangePos, Supplier, SqlWork)} for work of one position. */
    private void attempt(String what, ChangePos pos, Supplier<String> statement, SqlWork work)
            throws SQLException, InterruptedException {
        attempt(what, pos, pos, statement, work);
    }

    /**
     * Runs {@code work} until it commits, under the one retry policy: each retry rolls back and
     * runs the whole work again on a fresh connection. After a lost connection the stored
     * checkpoint row tells whether the commit went through before the connection broke, so a
     * batch is never applied twice. While it retries, the status shows {@code statement} (from
     * {@code first}, its first change) as the one the sync stands at; null: work of no statement.
     *
     * @throws SQLException the first failure no retry can pass, for the caller to name
     */
    private void attempt(String what, ChangePos pos, ChangePos first, Supplier<String> statement, SqlWork work)
            throws SQLException, InterruptedException {
        try {
            retries.call("sync: writer " + id + ": " + what + " at " + pos, retry -> {
                if (retry && committedAlready(pos)) {
                    return null;
                }
                try {
                    work.run();
                } catch (SQLException e) {
                    rollbackQuietly();
                    if (ErrorClassifier.isRetriable(e)) {
                        closeQuietly();
                        if (statement != null) {
                            s.stoppedAt().retrying(id, first, StoppedStatement.at(first, statement.get(), e, true));
                        }
                    }
                    throw e;
                }
                return null;
            });
            s.stoppedAt().passed(id);
        } catch (Retries.GaveUp e) {
            s.stoppedAt().passed(id);
            if (statement != null && !e.stopped()) {
                s.stoppedAt().stopped(StoppedStatement.at(first, statement.get(), e.getCause(), false));
            }
            if (e.stopped()) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("sync: writer " + id + " interrupted while retrying");
                }
                throw new FatalException("sync: writer " + id + " stopped while retrying: another stage failed");
            }
            throw new RetriableException("sync: writer " + id + " gave up on " + what + " at " + pos + " after "
                    + s.retryBudget().toSeconds() + "s of retries: " + e.getMessage()
                    + "; check the target and restart the task", e.getCause());
        }
    }

    private String refused(String what, ChangePos pos, SQLException e) {
        return "sync: writer " + id + " could not apply " + what + " at " + pos + ": " + ErrorClassifier.oneLine(e)
                + "; the target refused it: fix the cause on the target and restart the task (it resumes from its "
                + "checkpoint)";
    }

    /** The words for one change TiDB refuses as too large, whatever the batch size. */
    private String tooLarge(Pending p, ChangePos pos, boolean txn, SQLException e) {
        String limit = txn ? "txn-total-size-limit" : "txn-entry-size-limit";
        return "sync: writer " + id + ": the target refused the " + p.kind() + " on " + p.table().target().quoted()
                + key(p) + " at " + pos + " as too large (" + ErrorClassifier.oneLine(e) + "): the row is larger than"
                + " TiDB's " + limit + "; raise " + limit + " in the TiDB configuration and restart the task (it"
                + " resumes from its checkpoint, every change before this one is applied)";
    }

    /** The change's identity key as {@code  key (a=1, b=x)}, or nothing for a table without one. */
    private static String key(Pending p) {
        int[] idx = p.table().identity();
        Object[] row = p.after() != null ? p.after() : p.before();
        if (idx.length == 0 || row == null) {
            return "";
        }
        StringBuilder k = new StringBuilder(" key (");
        for (int i = 0; i < idx.length; i++) {
            Object v = row[idx[i]];
            String text = v instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : String.valueOf(v);
            k.append(i == 0 ? "" : ", ").append(p.table().column(idx[i]).name()).append('=')
                    .append(text.length() > 64 ? text.substring(0, 64) + "..." : text);
        }
        return k.append(')').toString();
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

    private static String describe(List<Pending> part) {
        Pending first = part.get(0);
        return part.size() + " change(s) starting with " + first.kind() + " on " + first.table().target();
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
     * Commits the batch a writer still holds (waiting for more of the stream, or halted by another
     * stage's failure), unless this writer's own commit failed or another process may own the task.
     * On a clean stop every slot has then been handled and committed, so the last slot seen is a true
     * position for this writer: store it once, so the next start does not read from behind. After a
     * failure no position is stored.
     */
    @Override
    public void onShutdown() {
        try {
            if (!s.disowned().getAsBoolean() && !refusedBatch && !batch.isEmpty()) {
                // a batch that was waiting for more of the stream when the ring stopped, or when
                // another stage failed: a prefix of this writer's changes, committed with its position
                flush();
            }
            if (!s.aborted().getAsBoolean() && batch.isEmpty() && seenPos != null && seenPos.isAfter(savedPos)) {
                sb.setLength(0);
                store.appendUpsert(sb, s.generation(), id, s.syncer().workerCount(), seenPos);
                execute(withCommit(sb));
                savedPos = seenPos;
            }
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly();
            LOG.warn("sync: writer {} could not store its position {} at stop (the next start reads from {}): {}",
                    id, seenPos, savedPos, e instanceof SQLException q ? ErrorClassifier.oneLine(q) : e.getMessage());
        } catch (InterruptedException e) {
            rollbackQuietly();
            Thread.currentThread().interrupt();
            LOG.warn("sync: writer {} was interrupted while committing at stop (the next start reads from {})", id,
                    savedPos);
        } finally {
            closeQuietly();
            stopped.countDown();
        }
    }
}
