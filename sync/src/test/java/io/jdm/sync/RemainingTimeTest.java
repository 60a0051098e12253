package io.jdm.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.common.position.BinaryLogs;
import io.jdm.common.position.BinlogPosition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seconds to catch up: bytes left over the bytes per second the checkpoint moved. */
class RemainingTimeTest {
    private static final long SECOND = 1_000_000_000L;

    private static BinaryLogs logs(long... sizes) {
        BinaryLogs.File[] files = new BinaryLogs.File[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            files[i] = new BinaryLogs.File(String.format("bin.%06d", i + 1), sizes[i]);
        }
        return new BinaryLogs(List.of(files));
    }

    @Test
    void bytesLeftOverTheRateOfTheLastInterval() {
        RemainingTime r = new RemainingTime();
        r.sample(logs(10_000), BinlogPosition.of("bin.000001", 1_000), 0);
        assertEquals(0, r.seconds(), "no rate after one sample");
        // 2,000 bytes applied in 2 s: 1,000 B/s; the source wrote on meanwhile, 9,000 bytes are left
        r.sample(logs(12_000), BinlogPosition.of("bin.000001", 3_000), 2 * SECOND);
        assertEquals(9.0, r.seconds(), 1e-9);
    }

    @Test
    void theRateCountsBytesAcrossARotation() {
        RemainingTime r = new RemainingTime();
        r.sample(logs(5_000, 100), BinlogPosition.of("bin.000001", 4_000), 0);
        // 1,000 bytes to the end of file 1 and 1,000 into file 2 in 1 s; 4,000 left in file 2
        r.sample(logs(5_000, 5_000), BinlogPosition.of("bin.000002", 1_000), SECOND);
        assertEquals(2.0, r.seconds(), 1e-9);
    }

    @Test
    void aStandstillKeepsTheLastEstimateAndCaughtUpIsZero() {
        RemainingTime r = new RemainingTime();
        r.sample(logs(10_000), BinlogPosition.of("bin.000001", 0), 0);
        r.sample(logs(10_000), BinlogPosition.of("bin.000001", 5_000), SECOND);
        assertEquals(1.0, r.seconds(), 1e-9);
        r.sample(logs(10_000), BinlogPosition.of("bin.000001", 5_000), 2 * SECOND);
        assertEquals(1.0, r.seconds(), 1e-9);
        r.sample(logs(10_000), BinlogPosition.of("bin.000001", 10_000), 3 * SECOND);
        assertEquals(0, r.seconds());
    }

    @Test
    void theSameListIsOneSampleAndAnUnlistedFileIsNone() {
        RemainingTime r = new RemainingTime();
        BinaryLogs l = logs(10_000);
        r.sample(l, BinlogPosition.of("bin.000001", 0), 0);
        r.sample(l, BinlogPosition.of("bin.000001", 5_000), SECOND);
        assertEquals(0, r.seconds(), "the list read before the first sample measures nothing new");
        r.sample(logs(10_000), BinlogPosition.of("other.000001", 5_000), 2 * SECOND);
        assertEquals(0, r.seconds());
        r.sample(logs(10_000), BinlogPosition.of("bin.000001", 6_000), 3 * SECOND);
        // 6,000 bytes in 3 s since the first sample; 4,000 left
        assertEquals(2.0, r.seconds(), 1e-9);
    }
}
