package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;

/** XID: the transaction committed on the source. */
final class XidHandler implements BinlogEventHandler {
    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        ctx.endTxn();
    }
}
