package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import java.util.Map;

/**
 * TRANSACTION_PAYLOAD: hands each inner event (BEGIN, TABLE_MAP, rows, XID) to the handler of its
 * type, as if it had been read uncompressed. Inner events have no position of their own, so they
 * all keep the payload's start as theirs: a transaction opened inside starts there, and the rows
 * are told apart by their ordinal in the transaction, as everywhere else. A restart therefore
 * reads the whole payload again, and the changes it had handed on are dropped as for any
 * transaction read again. The reader moves its cursor past the payload only once, after the last
 * inner event.
 */
final class PayloadHandler implements BinlogEventHandler {
    private final Map<EventType, BinlogEventHandler> handlers;

    /** @param handlers the reader's handlers, which the inner events go to */
    PayloadHandler(Map<EventType, BinlogEventHandler> handlers) {
        this.handlers = handlers;
    }

    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        TransactionPayloadEventData payload = (TransactionPayloadEventData) data;
        for (Event e : payload.getUncompressedEvents()) {
            EventHeaderV4 h = e.getHeader();
            BinlogEventHandler handler = handlers.get(h.getEventType());
            if (handler != null && handler != this) {
                handler.handle(h, e.getData(), ctx);
            }
        }
    }
}
