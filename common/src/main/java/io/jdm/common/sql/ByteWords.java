package io.jdm.common.sql;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Eight bytes of SQL text tested at once: the dump's escaping, the load's statement splitting and
 * its conversion to LOAD DATA rows spend most of their time looking for the few bytes that matter
 * (a quote, a backslash, a control character) in long runs of bytes that do not. Each test is a
 * handful of arithmetic operations on a {@code long} read from the array, little-endian, so the
 * lowest flagged byte is the first in the text.
 *
 * <p>The tests are small enough for the quick compiler jdm runs with to inline them: callers keep
 * their loops and call these for the word in hand.
 */
public final class ByteWords {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** The byte 0x01 eight times. */
    public static final long ONES = 0x0101010101010101L;
    /** The top bit of each byte. */
    public static final long HIGHS = 0x8080808080808080L;

    private ByteWords() {
    }

    /** The eight bytes of {@code b} from {@code i}, the first in the lowest byte. */
    public static long word(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    /** The byte {@code c} in every byte of a word, to compare with {@link #equal}. */
    public static long repeat(int c) {
        return (c & 0xFFL) * ONES;
    }

    /**
     * The top bit of each byte of {@code w} equal to the byte repeated in {@code r}, exact up to and
     * including the first equal byte (above it a byte may be flagged that is not equal): zero when
     * no byte is equal, and otherwise {@link #first} finds the first that is.
     */
    public static long equal(long w, long r) {
        long x = w ^ r;
        return (x - ONES) & ~x & HIGHS;
    }

    /**
     * The top bit of each byte of {@code w} below {@code n} (n at most 128), exact up to and
     * including the first such byte, like {@link #equal}. Bytes 0x80 and up are never below.
     */
    public static long below(long w, int n) {
        return (w - n * ONES) & ~w & HIGHS;
    }

    /** The index, from 0, of the first byte flagged in {@code mask} (not 0). */
    public static int first(long mask) {
        return Long.numberOfTrailingZeros(mask) >>> 3;
    }

    /** The index of the first {@code x} or {@code y} in {@code b[i, end)}, or {@code end}. */
    public static int indexOfEither(byte[] b, int i, int end, int x, int y) {
        long rx = repeat(x);
        long ry = repeat(y);
        for (int last = end - 8; i <= last; i += 8) {
            long w = word(b, i);
            long m = equal(w, rx) | equal(w, ry);
            if (m != 0) {
                return i + first(m);
            }
        }
        for (; i < end; i++) {
            if (b[i] == (byte) x || b[i] == (byte) y) {
                return i;
            }
        }
        return end;
    }
}
