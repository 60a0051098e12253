package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.jdm.common.config.EventType;
import io.jdm.common.error.FatalException;
import java.io.IOException;

/**
 * PARTIAL_UPDATE_ROWS (MySQL 8 with binlog_row_value_options=PARTIAL_JSON): an update whose after
 * image holds only the changed parts of JSON columns. The binlog library cannot decode it, and a
 * row it cannot rebuild must not be passed by, so one on a selected table stops the reader; on any
 * other table it is passed by like every rows event of an unselected table. Only the table id is read.
 */
final class PartialUpdateRows {
    private PartialUpdateRows() {
    }

    /** The event's table id, the rest skipped. */
    record Data(long tableId) implements EventData {
    }

    static final class Deserializer implements EventDataDeserializer<Data> {
        @Override
        public Data deserialize(ByteArrayInputStream in) throws IOException {
            return new Data(in.readLong(6));
        }
    }

    static final class Handler implements BinlogEventHandler {
        @Override
        public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
            ctx.nextEvent();
            TableCache.Decoder d = ctx.byTableId.get(((Data) data).tableId());
            if (d != null && RowsHandler.decide(ctx, d, EventType.UPDATE)) {
                throw new FatalException("sync: a partial JSON update (binlog_row_value_options=PARTIAL_JSON) of "
                        + d.info().source() + " at " + ctx.file + ":" + ctx.eventStart + " cannot be replayed: "
                        + "SET GLOBAL binlog_row_value_options='' on the source (and in my.cnf), then start the "
                        + "task over from a new dump, since the binlog already holds such updates");
            }
        }
    }
}
