package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;

/** TABLE_MAP: binds a table id to a decoder (null for tables the filter leaves out). */
final class TableMapHandler implements BinlogEventHandler {
    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        TableMapEventData tm = (TableMapEventData) data;
        TableCache.Decoder d = ctx.tables.decoder(tm);
        if (d == null) {
            ctx.byTableId.remove(tm.getTableId());
        } else {
            ctx.byTableId.put(tm.getTableId(), d);
        }
    }
}
