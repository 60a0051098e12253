package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The order a load following a dump takes, by the target: the loads held while tables are created, or not. */
class DumpFollowerTest {
    private static final long MS = 1_000_000;

    @Test
    void aTargetAnsweringWithinOneMillisecondHoldsTheLoadsUnlessItIsTidb() {
        assertTrue(DumpFollower.holdsLoads(false, MS / 10), "loopback");
        assertTrue(DumpFollower.holdsLoads(false, 7 * MS / 10), "a fast network");
        assertFalse(DumpFollower.holdsLoads(false, MS), "1 ms");
        assertFalse(DumpFollower.holdsLoads(false, 26 * MS / 10), "the bench's 1 ms proxy each way");
        assertFalse(DumpFollower.holdsLoads(true, MS / 10), "TiDB, on loopback: its CREATE TABLE waits for the cluster");
    }
}
