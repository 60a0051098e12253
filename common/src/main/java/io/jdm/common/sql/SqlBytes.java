package io.jdm.common.sql;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable UTF-8 byte buffer that SQL text is built in, reused from statement to statement: the
 * dump writes rows straight from the driver's bytes into it and from it to the file, without a
 * {@link String} per value or a re-encoding per statement. Not thread-safe.
 */
public final class SqlBytes {
    private byte[] buf;
    private int len;

    public SqlBytes(int capacity) {
        this.buf = new byte[Math.max(16, capacity)];
    }

    /** Bytes written so far. */
    public int length() {
        return len;
    }

    /** Empties the buffer, keeping its capacity. */
    public void clear() {
        len = 0;
    }

    /** One ASCII character. */
    public SqlBytes append(char ascii) {
        if (len == buf.length) {
            grow(1);
        }
        buf[len++] = (byte) ascii;
        return this;
    }

    /** Text of ASCII characters only (numbers, keywords, temporal literals). */
    public SqlBytes appendAscii(CharSequence s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** Any text, encoded as UTF-8. */
    public SqlBytes appendUtf8(CharSequence s) {
        return append(s.toString().getBytes(StandardCharsets.UTF_8));
    }

    public SqlBytes append(byte[] bytes) {
        return append(bytes, 0, bytes.length);
    }

    public SqlBytes append(byte[] bytes, int off, int n) {
        ensure(n);
        System.arraycopy(bytes, off, buf, len, n);
        len += n;
        return this;
    }

    /** Writes the content to {@code out}; the buffer keeps it. */
    public void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, len);
    }

    /** Makes room for {@code n} more bytes, so that callers can then use {@link #put(byte)}. */
    void ensure(int n) {
        if (buf.length - len < n) {
            grow(n);
        }
    }

    /** Appends without a capacity check: only after {@link #ensure(int)}. */
    void put(byte b) {
        buf[len++] = b;
    }

    /**
     * The two upper-case hex digits of each of {@code n} bytes of {@code src} from {@code off}, written
     * with local indexes (the long commands run on C1, which keeps a field in memory in a loop).
     */
    void putHex(byte[] src, int off, int n) {
        ensure(2 * n);
        byte[] o = buf;
        int j = len;
        for (int i = off, end = off + n; i < end; i++) {
            int d = (src[i] & 0xff) << 1;
            o[j] = HEX_DIGITS[d];
            o[j + 1] = HEX_DIGITS[d + 1];
            j += 2;
        }
        len = j;
    }

    /** For byte b, its two hex digits at 2b and 2b + 1. */
    private static final byte[] HEX_DIGITS = new byte[512];

    static {
        byte[] digits = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
        for (int b = 0; b < 256; b++) {
            HEX_DIGITS[2 * b] = digits[b >> 4];
            HEX_DIGITS[2 * b + 1] = digits[b & 15];
        }
    }

    private void grow(int n) {
        long want = Math.max((long) len + n, (long) buf.length * 2);
        if (want > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("SQL text over 2 GB");
        }
        buf = Arrays.copyOf(buf, (int) want);
    }

    /** The content as text (for tests and messages). */
    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }
}
