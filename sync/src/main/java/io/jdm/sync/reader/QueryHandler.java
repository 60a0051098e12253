package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.DdlChange;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QUERY: BEGIN and COMMIT bound transactions; a DDL statement on selected tables is handed on
 * (writers apply it behind a barrier) and drops those tables from the schema cache. A statement
 * outside BEGIN … COMMIT is its own transaction.
 */
final class QueryHandler implements BinlogEventHandler {
    private static final Logger LOG = LoggerFactory.getLogger(QueryHandler.class);

    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        QueryEventData q = (QueryEventData) data;
        String sql = q.getSql().trim();
        String upper = sql.length() > 16 ? sql.substring(0, 16).toUpperCase(Locale.ROOT) : sql.toUpperCase(Locale.ROOT);
        if (upper.equals("BEGIN") || upper.startsWith("XA START")) {
            if (!ctx.inTxn) {
                ctx.beginTxn(ctx.eventStart, true);
            } else {
                ctx.explicitTxn = true;
            }
            return;
        }
        if (upper.equals("COMMIT") || upper.equals("ROLLBACK") || upper.startsWith("XA COMMIT")) {
            ctx.endTxn();
            return;
        }
        if (!ctx.inTxn) {
            ctx.beginTxn(ctx.eventStart, false);
        }
        ctx.nextEvent();
        List<TableName> tables = DdlParser.tables(q.getDatabase(), sql).stream()
                .filter(t -> ctx.tables.selected(t.schema(), t.table())).toList();
        if (!tables.isEmpty()) {
            tables.forEach(ctx.tables::invalidate);
            ctx.byTableId.clear();
            var pos = ctx.pos(0);
            if (pos.isAfter(ctx.lastPublished)) {
                ctx.sink.ddl(new DdlChange(q.getDatabase(), sql, tables, ctx.tables.targetSchemaForDdl(tables),
                        pos, header.getTimestamp()));
                ctx.lastPublished = pos;
            }
        } else {
            LOG.debug("sync: statement not applied (no selected table): {}", sql);
        }
        if (!ctx.explicitTxn) {
            ctx.endTxn();
        }
    }
}
