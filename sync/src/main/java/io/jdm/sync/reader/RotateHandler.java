package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import io.jdm.common.position.BinlogPosition;

/** ROTATE: real (next file) or fake (sent on connect, naming the file being read). */
final class RotateHandler implements BinlogEventHandler {
    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        RotateEventData r = (RotateEventData) data;
        ctx.file = r.getBinlogFilename();
        ctx.cursor = r.getBinlogPosition();
        ctx.lastEventEnd = new BinlogPosition(r.getBinlogFilename(), r.getBinlogPosition(), ctx.gtids.current());
    }
}
