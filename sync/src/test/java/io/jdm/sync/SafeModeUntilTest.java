package io.jdm.sync;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.ring.ChangePos;
import org.junit.jupiter.api.Test;

/** safe-mode-until: a batch is safe while its first change's transaction starts before the position. */
class SafeModeUntilTest {
    private static final ConnectionSpec ANY = ConnectionSpec.of("127.0.0.1", 3306, "u", "");

    private static SafeMode until(BinlogPosition p) {
        return new SafeMode(SyncConfig.builder("t", ANY, ANY).safeModeUntil(p).build());
    }

    @Test
    void changesOfTransactionsStartingBeforeThePositionAreSafeLaterOnesAreNot() {
        SafeMode c = until(new BinlogPosition("bin.000002", 1000, "0-1-10"));
        assertTrue(c.before(new ChangePos("bin.000001", 90_000, 3, 2, "")), "an earlier file");
        assertTrue(c.before(new ChangePos("bin.000002", 999, 7, 40, "")), "a row late in a transaction before it");
        assertFalse(c.before(new ChangePos("bin.000002", 1000, 0, 0, "")), "the first transaction at it");
        assertFalse(c.before(new ChangePos("bin.000002", 5000, 0, 0, "")));
        assertFalse(c.before(new ChangePos("bin.000003", 4, 0, 0, "")), "a later file");
        assertFalse(until(null).before(new ChangePos("bin.000001", 4, 0, 0, "")), "none set: never");
        assertTrue(c.test(new ChangePos("bin.000001", 90_000, 3, 2, "")), "the writers' question says the same");
        assertFalse(c.test(new ChangePos("bin.000003", 4, 0, 0, "")), "no safe-mode-duration, not started");
    }
}
