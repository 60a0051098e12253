package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteWordsTest {
    private static final byte[] ALPHABET = {'a', '0', '\'', '"', '\\', '*', '\n', '\t', 0, 26, 11, 39, 40,
            (byte) 0x80, (byte) 0xA7, (byte) 0xDC, (byte) 0xFF, (byte) 0x27 | (byte) 0x80};

    @Test
    void indexOfEitherFindsTheFirstOfTwoBytesAnywhere() {
        Random random = new Random(7);
        for (int round = 0; round < 20_000; round++) {
            byte[] b = text(random, random.nextInt(40));
            int from = b.length == 0 ? 0 : random.nextInt(b.length + 1);
            int end = from + random.nextInt(b.length - from + 1);
            int x = "'\"\\*\n".charAt(random.nextInt(5));
            int y = random.nextBoolean() ? x : '\\';
            int expected = end;
            for (int i = from; i < end; i++) {
                if (b[i] == x || b[i] == y) {
                    expected = i;
                    break;
                }
            }
            assertEquals(expected, ByteWords.indexOfEither(b, from, end, x, y), () -> "in " + java.util.Arrays.toString(b));
        }
    }

    @Test
    void theFirstFlaggedByteOfAWordIsTheFirstThatMatches() {
        Random random = new Random(11);
        for (int round = 0; round < 20_000; round++) {
            byte[] b = text(random, 8);
            long w = ByteWords.word(b, 0);
            int c = ALPHABET[random.nextInt(ALPHABET.length)];
            int n = 1 + random.nextInt(128);
            int firstEqual = 8;
            int firstBelow = 8;
            for (int i = 7; i >= 0; i--) {
                if (b[i] == (byte) c) {
                    firstEqual = i;
                }
                if ((b[i] & 0xFF) < n) {
                    firstBelow = i;
                }
            }
            long eq = ByteWords.equal(w, ByteWords.repeat(c));
            long below = ByteWords.below(w, n);
            assertEquals(firstEqual, eq == 0 ? 8 : ByteWords.first(eq), "equal to " + c);
            assertEquals(firstBelow, below == 0 ? 8 : ByteWords.first(below), "below " + n);
        }
    }

    private static byte[] text(Random random, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = random.nextInt(3) == 0 ? ALPHABET[random.nextInt(ALPHABET.length)] : (byte) ('a' + random.nextInt(26));
        }
        return b;
    }
}
