package io.jdm.common.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Turns a canonical Java value into the SQL literal that reloads to the identical value. The one
 * encoder behind dump files, sync statements and verify.
 *
 * <p>Canonical values, per MySQL type: {@code null}; integers as {@link Long} or {@link BigInteger}
 * (any {@link Number} is accepted); DECIMAL as {@link BigDecimal}; FLOAT as {@link Float}, DOUBLE
 * as {@link Double}; BIT as big-endian {@code byte[]} or {@link Long}; DATE, DATETIME, TIMESTAMP
 * (UTC), TIME and YEAR as {@link String} in MySQL's own text form; character types, ENUM, SET and
 * JSON as {@link String}, or as a {@link JsonDocument} where its types matter (a JSON column
 * then gets an expression that rebuilds them); binary types and GEOMETRY (SRID + WKB) as {@code byte[]}.
 *
 * <p>Strings use single quotes and the backslash escapes mysqldump writes ({@code \0 \n \r \\ \' \Z}),
 * so a quote-aware lexer finds every statement boundary; the reader's session must not use
 * {@code NO_BACKSLASH_ESCAPES}. Bytes become {@code 0x…} hex ({@code x''} when empty, because
 * {@code ''} would be padded differently by BINARY(n)); BIT becomes {@code b'…'}.
 */
public final class ValueEncoder {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** For each byte value, the character after the backslash that escapes it, or 0 when it needs none. */
    private static final byte[] ESCAPE = new byte[256];
    private static final long BACKSLASHES = ByteWords.repeat('\\');

    static {
        ESCAPE[0] = '0';
        ESCAPE['\n'] = 'n';
        ESCAPE['\r'] = 'r';
        ESCAPE['\\'] = '\\';
        ESCAPE['\''] = '\'';
        ESCAPE[26] = 'Z';
    }

    private ValueEncoder() {
    }

    /** Appends the literal for {@code value} as a value of {@code column}. */
    public static void append(StringBuilder sb, TypedColumn column, Object value) {
        if (value == null) {
            sb.append("NULL");
        } else if ("bit".equals(column.dataType())) {
            appendBit(sb, column, value);
        } else if (value instanceof String s) {
            appendString(sb, s);
        } else if (value instanceof JsonDocument j) {
            if ("json".equals(column.dataType())) {
                j.appendTo(sb);
            } else {
                appendString(sb, j.text());
            }
        } else if (value instanceof byte[] b) {
            appendHex(sb, b);
        } else if (value instanceof Long || value instanceof Integer || value instanceof BigInteger
                || value instanceof Short || value instanceof Byte) {
            sb.append(value);
        } else if (value instanceof BigDecimal d) {
            sb.append(d.toPlainString());
        } else if (value instanceof Float f) {
            // A FLOAT's exact value as a double: the server parses decimal text into a double and
            // then narrows, so the float's shortest text (3.4028235E38) could round out of range.
            appendDouble(sb, column, f.doubleValue());
        } else if (value instanceof Double d) {
            appendDouble(sb, column, d);
        } else if (value instanceof Boolean b) {
            sb.append(b ? '1' : '0');
        } else if (value instanceof CharSequence cs) {
            appendString(sb, cs);
        } else if (value instanceof Number n) {
            sb.append(new BigDecimal(n.toString()).toPlainString());
        } else {
            throw new IllegalArgumentException("column " + column.name() + " (" + column.columnType()
                    + "): cannot encode a value of type " + value.getClass().getName());
        }
    }

    /** {@link #append(StringBuilder, TypedColumn, Object)} as UTF-8 bytes; strings and bytes are escaped in place. */
    public static void append(SqlBytes out, TypedColumn column, Object value) {
        if (value == null) {
            out.appendAscii("NULL");
        } else if (value instanceof byte[] b && !"bit".equals(column.dataType())) {
            appendHex(out, b);
        } else {
            StringBuilder sb = new StringBuilder();
            append(sb, column, value);
            out.appendUtf8(sb);
        }
    }

    /** The literal for {@code value} as a new string. */
    public static String encode(TypedColumn column, Object value) {
        StringBuilder sb = new StringBuilder();
        append(sb, column, value);
        return sb.toString();
    }

    /** A quoted string literal with mysqldump's backslash escapes. */
    public static void appendString(StringBuilder sb, CharSequence s) {
        sb.append('\'');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case 0 -> sb.append("\\0");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\\' -> sb.append("\\\\");
                case '\'' -> sb.append("\\'");
                case 26 -> sb.append("\\Z");
                default -> sb.append(c);
            }
        }
        sb.append('\'');
    }

    /**
     * A quoted string literal of text already encoded as UTF-8, escaped byte by byte: every escaped
     * character is ASCII and UTF-8 never uses ASCII bytes inside a multi-byte character, so this
     * writes the same bytes as {@link #appendString(StringBuilder, CharSequence)} then encoding.
     */
    public static void appendString(SqlBytes out, byte[] utf8) {
        appendString(out, utf8, 0, utf8.length);
    }

    /** {@link #appendString(SqlBytes, byte[])} of {@code len} bytes of {@code utf8} from {@code off}. */
    public static void appendString(SqlBytes out, byte[] utf8, int off, int len) {
        int n = off + len;
        int lastWord = n - 8;
        out.ensure(len + 2);
        out.put((byte) '\'');
        int run = off;
        int i = off;
        while (true) {
            // The common case: eight bytes checked at once, copied later with their run. All escaped
            // bytes are below 40 (NUL, LF, CR, ^Z, quote) or the backslash; bytes of multi-byte UTF-8
            // characters (0x80 and up) never match. A clean word may match (a space), never the
            // reverse; the word that matches is then read byte by byte.
            while (i <= lastWord) {
                long w = ByteWords.word(utf8, i);
                if ((ByteWords.below(w, 40) | ByteWords.equal(w, BACKSLASHES)) != 0) {
                    break;
                }
                i += 8;
            }
            if (i >= n) {
                break;
            }
            for (int end = Math.min(i + 8, n); i < end; i++) {
                byte e = ESCAPE[utf8[i] & 0xFF];
                if (e != 0) {
                    out.append(utf8, run, i - run);
                    out.append('\\').append((char) e);
                    run = i + 1;
                }
            }
        }
        out.append(utf8, run, n - run);
        out.append('\'');
    }

    /** {@code 0x0A0B}, or {@code x''} for no bytes. */
    public static void appendHex(SqlBytes out, byte[] bytes) {
        appendHex(out, bytes, 0, bytes.length);
    }

    /** {@link #appendHex(SqlBytes, byte[])} of {@code len} bytes of {@code bytes} from {@code off}. */
    public static void appendHex(SqlBytes out, byte[] bytes, int off, int len) {
        if (len == 0) {
            out.appendAscii("x''");
            return;
        }
        out.ensure(2 + 2 * len);
        out.put((byte) '0');
        out.put((byte) 'x');
        out.putHex(bytes, off, len);
    }

    /** {@code 0x0A0B}, or {@code x''} for no bytes. */
    public static void appendHex(StringBuilder sb, byte[] bytes) {
        if (bytes.length == 0) {
            sb.append("x''");
            return;
        }
        sb.append("0x");
        for (byte b : bytes) {
            sb.append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
        }
    }

    private static void appendDouble(StringBuilder sb, TypedColumn column, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("column " + column.name() + ": " + d
                    + " cannot be stored in MySQL");
        }
        sb.append(d == 0 && 1 / d < 0 ? NEGATIVE_ZERO : Double.toString(d));
    }

    /**
     * The literal of a FLOAT or DOUBLE {@code -0}: the server prints it {@code -0}, which as a literal
     * is the integer 0 negated, stored {@code +0}; as a double literal the sign stays.
     */
    public static final String NEGATIVE_ZERO = "-0e0";

    /** True when {@code len} bytes of {@code buf} from {@code off} are the text {@code -0}, as the server prints a FLOAT or DOUBLE -0. */
    public static boolean isNegativeZero(byte[] buf, int off, int len) {
        return len == 2 && buf[off] == '-' && buf[off + 1] == '0';
    }

    private static void appendBit(StringBuilder sb, TypedColumn column, Object value) {
        BigInteger bits;
        if (value instanceof byte[] b) {
            bits = new BigInteger(1, b);
        } else if (value instanceof Long l) {
            bits = new BigInteger(Long.toUnsignedString(l));
        } else if (value instanceof Number n) {
            bits = new BigInteger(n.toString());
        } else if (value instanceof Boolean b) {
            bits = b ? BigInteger.ONE : BigInteger.ZERO;
        } else {
            throw new IllegalArgumentException("column " + column.name() + " (" + column.columnType()
                    + "): BIT needs byte[] or a number, got " + value.getClass().getName());
        }
        if (bits.signum() < 0) {
            throw new IllegalArgumentException("column " + column.name() + ": BIT value must not be negative");
        }
        sb.append("b'").append(bits.toString(2)).append('\'');
    }
}
