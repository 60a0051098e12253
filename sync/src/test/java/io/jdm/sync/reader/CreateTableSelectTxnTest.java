package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.RowChange;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * MySQL 8.0.21+ logs CREATE TABLE … SELECT (GTIDs on) as GTID, {@code CREATE TABLE … START
 * TRANSACTION}, the rows, XID: one transaction, so the reader must not end it at the statement
 * (a reconnect or restart there, by GTID, would pass the rows by). Here the statement is one the
 * reader met before a reconnect, as it is after a restart in the middle of that transaction.
 */
class CreateTableSelectTxnTest {
    private static final String FILE = "mysql-bin.000001";
    private static final String UUID_TEXT = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final long GTID_AT = 1000;

    @Test
    void theRowsAfterCreateTableStartTransactionBelongToItsTransaction() {
        ReaderContext ctx = context();
        gtid(ctx, 7);
        query(ctx, "CREATE TABLE `d`.`t2` (\n  `a` int DEFAULT NULL\n) START TRANSACTION");
        assertTrue(ctx.inTxn, "the statement opens the transaction its rows follow in");
        assertEquals("", ctx.gtids.current(), "its GTID does not count before its rows");
        assertEquals(new BinlogPosition(FILE, GTID_AT, ""), ctx.resumePoint(),
                "a reconnect before the XID reads the statement and its rows again");
        ctx.nextEvent(); // the rows
        assertEquals(new ChangePos(FILE, GTID_AT, 1, 0, ""), ctx.pos(0));
        handle(ctx, EventType.XID, new XidHandler(), new XidEventData());
        assertFalse(ctx.inTxn);
        assertEquals(UUID_TEXT + ":7-7", ctx.gtids.current(), "the GTID counts at the XID");
    }

    @Test
    void anyOtherDdlIsItsOwnTransaction() {
        ReaderContext ctx = context();
        gtid(ctx, 8);
        query(ctx, "CREATE TABLE `d`.`t3` (a INT) COMMENT 'START TRANSACTION'");
        assertFalse(ctx.inTxn);
        assertEquals(UUID_TEXT + ":8-8", ctx.gtids.current());
    }

    private static ReaderContext context() {
        SourceCatalog catalog = new SourceCatalog(null, Flavor.MYSQL, Map.of(), Map.of(), Map.of("version", "8.0.31"),
                Map.of());
        ReaderContext ctx = new ReaderContext(new ChangeSink() {
            @Override
            public void row(RowChange change) {
                throw new AssertionError("no rows here");
            }

            @Override
            public void ddl(DdlChange ddl) {
                throw new AssertionError("a statement met before is not planned again");
            }

            @Override
            public void progress(ChangePos boundary) {
            }
        }, null, null, EventDecider.ALWAYS_DO, new GtidTracker(false, ""), catalog, BinlogPosition.of(FILE, 4), null,
                io.jdm.sync.operator.Operators.none());
        ctx.lastDdl = new ChangePos(FILE, Long.MAX_VALUE, 0, 0, "");
        return ctx;
    }

    private static void gtid(ReaderContext ctx, long txn) {
        GtidEventData g = new GtidEventData(new MySqlGtid(UUID.fromString(UUID_TEXT), txn), (byte) 0, 0, 0, 0, 0, 0, 0, 0);
        ctx.eventStart = GTID_AT;
        new GtidHandler().handle(header(EventType.GTID), g, ctx);
    }

    private static void query(ReaderContext ctx, String sql) {
        QueryEventData q = new QueryEventData();
        q.setSql(sql);
        q.setDatabase("d");
        handle(ctx, EventType.QUERY, new QueryHandler(), q);
    }

    private static void handle(ReaderContext ctx, EventType type, BinlogEventHandler handler, EventData data) {
        ctx.eventStart = ctx.eventStart + 100;
        handler.handle(header(type), data, ctx);
    }

    private static EventHeaderV4 header(EventType type) {
        EventHeaderV4 h = new EventHeaderV4();
        h.setEventType(type);
        return h;
    }
}
