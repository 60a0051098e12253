package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import io.jdm.common.config.Action;
import io.jdm.common.config.EventType;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.RowChange;
import java.io.Serializable;
import io.jdm.sync.ring.TableInfo;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * WRITE/UPDATE/DELETE rows (v1 and v2): asks the event filter, then converts every row of a
 * selected table into a {@link RowChange} positioned at (file, event start, row index) and hands
 * it on, unless one of the table's expression-filter rules is TRUE on it. A skipped event hands nothing on; the positions of later events move the checkpoint past it.
 */
final class RowsHandler implements BinlogEventHandler {
    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        ctx.nextEvent();
        if (data instanceof WriteRowsEventData w) {
            TableCache.Decoder d = ctx.byTableId.get(w.getTableId());
            if (d != null && decide(ctx, d, EventType.INSERT)) {
                checkFull(d, w.getIncludedColumns(), header, ctx);
                List<Serializable[]> rows = w.getRows();
                for (int i = 0; i < rows.size(); i++) {
                    Object[] row = convert(d, rows.get(i));
                    if (!filtered(d, RowChange.Kind.INSERT, null, row)) {
                        emit(ctx, header, i, d, RowChange.Kind.INSERT, null, row);
                    }
                }
            }
        } else if (data instanceof UpdateRowsEventData u) {
            TableCache.Decoder d = ctx.byTableId.get(u.getTableId());
            if (d != null && decide(ctx, d, EventType.UPDATE)) {
                checkFull(d, u.getIncludedColumnsBeforeUpdate(), header, ctx);
                checkFull(d, u.getIncludedColumns(), header, ctx);
                List<Map.Entry<Serializable[], Serializable[]>> rows = u.getRows();
                for (int i = 0; i < rows.size(); i++) {
                    var e = rows.get(i);
                    Object[] before = convert(d, e.getKey());
                    Object[] after = convert(d, e.getValue());
                    if (!filtered(d, RowChange.Kind.UPDATE, before, after)) {
                        emit(ctx, header, i, d, RowChange.Kind.UPDATE, before, after);
                    }
                }
            }
        } else if (data instanceof DeleteRowsEventData del) {
            TableCache.Decoder d = ctx.byTableId.get(del.getTableId());
            if (d != null && decide(ctx, d, EventType.DELETE)) {
                checkFull(d, del.getIncludedColumns(), header, ctx);
                List<Serializable[]> rows = del.getRows();
                for (int i = 0; i < rows.size(); i++) {
                    Object[] row = convert(d, rows.get(i));
                    if (!filtered(d, RowChange.Kind.DELETE, row, null)) {
                        emit(ctx, header, i, d, RowChange.Kind.DELETE, row, null);
                    }
                }
            }
        }
    }

    /** The event filter: true to apply the event, false to skip it; Error stops the task. */
    static boolean decide(ReaderContext ctx, TableCache.Decoder d, EventType type) {
        TableName t = d.info().source();
        Action a = ctx.decider.decide(t.schema(), t.table(), type, null);
        if (a == Action.ERROR) {
            throw new FatalException("sync: a filter rule with action Error stopped the task at "
                    + ctx.pos(0).restartPoint() + ": " + type.yamlName() + " on " + t + "; change that rule in "
                    + "filters (or add an Ignore rule for these events) and restart the task");
        }
        return a == Action.DO;
    }

    /**
     * DM's expression-filter: true when the row change is not replicated. It is only not handed on:
     * the positions of the rows after it move the checkpoint past it, as for a skipped event.
     */
    private static boolean filtered(TableCache.Decoder d, RowChange.Kind kind, Object[] before, Object[] after) {
        if (d.rowFilter() == null) {
            return false;
        }
        try {
            return switch (kind) {
                case INSERT -> d.rowFilter().skipInsert(after);
                case UPDATE -> d.rowFilter().skipUpdate(before, after);
                case DELETE -> d.rowFilter().skipDelete(before);
            };
        } catch (RuntimeException e) {
            throw new FatalException("sync: an expression-filter rule of " + d.info().source() + " cannot be "
                    + "evaluated on a row " + kind.name().toLowerCase(Locale.ROOT) + ": " + e.getMessage()
                    + "; change the rule and restart the task", e);
        }
    }

    private static void emit(ReaderContext ctx, EventHeaderV4 h, int row, TableCache.Decoder d,
                             RowChange.Kind kind, Object[] before, Object[] after) {
        TableInfo spool = ctx.shards == null ? null : ctx.shards.spoolInfo(d.info());
        if (spool == null) {
            publish(ctx, h, ctx.pos(row), d.info(), kind, before, after);
            return;
        }
        // a shard waiting for a group DDL: each change becomes its row's last image in the shard's spool,
        // a deleted row flagged; an update that moves the key spools the old key as deleted first
        if (kind != RowChange.Kind.INSERT && (kind == RowChange.Kind.DELETE || !sameKey(spool, before, after))) {
            publish(ctx, h, ctx.pos(2 * row), spool, RowChange.Kind.INSERT, null, flagged(before, 1));
        }
        if (kind != RowChange.Kind.DELETE) {
            publish(ctx, h, ctx.pos(2 * row + 1), spool, RowChange.Kind.INSERT, null, flagged(after, 0));
        }
    }

    private static void publish(ReaderContext ctx, EventHeaderV4 h, ChangePos pos, TableInfo info,
                                RowChange.Kind kind, Object[] before, Object[] after) {
        if (!pos.isAfter(ctx.lastPublished)) {
            return; // read again after a reconnect: already handed on
        }
        RowChange c = new RowChange(info, kind, before, after, pos, h.getTimestamp());
        if (ctx.xa.reading()) {
            ctx.xa.add(c, ctx.txnStart()); // handed on at its XA COMMIT, if one comes
            return;
        }
        publish(ctx, c);
    }

    /** Hands one change on; {@code c.pos()} is after every change handed on before. */
    static void publish(ReaderContext ctx, RowChange c) {
        ctx.sink.row(c);
        ctx.lastPublished = c.pos();
        ctx.rowEvents++;
    }

    private static Object[] flagged(Object[] row, int deleted) {
        Object[] out = Arrays.copyOf(row, row.length + 1);
        out[row.length] = deleted;
        return out;
    }

    private static boolean sameKey(TableInfo t, Object[] before, Object[] after) {
        for (int c : t.identity()) {
            if (!Objects.deepEquals(before[c], after[c])) {
                return false;
            }
        }
        return true;
    }

    private static Object[] convert(TableCache.Decoder d, Serializable[] raw) {
        Function<Object, Object>[] conv = d.converters();
        Object[] out = new Object[raw.length];
        for (int i = 0; i < raw.length; i++) {
            try {
                out[i] = conv[i].apply(raw[i]);
            } catch (RuntimeException e) {
                throw new FatalException("sync: cannot convert column " + d.info().column(i).name() + " ("
                        + d.info().column(i).columnType() + ") of " + d.info().source() + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static void checkFull(TableCache.Decoder d, BitSet included, EventHeaderV4 h, ReaderContext ctx) {
        if (included.cardinality() != d.info().columnCount()) {
            throw new FatalException("sync: rows event at " + ctx.file + ":" + ctx.eventStart + " for "
                    + d.info().source() + " carries " + included.cardinality() + " of " + d.info().columnCount()
                    + " columns; set binlog_row_image=FULL on the source");
        }
    }
}
