package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;

/** Handles one binlog event type; registered in an EnumMap by {@link Handlers}. */
interface BinlogEventHandler {
    void handle(EventHeaderV4 header, EventData data, ReaderContext ctx);
}
