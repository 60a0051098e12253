package io.jdm.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntRangeSplitterTest {
    private static List<BigInteger> split(long min, long max, long est, long rows) {
        return IntRangeSplitter.boundaries(BigInteger.valueOf(min), BigInteger.valueOf(max), est, rows);
    }

    @Test
    void evenSplitIntoAboutEstimateOverRowsChunks() {
        assertEquals(List.of(BigInteger.valueOf(251), BigInteger.valueOf(501), BigInteger.valueOf(751)),
                split(1, 1000, 1000, 250));
    }

    @Test
    void smallTableOrNoChunkingGivesNoBoundaries() {
        assertEquals(List.of(), split(1, 1000, 100, 250));
        assertEquals(List.of(), split(1, 1000, 1000, 0));
        assertEquals(List.of(), split(5, 5, 1000, 10));
    }

    @Test
    void neverMoreChunksThanDistinctKeys() {
        List<BigInteger> b = split(1, 3, 1_000_000, 10);
        assertEquals(List.of(BigInteger.valueOf(2), BigInteger.valueOf(3)), b);
    }

    @Test
    void boundariesAreStrictlyIncreasingInsideTheRange() {
        List<BigInteger> b = split(-50, 1_000_003, 77_777, 1000);
        assertEquals(77, b.size());
        for (int i = 1; i < b.size(); i++) {
            assertTrue(b.get(i).compareTo(b.get(i - 1)) > 0);
        }
        assertTrue(b.get(0).compareTo(BigInteger.valueOf(-50)) > 0);
        assertTrue(b.get(b.size() - 1).compareTo(BigInteger.valueOf(1_000_003)) <= 0);
    }

    @Test
    void unsignedBigintRangeDoesNotOverflow() {
        BigInteger max = new BigInteger("18446744073709551615");
        List<BigInteger> b = IntRangeSplitter.boundaries(BigInteger.ZERO, max, 400, 100);
        assertEquals(3, b.size());
        assertEquals(new BigInteger("4611686018427387904"), b.get(0));
        assertEquals(new BigInteger("13835058055282163712"), b.get(2));
    }
}
