package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import io.jdm.sync.operator.BinlogOperator;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.SourceSession;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * QUERY: BEGIN and COMMIT bound transactions; any other statement goes to the {@link DdlPlanner},
 * and what it makes of it (one change per table statement) is handed on for the writers to apply
 * behind a barrier. A statement outside BEGIN … COMMIT is its own transaction, except MySQL's
 * {@code CREATE TABLE … START TRANSACTION}, whose rows follow it up to an XID. A DDL read again
 * after a reconnect is passed by whole: the schema tracker has replayed it already. The statement
 * is decoded from its bytes with the charset its client sent it in, and travels with its session.
 * A binlog operator at the statement's position ({@code jdm binlog skip|replace}) decides what the
 * target gets instead.
 */
final class QueryHandler implements BinlogEventHandler {
    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        QueryEventData q = (QueryEventData) data;
        String head = q.getSql().trim();
        String upper = head.length() > 16 ? head.substring(0, 16).toUpperCase(Locale.ROOT)
                : head.toUpperCase(Locale.ROOT);
        if (upper.equals("BEGIN") || upper.startsWith("XA START")) {
            if (!ctx.inTxn) {
                ctx.beginTxn(ctx.eventStart, true);
            } else {
                ctx.explicitTxn = true;
            }
            if (upper.startsWith("XA START")) {
                ctx.xa.begin();
            }
            return;
        }
        if (XaHandler.takes(upper)) {
            XaHandler.statement(head, ctx);
            return;
        }
        if (upper.equals("COMMIT") || upper.equals("ROLLBACK")) {
            ctx.endTxn();
            return;
        }
        if (!ctx.inTxn) {
            ctx.beginTxn(ctx.eventStart, false);
        }
        ctx.nextEvent();
        ChangePos first = ctx.pos(0);
        if (first.isAfter(ctx.lastDdl)) {
            QueryEvent e = (QueryEvent) q;
            String sql = ctx.catalog.text(e.sqlBytes(), e.status()).trim();
            // resolved only for a statement sync applies: GRANT or FLUSH in an odd session stops nothing
            String where = ctx.file + ":" + ctx.eventStart;
            Supplier<SourceSession> session = memoized(() -> {
                SourceSession s = ctx.catalog.session(e.status(), header.getTimestamp(), where);
                SourceCatalog.checkReplayable(e.sqlBytes(), s, where);
                return s;
            });
            BinlogOperator op = ctx.operators.at(ctx.file, ctx.txnPos, ctx.eventStart, ctx.txnEvent == 0);
            List<DdlChange> changes = ctx.ddl.plan(q.getDatabase(), sql, session, ctx::pos, header.getTimestamp(),
                    where, op);
            ctx.lastDdl = first;
            if (DdlParser.isDdl(sql, ctx.catalog.grammar())) {
                ctx.tables.invalidateAll(); // the model may have changed even for a DDL that is not applied
                ctx.byTableId.clear();
            }
            for (DdlChange c : changes) {
                if (c.pos().isAfter(ctx.lastPublished)) {
                    ctx.sink.ddl(c);
                    ctx.lastPublished = c.pos();
                }
            }
        }
        if (DdlParser.opensTransaction(head, ctx.catalog.grammar())) {
            ctx.explicitTxn = true; // its rows follow, up to the XID: no boundary before them, one GTID for all
        } else if (!ctx.explicitTxn) {
            ctx.endTxn();
        }
    }

    private static <T> Supplier<T> memoized(Supplier<T> s) {
        Object[] value = new Object[1];
        return () -> {
            if (value[0] == null) {
                value[0] = s.get();
            }
            @SuppressWarnings("unchecked")
            T t = (T) value[0];
            return t;
        };
    }
}
