package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** GTIDs of prepared XA transactions are held out of a MySQL set until their outcome. */
class GtidTrackerTest {
    private static final String U = "86b812a2-f007-11f1-baf6-02fc00000001";

    @Test
    void mysqlLeavesAHeldGtidOutUntilItIsReleased() {
        GtidTracker t = new GtidTracker(false, U + ":1-5");
        t.hold(U + ":6");
        t.commit(U + ":7");
        assertEquals(U + ":1-5:7-7", t.current());
        t.release(U + ":6");
        t.commit(U + ":8");
        assertEquals(U + ":1-8", t.current());
    }

    @Test
    void mariadbRecordsAHeldGtidAtOnceSoEveryLaterStateIsLarger() {
        GtidTracker t = new GtidTracker(true, "0-1-5,1-2-9");
        t.hold("0-1-6");
        assertEquals("0-1-6,1-2-9", t.current());
        t.commit("0-1-7");
        t.release("0-1-6");
        assertEquals("0-1-7,1-2-9", t.current());
    }

    @Test
    void mariadbPositionsRestartBeforeTheOldestHeldTransactionOfItsDomainUntilItsOutcome() {
        GtidTracker t = new GtidTracker(true, "0-1-5,1-2-9");
        assertEquals("0-1-5,1-2-9", t.positionText());
        t.hold("0-1-6");
        t.commit("1-2-10");
        t.hold("0-1-7");
        t.commit("0-1-8");
        assertEquals("0-1-8,1-2-10~0-1-5,1-2-10", t.positionText());
        assertEquals("0-1-5,1-2-10", io.jdm.sync.ring.ChangePos.restartGtids(t.positionText()));
        t.release("0-1-6");
        assertEquals("0-1-8,1-2-10~0-1-6,1-2-10", t.positionText());
        t.release("0-1-7");
        assertEquals("0-1-8,1-2-10", t.positionText());
    }

    @Test
    void theXidOfAPrepareEventIsWrittenAsTheOutcomeStatementWritesIt() {
        XAPrepareEventData d = new XAPrepareEventData();
        d.setFormatID(1);
        d.setGtridLength(2);
        d.setBqualLength(1);
        d.setData("kcb".getBytes(StandardCharsets.US_ASCII));
        assertEquals("X'6B63',X'62',1", XaTransactions.xid(d));
        assertEquals("X'6B63',X'62',1", XaTransactions.xid("XA COMMIT X'6b63',X'62',1"));
        assertEquals("X'6B63',X'',1", XaTransactions.xid("XA ROLLBACK X'6B63',X'',1"));
    }
}
