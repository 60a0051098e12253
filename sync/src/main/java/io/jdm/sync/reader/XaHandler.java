package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import io.jdm.common.error.FatalException;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.RowChange;
import java.util.List;
import java.util.Locale;

/**
 * XA_PREPARE ends an XA transaction's prepared part: its changes are held (or, one-phase, handed
 * on); and the QUERY events {@code XA COMMIT xid} / {@code XA ROLLBACK xid} are its outcome (see
 * {@link XaTransactions}).
 */
final class XaHandler implements BinlogEventHandler {
    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        XAPrepareEventData d = (XAPrepareEventData) data;
        if (d.isOnePhase()) {
            for (RowChange c : ctx.xa.commitOnePhase()) {
                RowsHandler.publish(ctx, c);
            }
        } else {
            if (ctx.xa.prepare(XaTransactions.xid(d), ctx.pendingGtid, ctx.txnStart())) {
                ctx.gtids.hold(ctx.pendingGtid);
            }
            ctx.pendingGtid = null; // recorded when its outcome is read
        }
        ctx.endTxn();
    }

    /** True for a statement this handler takes: XA END, XA COMMIT, XA ROLLBACK (not XA START). */
    static boolean takes(String upperHead) {
        return upperHead.startsWith("XA END") || upperHead.startsWith("XA COMMIT")
                || upperHead.startsWith("XA ROLLBACK");
    }

    /**
     * An XA statement in a QUERY event. XA END is part of the prepared part and changes nothing.
     * The outcome is a transaction of its own: a COMMIT hands the held changes on at its position,
     * in the order they were read; a ROLLBACK drops them; either way the prepared part's GTID now
     * counts as executed.
     */
    static void statement(String sql, ReaderContext ctx) {
        String upper = sql.toUpperCase(Locale.ROOT);
        if (upper.startsWith("XA END")) {
            return;
        }
        boolean commit = upper.startsWith("XA COMMIT");
        if (commit && upper.endsWith("ONE PHASE")) {
            // not how MySQL (XA_PREPARE, one-phase flag) or MariaDB (an ordinary transaction) log it, but
            // should a server log it as a statement ending the transaction read so far, it commits it
            for (RowChange c : ctx.xa.commitOnePhase()) {
                RowsHandler.publish(ctx, c);
            }
            ctx.endTxn();
            return;
        }
        String xid = XaTransactions.xid(sql);
        XaTransactions.Prepared p = ctx.xa.outcome(xid);
        if (!ctx.inTxn) {
            ctx.beginTxn(ctx.eventStart, false);
        }
        if (p == null) {
            if (commit) {
                throw new FatalException("sync: XA COMMIT " + xid + " at " + ctx.txnStart() + " commits an XA "
                        + "transaction whose prepared part this run did not read, so its changes cannot be replayed: "
                        + "if the task was restarted by file and position since the XA PREPARE, set enable-gtid: "
                        + "true and restart it (its checkpoint's GTID state restarts before that transaction, so "
                        + "the source sends it again); if the XA PREPARE lies before where the task first started, "
                        + "start the task over from a full dump taken while no XA transaction is "
                        + "prepared on the source (XA RECOVER lists them)");
            }
        } else {
            ctx.gtids.release(p.gtid());
            if (commit) {
                ctx.nextEvent();
                List<RowChange> held = p.changes();
                for (int i = 0; i < held.size(); i++) {
                    ChangePos at = ctx.pos(i);
                    RowChange c = held.get(i);
                    if (at.isAfter(ctx.lastPublished)) {
                        RowsHandler.publish(ctx, new RowChange(c.table(), c.kind(), c.before(), c.after(), at,
                                c.eventMillis()));
                    }
                }
            }
        }
        ctx.endTxn();
    }
}
