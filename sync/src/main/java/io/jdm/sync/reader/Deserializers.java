package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderV4Deserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.FormatDescriptionEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.GtidEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.MariadbGtidEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.RotateEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.XAPrepareEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.XidEventDataDeserializer;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The event deserializer: only the event types the reader handles get a data deserializer (the
 * rest are skipped as bytes), rows are decoded only for selected tables, strings stay bytes until
 * the converter decodes them with the column's charset. QUERY events keep their status variables
 * (the session the statement ran in) and the statement's bytes. The events inside a compressed
 * transaction (MySQL 8's TRANSACTION_PAYLOAD) go through a second deserializer built the same way.
 */
final class Deserializers {
    private Deserializers() {
    }

    static EventDeserializer create(BiPredicate<String, String> selected) {
        Map<Long, TableMapEventData> tableMaps = new HashMap<>();
        Map<EventType, EventDataDeserializer> m = new HashMap<>();
        m.put(EventType.FORMAT_DESCRIPTION, new FormatDescriptionEventDataDeserializer());
        m.put(EventType.ROTATE, new RotateEventDataDeserializer());
        m.put(EventType.QUERY, new QueryEventDeserializer());
        m.put(EventType.XID, new XidEventDataDeserializer());
        m.put(EventType.XA_PREPARE, new XAPrepareEventDataDeserializer());
        m.put(EventType.TABLE_MAP, new TableMapEventDataDeserializer());
        m.put(EventType.GTID, new GtidEventDataDeserializer());
        m.put(EventType.MARIADB_GTID, new MariadbGtidEventDataDeserializer());
        put(m, tableMaps, selected, SelectiveRowsDeserializer.Kind.WRITE, EventType.WRITE_ROWS, EventType.EXT_WRITE_ROWS);
        put(m, tableMaps, selected, SelectiveRowsDeserializer.Kind.UPDATE, EventType.UPDATE_ROWS,
                EventType.EXT_UPDATE_ROWS);
        put(m, tableMaps, selected, SelectiveRowsDeserializer.Kind.DELETE, EventType.DELETE_ROWS,
                EventType.EXT_DELETE_ROWS);
        m.put(EventType.PARTIAL_UPDATE_ROWS_EVENT, new PartialUpdateRows.Deserializer());
        // the events inside a compressed transaction: decoded the same way, into the same table maps
        EventDeserializer inner = deserializer(new HashMap<>(m), tableMaps);
        m.put(EventType.TRANSACTION_PAYLOAD, new TransactionPayloadDeserializer(inner));
        return deserializer(m, tableMaps);
    }

    private static EventDeserializer deserializer(Map<EventType, EventDataDeserializer> m,
                                                  Map<Long, TableMapEventData> tableMaps) {
        EventDeserializer d = new EventDeserializer(new EventHeaderV4Deserializer(), new NullEventDataDeserializer(),
                m, tableMaps);
        d.setCompatibilityMode(EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        return d;
    }

    private static void put(Map<EventType, EventDataDeserializer> m, Map<Long, TableMapEventData> tableMaps,
                            BiPredicate<String, String> selected, SelectiveRowsDeserializer.Kind kind,
                            EventType v1, EventType v2) {
        m.put(v1, new SelectiveRowsDeserializer(kind, false, tableMaps, selected));
        m.put(v2, new SelectiveRowsDeserializer(kind, true, tableMaps, selected));
    }
}
