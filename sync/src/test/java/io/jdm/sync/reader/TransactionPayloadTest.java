package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.shyiko.mysql.binlog.BinaryLogFileReader;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.jdm.common.error.FatalException;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.RowChange;
import io.jdm.sync.ring.TableInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * MySQL 8's compressed transactions, replayed from a binlog file MySQL 8.0.28 wrote (see
 * resources/binlog/README.md): every inner event is decoded by the reader's own deserializer and
 * handed to its handler at the payload's position, and a restart drops what was handed on.
 */
class TransactionPayloadTest {
    private static final String FILE = "mysql-bin.000004";
    /** Where the TRANSACTION_PAYLOAD event starts and ends in the fixture. */
    private static final long PAYLOAD_START = 236;
    private static final long PAYLOAD_END = 724;
    private static final TableName MOVIES = new TableName("demo", "movies");

    private final List<RowChange> rows = new ArrayList<>();

    @Test
    void theRowInsideACompressedTransactionIsHandedOnAtThePayloadsPosition() throws IOException {
        ReaderContext ctx = context(BinlogPosition.of(FILE, 4));
        replay(ctx, (db, t) -> true);

        assertEquals(1, rows.size());
        RowChange r = rows.get(0);
        assertEquals(RowChange.Kind.UPDATE, r.kind());
        assertEquals(new ChangePos(FILE, PAYLOAD_START, 0, 0, ""), r.pos());
        assertEquals(1, r.before()[0]);
        assertEquals("Once Upon a Time in the West", text(r.before()[1]));
        assertEquals("Western", text(r.before()[4]));
        assertEquals("Western|Action", text(r.after()[4]));
        assertFalse(ctx.inTxn, "the XID inside the payload ends the transaction");
        assertEquals(PAYLOAD_END, ctx.cursor, "the cursor moves past the payload once");
    }

    @Test
    void aRestartReadsTheWholePayloadAgainAndHandsNothingOnTwice() throws IOException {
        ReaderContext ctx = context(BinlogPosition.of(FILE, 4));
        replay(ctx, (db, t) -> true);
        ChangePos applied = rows.get(0).pos();
        assertEquals(new BinlogPosition(FILE, PAYLOAD_START, ""), applied.restartPoint(),
                "a restart reads from the payload's start");

        rows.clear();
        ReaderContext again = context(BinlogPosition.of(FILE, 4));
        again.lastPublished = applied;
        replay(again, (db, t) -> true);
        assertEquals(List.of(), rows);
    }

    @Test
    void aCompressedTransactionOfAnotherTableHandsNothingOn() throws IOException {
        ReaderContext ctx = context(BinlogPosition.of(FILE, 4));
        replay(ctx, (db, t) -> false);
        assertEquals(List.of(), rows);
        assertEquals(PAYLOAD_END, ctx.lastEventEnd.pos());
    }

    @Test
    void aPartialJsonUpdateOfASelectedTableStopsTheReader() throws IOException {
        // post-header of a PARTIAL_UPDATE_ROWS event: table id 84 (6 bytes), flags, extra-data length
        byte[] body = {84, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3};
        PartialUpdateRows.Data data = new PartialUpdateRows.Deserializer().deserialize(new ByteArrayInputStream(body));
        assertEquals(84, data.tableId());

        ReaderContext ctx = context(BinlogPosition.of(FILE, 4));
        ctx.byTableId.put(84L, decoder());
        ctx.eventStart = 1000;
        EventHeaderV4 h = new EventHeaderV4();
        h.setEventType(EventType.PARTIAL_UPDATE_ROWS_EVENT);
        BinlogEventHandler handler = Handlers.create().get(EventType.PARTIAL_UPDATE_ROWS_EVENT);
        FatalException e = assertThrows(FatalException.class, () -> handler.handle(h, data, ctx));
        assertTrue(e.getMessage().contains("binlog_row_value_options=''"), e.getMessage());
        assertTrue(e.getMessage().contains(FILE + ":1000"), e.getMessage());

        ctx.byTableId.clear(); // a table the task does not replicate: passed by
        handler.handle(h, new PartialUpdateRows.Data(85), ctx);
    }

    /** What the reader does per event, minus the network: position, handle, move the cursor. */
    private void replay(ReaderContext ctx, BiPredicate<String, String> selected) throws IOException {
        Map<EventType, BinlogEventHandler> handlers = Handlers.create();
        handlers.put(EventType.TABLE_MAP, (h, d, c) -> {
            TableMapEventData tm = (TableMapEventData) d;
            if (selected.test(tm.getDatabase(), tm.getTable())) {
                c.byTableId.put(tm.getTableId(), decoder());
            }
        });
        try (InputStream in = getClass().getResourceAsStream("/binlog/mysql-8.0.28-transaction-payload.bin")) {
            BinaryLogFileReader reader = new BinaryLogFileReader(in, Deserializers.create(selected));
            for (Event e = reader.readEvent(); e != null; e = reader.readEvent()) {
                EventHeaderV4 h = e.getHeader();
                if (h.getEventType() == EventType.ROTATE) {
                    break; // the file's end: the next file is not part of the fixture
                }
                ctx.startEvent(h);
                BinlogEventHandler handler = handlers.get(h.getEventType());
                if (handler != null) {
                    handler.handle(h, e.getData(), ctx);
                }
                ctx.endEvent(h);
            }
        }
    }

    private ReaderContext context(BinlogPosition start) {
        ChangeSink sink = new ChangeSink() {
            @Override
            public void row(RowChange change) {
                rows.add(change);
            }

            @Override
            public void ddl(DdlChange ddl) {
                throw new AssertionError("no DDL in the fixture");
            }

            @Override
            public void progress(ChangePos boundary) {
            }
        };
        return new ReaderContext(sink, null, null, EventDecider.ALWAYS_DO, new GtidTracker(false, ""), null, start,
                null, io.jdm.sync.operator.Operators.none());
    }

    /** demo.movies as the fixture's TABLE_MAP has it: an INT, a VARCHAR, an INT, then eight VARCHARs. */
    private static TableCache.Decoder decoder() {
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            boolean integer = i == 0 || i == 2;
            cols.add(new Column("c" + i, i + 1, integer ? "int" : "varchar", integer ? "int" : "varchar(1024)",
                    i != 0, false, integer ? null : "utf8mb4", integer ? null : "utf8mb4_0900_ai_ci"));
        }
        TableSchema schema = new TableSchema(MOVIES, cols, List.of("c0"), List.of());
        @SuppressWarnings("unchecked")
        Function<Object, Object>[] identity = new Function[11];
        java.util.Arrays.fill(identity, Function.identity());
        return new TableCache.Decoder(TableInfo.of(schema, MOVIES), new byte[11], identity, null);
    }

    private static String text(Object bytes) {
        return new String((byte[]) bytes, StandardCharsets.UTF_8);
    }
}
