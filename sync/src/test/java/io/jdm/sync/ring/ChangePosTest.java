package io.jdm.sync.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ChangePosTest {
    private static final String U1 = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String U2 = "5b2c8c1e-0000-11e1-9e33-c80aa9429563";

    @Test
    void aGtidSetWeighsTheTransactionsItHolds() {
        assertEquals(5, ChangePos.gtidWeight(U1 + ":1-5"));
        assertEquals(5 + 3 + 2, ChangePos.gtidWeight(U1 + ":1-5:7-9,\n" + U2 + ":1-2"));
        assertEquals(4, ChangePos.gtidWeight(U1 + ":tag:1-4"));
        assertEquals(42 + 7, ChangePos.gtidWeight("0-1-42,1-2-7"));
        assertEquals(-1, ChangePos.gtidWeight(""));
    }

    /** A replica that took over, or a new log-bin basename: files start again at 000001. */
    @Test
    void withGtidsALaterTransactionInAnEarlierNamedFileIsAfter() {
        ChangePos applied = new ChangePos("mysql-bin.000007", 90_000, 2, 0, U1 + ":1-120");
        ChangePos onReplica = new ChangePos("r8bin.000001", 4_000, 0, 0, U1 + ":1-121");
        assertTrue(onReplica.isAfter(applied));
        assertTrue(applied.compareTo(onReplica) < 0);
        ChangePos mariadbApplied = new ChangePos("mysql-bin.000009", 500, 1, 0, "0-1-77");
        ChangePos mariadbNewBase = new ChangePos("newbin.000001", 300, 0, 0, "0-1-78");
        assertTrue(mariadbNewBase.isAfter(mariadbApplied));
    }

    @Test
    void theSameTransactionReadFromAnotherServerIsTheSamePosition() {
        ChangePos here = new ChangePos("mysql-bin.000007", 90_000, 2, 3, U1 + ":1-120");
        ChangePos there = new ChangePos("r8bin.000001", 4_000, 2, 3, U1 + ":1-120");
        assertEquals(0, here.compareTo(there));
        assertTrue(new ChangePos("r8bin.000001", 4_000, 2, 4, U1 + ":1-120").isAfter(here));
    }

    @Test
    void withoutGtidsFilesAndOffsetsOrder() {
        ChangePos a = new ChangePos("mysql-bin.000009", 500, 0, 0, "");
        ChangePos b = new ChangePos("mysql-bin.000010", 4, 0, 0, "");
        assertTrue(b.isAfter(a));
        assertTrue(new ChangePos("mysql-bin.000009", 501, 0, 0, "").isAfter(a));
    }

    @Test
    void boundariesOfOneFileWithNoTransactionBetweenFollowTheirOffsets() {
        ChangePos first = new ChangePos("mysql-bin.000003", 700, -1, -1, "0-1-10");
        ChangePos later = new ChangePos("mysql-bin.000003", 900, -1, -1, "0-1-10");
        assertTrue(later.isAfter(first));
    }

    @Test
    void aMariadbRestartStateOrdersByTheExecutedStateAndRestartsFromTheOther() {
        ChangePos held = new ChangePos("mysql-bin.000002", 900, 0, 0, "0-1-8~0-1-5");
        ChangePos before = new ChangePos("mysql-bin.000002", 500, 0, 0, "0-1-7");
        assertTrue(held.isAfter(before));
        assertEquals("0-1-5", held.restartPoint().gtidSet());
        assertEquals(900, held.restartPoint().pos());
    }
}
