package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.operator.Operators;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.StoppedStatement;
import io.jdm.sync.shard.ShardCoordinator;
import java.util.HashMap;
import java.util.Map;

/**
 * The reader's state between events: the current file, the open transaction (where it started
 * and the GTID set before it), decoders by table id, and the last change handed on. Reader thread
 * only, except {@link #lastEventEnd}, which others read to learn how far the stream has got.
 */
final class ReaderContext {
    final ChangeSink sink;
    final TableCache tables;
    final DdlPlanner ddl;
    final EventDecider decider;
    final GtidTracker gtids;
    final SourceCatalog catalog;
    /** Pessimistic shard mode: where waiting shards' rows go, and drains; null without it. */
    final ShardCoordinator shards;
    /** The binlog operators of the source, looked up at every statement. */
    final Operators operators;
    final Map<Long, TableCache.Decoder> byTableId = new HashMap<>();
    /** Prepared XA transactions held until their outcome, and the XA transaction being read. */
    final XaTransactions xa = new XaTransactions();

    String file;
    /** Start of the event being handled: from its header when the server filled it in, else counted. */
    long eventStart;
    /** Where the next event starts, counted from event lengths where headers say 0. */
    long cursor;
    long txnPos;
    /** Ordinal of the current rows or query event inside the transaction. */
    int txnEvent = -1;
    String gtidBefore = "";
    boolean inTxn;
    /** BEGIN seen, or a MariaDB GTID without the standalone flag: the transaction ends at XID/COMMIT. */
    boolean explicitTxn;
    String pendingGtid;
    long eventMillis;
    /** The last change published; after a reconnect, changes up to it are read again and dropped. */
    ChangePos lastPublished;
    /** The last DDL event planned; one read again after a reconnect is not planned (or tracked) twice. */
    ChangePos lastDdl;
    /** The last boundary handed on, and when: boundaries go out at most once per PROGRESS_EVERY. */
    ChangePos lastBoundary;
    long lastBoundaryNanos;
    /** The last boundary passed but not handed on yet (boundaries go out at most once per PROGRESS_EVERY). */
    ChangePos pendingBoundary;
    volatile BinlogPosition lastEventEnd;
    long rowEvents;
    /** Heartbeats received: a quiet stream that still gets them is alive, which counts as getting further. */
    long heartbeats;
    /** The statement the reader stopped at, set before it fails; null until then. */
    volatile StoppedStatement stoppedAt;
    /** Told the length of every event received; set before the stream starts. */
    java.util.function.LongConsumer eventBytes = n -> { };

    ReaderContext(ChangeSink sink, TableCache tables, DdlPlanner ddl, EventDecider decider, GtidTracker gtids,
                  SourceCatalog catalog, BinlogPosition start, ShardCoordinator shards, Operators operators) {
        this.operators = operators;
        this.catalog = catalog;
        this.shards = shards;
        this.sink = sink;
        this.tables = tables;
        this.ddl = ddl;
        this.decider = decider;
        this.gtids = gtids;
        this.file = start.file();
        this.cursor = start.pos();
        this.lastEventEnd = start;
    }

    /** An event begins: its start from its header when the server filled it in, else counted. */
    void startEvent(EventHeaderV4 h) {
        eventBytes.accept(h.getEventLength());
        eventStart = h.getNextPosition() > 0 ? h.getNextPosition() - h.getEventLength() : cursor;
    }

    /**
     * An event was handled: the cursor moves past it (rotations set it themselves). The events
     * inside a compressed transaction never come here, only the payload that holds them.
     */
    void endEvent(EventHeaderV4 h) {
        EventType type = h.getEventType();
        if (type != EventType.ROTATE && type != EventType.FORMAT_DESCRIPTION) {
            // MariaDB leaves end positions inside a transaction at 0: count them from lengths
            cursor = h.getNextPosition() > 0 ? h.getNextPosition() : cursor + h.getEventLength();
            lastEventEnd = new BinlogPosition(file, cursor, "");
        }
    }

    void beginTxn(long pos, boolean explicit) {
        inTxn = true;
        explicitTxn = explicit;
        txnPos = pos;
        txnEvent = -1;
        gtidBefore = gtids.positionText();
        xa.reset();
    }

    void endTxn() {
        gtids.commit(pendingGtid);
        pendingGtid = null;
        inTxn = false;
        explicitTxn = false;
    }

    /** Starts the next rows/query event of the current transaction (a rows event with no BEGIN starts one). */
    void nextEvent() {
        if (!inTxn) {
            beginTxn(eventStart, false);
        }
        txnEvent++;
    }

    /** Where the open transaction starts, for messages. */
    String txnStart() {
        return file + ":" + txnPos;
    }

    /** The position of row {@code row} of the current event. */
    ChangePos pos(int row) {
        return new ChangePos(file, txnPos, txnEvent, row, gtidBefore);
    }

    /** Where to reconnect: the start of the open transaction, else the end of the last event. */
    BinlogPosition resumePoint() {
        if (inTxn) {
            return new BinlogPosition(file, txnPos, ChangePos.restartGtids(gtidBefore));
        }
        BinlogPosition end = lastEventEnd;
        return new BinlogPosition(end.file(), end.pos(), ChangePos.restartGtids(gtids.positionText()));
    }
}
