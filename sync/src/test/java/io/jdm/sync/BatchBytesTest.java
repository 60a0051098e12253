package io.jdm.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many bytes of SQL one sync batch may hold, from the target's packet size and version. */
class BatchBytesTest {
    private static final long MIB = 1L << 20;

    @Test
    void aQuarterOfTheTargetsPacket() {
        assertEquals(16 * MIB, BatchBytes.of(64 * MIB, "11.4.5-MariaDB-log"));
        assertEquals(256 * MIB, BatchBytes.of(1024 * MIB, "8.0.36"));
    }

    @Test
    void onTidbWithinItsTransactionSizeLimit() {
        assertEquals(16 * MIB, BatchBytes.of(64 * MIB, "8.0.11-TiDB-v7.5.1"));
        assertEquals(25 * MIB, BatchBytes.of(1024 * MIB, "8.0.11-TiDB-v7.5.1"));
    }
}
