package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.JdmException;
import io.jdm.common.sql.StatementText;
import io.jdm.sync.ring.BarrierStep;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.StoppedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Hands each event of the stream to its handler (one per event type, see {@link Handlers}), with
 * the reader's position kept in the {@link ReaderContext}: waits at the {@link ReadGate} before a
 * transaction starts, and now and then hands on a transaction boundary. Says when the connection
 * should close: held at the gate too long, stopped, or failed. Reader thread only.
 */
final class EventDispatcher {
    /**
     * How long the reader stays connected while held at the gate: a source drops a stream it cannot
     * write to after net_write_timeout (60 s by default), and one seen here (1 s) then stalled.
     */
    static final Duration HOLD_CONNECTED = Duration.ofSeconds(5);
    /**
     * How often, at most, a transaction boundary goes into the ring while the stream runs: often
     * enough that writers' positions follow a stream of unselected tables within a checkpoint
     * interval (1 s is the shortest one tests use), one ring slot a second costs nothing.
     */
    static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ReaderContext ctx;
    private final ReadGate gate;
    private final ReaderStop stop;
    private final CountDownLatch streaming;
    private final Map<EventType, BinlogEventHandler> handlers = Handlers.create();
    private boolean held;

    /** @param streaming counted down at the first event: the server accepted the position */
    EventDispatcher(ReaderContext ctx, ReadGate gate, ReaderStop stop, CountDownLatch streaming) {
        this.ctx = ctx;
        this.gate = gate;
        this.stop = stop;
        this.streaming = streaming;
    }

    /** Handles one event; false when the connection should close. */
    boolean onEvent(Event event) {
        if (stop.ended()) {
            return false; // the library would deliver the rest of the packet; nothing more may be applied
        }
        EventHeaderV4 h = event.getHeader();
        EventType type = h.getEventType();
        streaming.countDown(); // streaming: the server accepted the position (else 1236 comes instead)
        ctx.startEvent(h);
        if (type == EventType.HEARTBEAT) {
            ctx.heartbeats++;
            flushBoundary(); // the stream is quiet: the last commit's boundary goes on now
        }
        if (!ctx.inTxn && gate.mayHold() && type != EventType.HEARTBEAT && !passGate()) {
            return false;
        }
        try {
            BinlogEventHandler handler = handlers.get(type);
            if (handler != null) {
                handler.handle(h, event.getData(), ctx);
            }
            ctx.endEvent(h);
            if (type == EventType.XID || type == EventType.ROTATE || type == EventType.QUERY
                    || type == EventType.TRANSACTION_PAYLOAD || type == EventType.XA_PREPARE) {
                boundary();
            }
            if (ctx.shards != null && !ctx.inTxn) {
                drains();
            }
        } catch (JdmException e) {
            stoppedAt(event, e);
            stop.fail(e);
        } catch (RuntimeException e) {
            JdmException wrapped = ErrorClassifier.wrap("sync: reader at " + ctx.file + ":" + ctx.eventStart, e);
            stoppedAt(event, wrapped);
            stop.fail(wrapped);
        }
        return !stop.ended();
    }

    /**
     * A statement the reader stops at (one it cannot read or replay, or one a binlog operator may not
     * take) is the one the sync stands at: at its QUERY event, where the failure line places it.
     */
    private void stoppedAt(Event event, JdmException e) {
        if (event.getData() instanceof QueryEventData q) {
            ctx.stoppedAt = new StoppedStatement(ctx.file + ":" + ctx.eventStart,
                    ChangePos.restartGtids(ctx.inTxn ? ctx.gtidBefore : ctx.gtids.positionText()),
                    StatementText.shown(q.getSql()), e.getMessage(), ErrorClassifier.code(e), false);
        }
    }

    /**
     * True when the connection closed because the reader was held at the gate (not a failure: it
     * reopens from {@link ReaderContext#resumePoint()} once the gate lets it); clears the mark.
     */
    boolean takeHeld() {
        boolean h = held;
        held = false;
        return h;
    }

    /** Waits at the gate before a transaction starts; false when the connection should close. */
    private boolean passGate() {
        try {
            if (gate.before(ctx.file, ctx.eventStart, stop::ended, HOLD_CONNECTED.toNanos())) {
                return true;
            }
            // held for a while: drop the stream ourselves before the source's write timeout does,
            // and reconnect from this boundary once the gate lets us go on
            held = !stop.ended();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop.stop();
        }
        return false;
    }

    /**
     * Between transactions: a shard whose group DDL has run on the target gets its spool drained,
     * behind a barrier at this boundary, and its later rows go to the target table again.
     */
    private void drains() {
        ChangePos at = ctx.shards.drainPosition(new ChangePos(ctx.file, Math.max(4, ctx.cursor), -1, -1,
                ctx.gtids.positionText()));
        List<BarrierStep> steps = ctx.shards.drains(at);
        if (steps.isEmpty()) {
            return;
        }
        for (BarrierStep step : steps) {
            ctx.sink.ddl(new DdlChange("", "", step.describe(), List.of(), List.of(), null, "", at,
                    System.currentTimeMillis(), null, false, step));
        }
        if (at.isAfter(ctx.lastPublished)) {
            ctx.lastPublished = at;
        }
    }

    /**
     * Between transactions, now and then hands on the boundary the stream has reached, so idle
     * writers' positions (and the restart point) move with the stream even when no selected table
     * changes. Never one at or before what was handed on already (events read again after a reconnect).
     */
    private void boundary() {
        if (ctx.inTxn) {
            return;
        }
        ctx.pendingBoundary = new ChangePos(ctx.file, Math.max(4, ctx.cursor), -1, -1, ctx.gtids.positionText());
        if (System.nanoTime() - ctx.lastBoundaryNanos >= PROGRESS_EVERY_NANOS) {
            flushBoundary();
        }
    }

    /**
     * Hands on the last boundary the stream passed, if nothing was handed on after it: at a
     * heartbeat and when the reader stops cleanly. Without it a task's last transaction before a
     * quiet spell (or a stop) would stay its restart point, and a restart would ask the source for
     * that transaction again, in a binlog that may be purged by then although everything in it
     * was applied.
     */
    void flushBoundary() {
        ChangePos b = ctx.pendingBoundary;
        ctx.pendingBoundary = null;
        if (b != null && b.isAfter(ctx.lastBoundary) && b.isAfter(ctx.lastPublished)) {
            ctx.sink.progress(b);
            ctx.lastBoundary = b;
            ctx.lastBoundaryNanos = System.nanoTime();
        }
    }
}
