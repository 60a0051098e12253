package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventType;
import java.util.EnumMap;
import java.util.Map;

/** The event types the reader acts on; everything else (heartbeats, annotations, …) is passed by. */
final class Handlers {
    private Handlers() {
    }

    static Map<EventType, BinlogEventHandler> create() {
        Map<EventType, BinlogEventHandler> m = new EnumMap<>(EventType.class);
        m.put(EventType.ROTATE, new RotateHandler());
        m.put(EventType.GTID, new GtidHandler());
        m.put(EventType.MARIADB_GTID, new GtidHandler());
        m.put(EventType.QUERY, new QueryHandler());
        m.put(EventType.XID, new XidHandler());
        m.put(EventType.XA_PREPARE, new XaHandler());
        m.put(EventType.TABLE_MAP, new TableMapHandler());
        RowsHandler rows = new RowsHandler();
        for (EventType t : new EventType[] {EventType.WRITE_ROWS, EventType.EXT_WRITE_ROWS, EventType.UPDATE_ROWS,
                EventType.EXT_UPDATE_ROWS, EventType.DELETE_ROWS, EventType.EXT_DELETE_ROWS}) {
            m.put(t, rows);
        }
        m.put(EventType.PARTIAL_UPDATE_ROWS_EVENT, new PartialUpdateRows.Handler());
        m.put(EventType.TRANSACTION_PAYLOAD, new PayloadHandler(m));
        return m;
    }
}
