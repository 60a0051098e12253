package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;

/**
 * GTID (MySQL) and MARIADB_GTID: a transaction starts here. A MariaDB GTID without the standalone
 * flag opens a transaction that ends at XID or COMMIT; a standalone one covers the next statement.
 */
final class GtidHandler implements BinlogEventHandler {
    /** MariaDB's flag on the GTID of an XA transaction's prepared part (log_event.h, 10.5+). */
    static final int FL_PREPARED_XA = 64;

    @Override
    public void handle(EventHeaderV4 header, EventData data, ReaderContext ctx) {
        if (data instanceof MariadbGtidEventData m) {
            boolean standalone = (m.getFlags() & MariadbGtidEventData.FL_STANDALONE) != 0;
            ctx.beginTxn(ctx.eventStart, !standalone);
            // the server id is in the event header; the library only copies it into the event data
            // when it tracks GTIDs itself (enable-gtid), so read it from the header in every mode
            ctx.pendingGtid = m.getDomainId() + "-" + header.getServerId() + "-" + m.getSequence();
            if ((m.getFlags() & FL_PREPARED_XA) != 0) {
                ctx.xa.begin(); // MariaDB logs no XA START: the flag says the transaction ends at XA_PREPARE
            }
        } else if (data instanceof GtidEventData g) {
            ctx.beginTxn(ctx.eventStart, false);
            ctx.pendingGtid = g.getMySqlGtid().toString();
        }
    }
}
