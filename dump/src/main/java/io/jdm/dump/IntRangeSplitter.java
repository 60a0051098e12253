package io.jdm.dump;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an integer key's [min, max] into about {@code estimatedRows / rowsPerChunk} equal ranges,
 * as Dumpling does. The boundaries are interior points; the first and last chunks are open-ended so
 * every key is covered whatever the estimate was.
 */
final class IntRangeSplitter {
    private IntRangeSplitter() {
    }

    /** Interior boundaries b1 < b2 < … (chunk i is [b(i), b(i+1))); empty when one chunk is enough. */
    static List<BigInteger> boundaries(BigInteger min, BigInteger max, long estimatedRows, long rowsPerChunk) {
        if (rowsPerChunk <= 0 || estimatedRows <= rowsPerChunk || min.compareTo(max) >= 0) {
            return List.of();
        }
        BigInteger span = max.subtract(min).add(BigInteger.ONE);
        long wanted = (estimatedRows + rowsPerChunk - 1) / rowsPerChunk;
        BigInteger n = BigInteger.valueOf(wanted).min(span);
        List<BigInteger> out = new ArrayList<>();
        BigInteger previous = min;
        for (BigInteger i = BigInteger.ONE; i.compareTo(n) < 0; i = i.add(BigInteger.ONE)) {
            BigInteger b = min.add(span.multiply(i).divide(n));
            if (b.compareTo(previous) > 0) {
                out.add(b);
                previous = b;
            }
        }
        return out;
    }
}
