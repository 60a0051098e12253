package io.jdm.sync;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.ring.ChangePos;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * safe-mode-until: a batch is safe while its first change's transaction starts before the position;
 * safe-mode-duration: only after a start that is not exact.
 */
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

    @Test
    void theStartUpSafeModeRunsOnlyAfterAStartThatIsNotExact() {
        ChangePos any = new ChangePos("bin.000001", 4, 0, 0, "");
        SafeMode exact = new SafeMode(false, Duration.ofSeconds(60), null);
        assertFalse(exact.started(true), "a checkpoint or a consistent dump's position: no safe mode");
        assertFalse(exact.test(any));
        SafeMode fromMeta = new SafeMode(false, Duration.ofSeconds(60), null);
        assertTrue(fromMeta.started(false), "meta, or a dump without a snapshot: safe-mode-duration");
        assertTrue(fromMeta.test(any));
        SafeMode zero = new SafeMode(false, Duration.ZERO, null);
        assertFalse(zero.started(false));
        assertFalse(zero.test(any));
        SafeMode always = new SafeMode(true, Duration.ZERO, null);
        assertFalse(always.started(true));
        assertTrue(always.test(any), "safe-mode: true is on whatever the start");
    }
}
