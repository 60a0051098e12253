package io.jdm.common.sql;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.util.Arrays;

/**
 * MySQL's and MariaDB's {@code latin1}: Windows-1252, except that the five bytes Windows leaves
 * undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) are the C1 controls of the same number. Java's
 * {@code windows-1252} reads those five as U+FFFD, which a target then stores as {@code ?}; this
 * charset reads and writes every one of the 256 bytes as the servers do (checked against each
 * flavour's own {@code CONVERT} in {@code MysqlLatin1IT}). A character outside those 256 has no
 * latin1 byte: the servers write {@code ?} for it, this encoder reports it unmappable.
 */
public final class MysqlLatin1 extends Charset {
    /** The one instance. */
    public static final MysqlLatin1 INSTANCE = new MysqlLatin1();

    /** The character of each byte 0x80–0x9F; the other bytes are the code point of their number. */
    private static final char[] HIGH_C1 = {
        '\u20ac', '\u0081', '\u201a', '\u0192', '\u201e', '\u2026', '\u2020', '\u2021',
        '\u02c6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008d', '\u017d', '\u008f',
        '\u0090', '\u2018', '\u2019', '\u201c', '\u201d', '\u2022', '\u2013', '\u2014',
        '\u02dc', '\u2122', '\u0161', '\u203a', '\u0153', '\u009d', '\u017e', '\u0178'};
    private static final char[] TO_UNICODE = new char[256];
    /** The byte of each character below U+2200, or -1. */
    private static final short[] FROM_UNICODE = new short[0x2200];

    static {
        Arrays.fill(FROM_UNICODE, (short) -1);
        for (int b = 0; b < 256; b++) {
            char c = b >= 0x80 && b < 0xa0 ? HIGH_C1[b - 0x80] : (char) b;
            TO_UNICODE[b] = c;
            FROM_UNICODE[c] = (short) b;
        }
    }

    private MysqlLatin1() {
        super("x-mysql-latin1", null);
    }

    /** The character the latin1 byte {@code b} is. */
    public static char toUnicode(byte b) {
        return TO_UNICODE[b & 0xff];
    }

    /** The latin1 byte of code point {@code cp} (0–255), or -1 when latin1 has none. */
    public static int fromUnicode(int cp) {
        return cp >= 0 && cp < FROM_UNICODE.length ? FROM_UNICODE[cp] : -1;
    }

    @Override
    public boolean contains(Charset cs) {
        return cs == this || "US-ASCII".equals(cs.name());
    }

    @Override
    public CharsetDecoder newDecoder() {
        return new CharsetDecoder(this, 1f, 1f) {
            @Override
            protected CoderResult decodeLoop(ByteBuffer in, CharBuffer out) {
                while (in.hasRemaining()) {
                    if (!out.hasRemaining()) {
                        return CoderResult.OVERFLOW;
                    }
                    out.put(TO_UNICODE[in.get() & 0xff]);
                }
                return CoderResult.UNDERFLOW;
            }
        };
    }

    @Override
    public CharsetEncoder newEncoder() {
        return new CharsetEncoder(this, 1f, 1f, new byte[] {'?'}) {
            @Override
            protected CoderResult encodeLoop(CharBuffer in, ByteBuffer out) {
                while (in.hasRemaining()) {
                    char c = in.get(in.position());
                    int b = fromUnicode(c);
                    if (b < 0) {
                        return Character.isHighSurrogate(c) && in.remaining() > 1
                                && Character.isLowSurrogate(in.get(in.position() + 1))
                                ? CoderResult.unmappableForLength(2) : Character.isSurrogate(c)
                                ? CoderResult.malformedForLength(1) : CoderResult.unmappableForLength(1);
                    }
                    if (!out.hasRemaining()) {
                        return CoderResult.OVERFLOW;
                    }
                    out.put((byte) b);
                    in.position(in.position() + 1);
                }
                return CoderResult.UNDERFLOW;
            }

            @Override
            public boolean canEncode(char c) {
                return fromUnicode(c) >= 0;
            }
        };
    }
}
