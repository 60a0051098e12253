package io.jdm.load;

import io.jdm.common.sql.ByteWords;
import io.jdm.common.sql.MysqlLatin1;
import java.util.Arrays;

/**
 * Turns the rows of a dump's {@code INSERT ... VALUES} list into the text {@code LOAD DATA} reads
 * by default (fields ended by a tab, rows by a newline, {@code \} escapes, {@code \N} for NULL),
 * byte for byte, so that the server stores exactly what the INSERT would have stored.
 *
 * <p>Only values whose meaning is the same in both forms are converted: quoted strings (in any
 * column: the server stores a string the same way from either), NULL, unquoted numbers in numeric
 * columns, and hex literals in binary string columns. Anything else (an unquoted number in an ENUM,
 * YEAR or BIT column, where a number and its text mean different values; a hex literal in a text or
 * geometry column; functions, {@code DEFAULT}, comments) is {@link Unsupported}, and the caller
 * loads the statement as SQL instead. Strings are read with MySQL's default escapes, as the dumps
 * write them (a session with {@code NO_BACKSLASH_ESCAPES} or {@code ANSI_QUOTES} is not converted).
 */
final class TsvRows {
    /** What a column makes of an unquoted value. */
    enum Column {
        /** Integer, decimal and floating-point columns: an unquoted number is its text. */
        NUMBER,
        /** BINARY, VARBINARY and BLOB columns: a hex literal is its bytes. */
        BINARY,
        /**
         * A latin1 character column of rows read as {@code binary}: a string's UTF-8 (the dump's) is
         * written as the latin1 bytes the server would convert it to ({@link MysqlLatin1}); a
         * character latin1 has no byte for is {@link Unsupported}, as the server would change it.
         */
        LATIN1,
        /**
         * A utf8mb3 character column of rows read as {@code binary}: a string's UTF-8 goes as it is,
         * and a character of four bytes, which utf8mb3 cannot hold, is {@link Unsupported}.
         */
        UTF8MB3,
        /** Everything else: only quoted strings and NULL. */
        OTHER
    }

    /** A value or statement shape that the conversion does not carry; the statement loads as SQL. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported(String message) {
            super(message, null, false, false);
        }
    }

    /** A growable byte buffer the converted rows are appended to. */
    static final class Out {
        byte[] buf = new byte[1 << 16];
        int len;

        void clear() {
            len = 0;
        }

        void put(byte b) {
            if (len == buf.length) {
                grow(1);
            }
            buf[len++] = b;
        }

        void put(byte[] b, int from, int n) {
            if (len + n > buf.length) {
                grow(n);
            }
            System.arraycopy(b, from, buf, len, n);
            len += n;
        }

        /** Room for {@code n} more bytes in {@link #buf}. */
        void reserve(int n) {
            if (len + n > buf.length) {
                grow(n);
            }
        }

        private void grow(int n) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    private static final long BACKSLASHES = ByteWords.repeat('\\');
    /** The top bit of each of eight bytes: a byte of a UTF-8 character of several. */
    private static final long HIGH_BITS = 0x8080808080808080L;
    /** The top half of each of eight bytes, and what it is in the first byte of a UTF-8 character of four. */
    private static final long HIGH_HALVES = 0xF0F0F0F0F0F0F0F0L;
    private static final long FOUR_BYTE_LEADS = ByteWords.repeat(0xF0);
    /** The value of a hex digit byte, or -1. */
    private static final byte[] HEX_VALUE = new byte[256];
    /** For a byte of a value, the letter after the backslash LOAD DATA reads it by, or 0: the byte as it is. */
    private static final byte[] TSV_ESCAPE = new byte[256];

    /**
     * For two bytes read as one number ({@code first << 8 | second}): the byte two hex digits spell,
     * or {@code 0x100 |} the letter after the backslash LOAD DATA reads that byte by, or -1 where
     * either is not a hex digit. One lookup a pair instead of three: the decoding of a dump's
     * binary values was most of the load's CPU for rows of large BLOBs.
     */
    private static final short[] HEX_PAIR = new short[1 << 16];

    static {
        Arrays.fill(HEX_VALUE, (byte) -1);
        for (int d = 0; d < 16; d++) {
            HEX_VALUE[Character.forDigit(d, 16)] = (byte) d;
            HEX_VALUE[Character.toUpperCase(Character.forDigit(d, 16))] = (byte) d;
        }
        TSV_ESCAPE['\t'] = 't';
        TSV_ESCAPE['\n'] = 'n';
        TSV_ESCAPE['\\'] = '\\';
        Arrays.fill(HEX_PAIR, (short) -1);
        for (int hi = 0; hi < 256; hi++) {
            for (int lo = 0; lo < 256; lo++) {
                if (HEX_VALUE[hi] >= 0 && HEX_VALUE[lo] >= 0) {
                    int b = HEX_VALUE[hi] << 4 | HEX_VALUE[lo];
                    HEX_PAIR[hi << 8 | lo] = (short) (TSV_ESCAPE[b] == 0 ? b : 0x100 | TSV_ESCAPE[b]);
                }
            }
        }
    }

    /** The statement's bytes: {@code sql[start, end)}. */
    private final byte[] sql;
    private final int start;
    private final int end;

    private TsvRows(byte[] sql, int start, int end) {
        this.sql = sql;
        this.start = start;
        this.end = end;
    }

    /**
     * Appends the rows of the VALUES list that starts at {@code from} (just after the keyword) of the
     * statement {@code sql} to {@code out}.
     *
     * @param columns what each field's column is, in the order of the statement's fields
     * @return the number of rows appended
     * @throws Unsupported when a value cannot be carried exactly (out then holds a partial row)
     */
    static int append(byte[] sql, int from, Column[] columns, Out out) throws Unsupported {
        return append(sql, 0, from, sql.length, columns, out);
    }

    /**
     * As {@link #append(byte[], int, Column[], Out)}, for the statement {@code sql[start, end)};
     * {@code from} is an index into {@code sql}.
     */
    static int append(byte[] sql, int start, int from, int end, Column[] columns, Out out) throws Unsupported {
        return new TsvRows(sql, start, end).rows(from, columns, out);
    }

    private int rows(int from, Column[] columns, Out out) throws Unsupported {
        int i = skipBlank(from);
        int rows = 0;
        while (true) {
            if (i >= end || sql[i] != '(') {
                throw new Unsupported("expected a row at byte " + at(i) + " of the statement");
            }
            i = row(i + 1, columns, out);
            rows++;
            i = skipBlank(i);
            if (i >= end) {
                return rows;
            }
            if (sql[i] != ',') {
                throw new Unsupported("text after the VALUES list at byte " + at(i) + " of the statement");
            }
            i = skipBlank(i + 1);
        }
    }

    /** Where index {@code i} is in the statement. */
    private int at(int i) {
        return i - start;
    }

    /** One row from just after its {@code (}; returns the index after its {@code )}. */
    private int row(int i, Column[] columns, Out out) throws Unsupported {
        int field = 0;
        while (true) {
            i = skipBlank(i);
            if (field >= columns.length) {
                throw new Unsupported("a row has more values than the table has columns");
            }
            if (field > 0) {
                out.put((byte) '\t');
            }
            i = value(i, columns[field], out);
            field++;
            i = skipBlank(i);
            if (i >= end) {
                throw new Unsupported("the statement ends inside a row");
            }
            byte c = sql[i];
            if (c == ')') {
                if (field != columns.length) {
                    throw new Unsupported("a row has fewer values than the table has columns");
                }
                out.put((byte) '\n');
                return i + 1;
            }
            if (c != ',') {
                throw new Unsupported("unexpected text in a row at byte " + at(i) + " of the statement");
            }
            i++;
        }
    }

    private int value(int i, Column column, Out out) throws Unsupported {
        if (i >= end) {
            throw new Unsupported("the statement ends inside a row");
        }
        byte c = sql[i];
        if (c == '\'' || c == '"') {
            return string(i, out, column);
        }
        if (c == '0' && i + 2 < end && sql[i + 1] == 'x' && column == Column.BINARY) {
            // 0x… (how a dump writes a binary value): its digits decoded as they are scanned
            int mark = out.len;
            int to = hexPairs(i + 2, end, out);
            if (to > i + 2 && (to == end || !isWordByte(sql[to]))) {
                return to;
            }
            out.len = mark; // an odd count, or not hex after all: the general path below
        }
        int word = i;
        while (word < end && isWordByte(sql[word])) {
            word++;
        }
        if (word == i) {
            throw new Unsupported("unexpected text in a row at byte " + at(i) + " of the statement");
        }
        if (word - i == 4 && (c == 'N' || c == 'n') && regionIs(i, "NULL")) {
            out.put((byte) '\\');
            out.put((byte) 'N');
            return word;
        }
        if ((c == 'X' || c == 'x') && word - i == 1 && word < end && sql[word] == '\'') {
            return hexQuoted(word, column, out);
        }
        if (c == '0' && word - i > 2 && (sql[i + 1] == 'x')) {
            requireBinary(column);
            hex(i + 2, word, out);
            return word;
        }
        if (column != Column.NUMBER || !isNumber(i, word)) {
            throw new Unsupported("the value at byte " + at(i) + " of the statement is neither a string nor a number"
                    + " in a numeric column");
        }
        if (c == '-' && isZero(i + 1, word)) {
            i++; // -0.0 is a DECIMAL literal, which has no negative zero; as text a DOUBLE column would keep the sign
        }
        out.put(sql, i, word - i);
        return word;
    }

    /** Only zeros and a point: no exponent, after which the literal is a DOUBLE and keeps its sign. */
    private boolean isZero(int from, int to) {
        for (int i = from; i < to; i++) {
            if (sql[i] != '0' && sql[i] != '.') {
                return false;
            }
        }
        return true;
    }

    /**
     * A quoted string from its opening quote; returns the index after its closing quote. Into a
     * {@link Column#LATIN1} column its UTF-8 characters of several bytes are written as their latin1
     * bytes; into a {@link Column#UTF8MB3} one a character of four bytes is refused.
     */
    private int string(int start, Out out, Column column) throws Unsupported {
        byte[] sql = this.sql;
        int end = this.end;
        byte q = sql[start];
        long quotes = ByteWords.repeat(q);
        boolean latin1 = column == Column.LATIN1;
        boolean mb3 = column == Column.UTF8MB3;
        long high = latin1 ? HIGH_BITS : 0;
        long halves = mb3 ? HIGH_HALVES : 0;
        int i = start + 1;
        int run = i; // start of the bytes copied as they are
        for (int lastWord = end - 8; i < end; ) {
            // eight bytes at a time past those copied as they are: none below 11 (tab, line feed),
            // no quote, no backslash (and for latin1 no byte of a character of several, for utf8mb3
            // no first byte of a character of four)
            if (i <= lastWord) {
                long w = ByteWords.word(sql, i);
                if ((ByteWords.below(w, 11) | ByteWords.equal(w, quotes) | ByteWords.equal(w, BACKSLASHES)
                        | (w & high) | ByteWords.equal(w & halves, FOUR_BYTE_LEADS)) == 0) {
                    i += 8;
                    continue;
                }
            }
            byte c = sql[i];
            if (c < 0 && latin1) {
                out.put(sql, run, i - run);
                i = latin1(i, out);
                run = i;
            } else if (mb3 && (c & 0xf0) == 0xf0) {
                throw new Unsupported("a character of four bytes, which utf8mb3 cannot hold, at byte " + at(i)
                        + " of the statement");
            } else if (c == '\\') {
                out.put(sql, run, i - run);
                if (i + 1 >= end) {
                    break;
                }
                if ((latin1 || mb3) && sql[i + 1] < 0) {
                    throw new Unsupported("an escaped character of several bytes at byte " + at(i)
                            + " of the statement");
                }
                escape(sql[i + 1], out);
                i += 2;
                run = i;
            } else if (c == q) {
                out.put(sql, run, i - run);
                if (i + 1 < end && sql[i + 1] == q) {
                    out.put(q); // a doubled quote is one quote
                    i += 2;
                    run = i;
                } else {
                    return i + 1;
                }
            } else if (c == '\t' || c == '\n') {
                out.put(sql, run, i - run);
                out.put((byte) '\\');
                out.put(c == '\t' ? (byte) 't' : (byte) 'n');
                i++;
                run = i;
            } else {
                i++;
            }
        }
        throw new Unsupported("a string that starts at byte " + at(start) + " of the statement does not end");
    }

    /**
     * Writes the latin1 byte of the UTF-8 character that starts at {@code i} (a byte with its top
     * bit set); returns the index after the character.
     */
    private int latin1(int i, Out out) throws Unsupported {
        int b0 = sql[i] & 0xff;
        int n = b0 >= 0xc2 && b0 <= 0xdf ? 2 : b0 >= 0xe0 && b0 <= 0xef ? 3 : 0;
        int cp = n == 2 ? b0 & 0x1f : b0 & 0x0f;
        for (int k = 1; k < n; k++) {
            int b = i + k < end ? sql[i + k] & 0xff : 0;
            if ((b & 0xc0) != 0x80) {
                n = 0;
                break;
            }
            cp = cp << 6 | (b & 0x3f);
        }
        if (n == 3 && cp < 0x800) {
            n = 0; // an overlong form, which is not UTF-8
        }
        int latin1 = n == 0 ? -1 : MysqlLatin1.fromUnicode(cp);
        if (latin1 < 0) {
            throw new Unsupported("a character latin1 has no byte for, at byte " + at(i) + " of the statement");
        }
        out.put((byte) latin1);
        return i + n;
    }

    /** The SQL escape {@code \e} as LOAD DATA's escape of the same byte. */
    private static void escape(byte e, Out out) {
        switch (e) {
            case '0', 'b', 'n', 'r', 't', 'Z', '\\' -> { // the same escapes, the same bytes
                out.put((byte) '\\');
                out.put(e);
            }
            case '%', '_' -> { // SQL keeps the backslash of these two outside LIKE
                out.put((byte) '\\');
                out.put((byte) '\\');
                out.put(e);
            }
            default -> plain(e, out); // \x is x
        }
    }

    /** One byte of a value, escaped where LOAD DATA would read it as structure ({@link #TSV_ESCAPE}). */
    private static void plain(byte b, Out out) {
        byte e = TSV_ESCAPE[b & 0xff];
        if (e == 0) {
            out.put(b);
        } else {
            out.put((byte) '\\');
            out.put(e);
        }
    }

    private int hexQuoted(int quote, Column column, Out out) throws Unsupported {
        requireBinary(column);
        int close = quote + 1;
        while (close < end && sql[close] != '\'') {
            close++;
        }
        if (close >= end || (close - quote - 1) % 2 != 0) {
            throw new Unsupported("a malformed hex literal at byte " + at(quote) + " of the statement");
        }
        hex(quote + 1, close, out);
        return close + 1;
    }

    private static void requireBinary(Column column) throws Unsupported {
        if (column != Column.BINARY) {
            throw new Unsupported("a hex literal for a column that is not a binary string");
        }
    }

    /** The bytes the hex digits {@code sql[from, to)} spell (an odd count has a leading 0). */
    private void hex(int from, int to, Out out) throws Unsupported {
        int i = from;
        if ((to - from) % 2 != 0) {
            plain((byte) digit(sql[i++]), out);
        }
        if (hexPairs(i, to, out) != to) {
            throw new Unsupported("a malformed hex literal");
        }
    }

    /**
     * Decodes pairs of hex digits from {@code from} while there are, up to {@code limit}; returns the
     * index of the first byte not decoded.
     */
    private int hexPairs(int from, int limit, Out out) {
        byte[] sql = this.sql;
        int i = from;
        int last = limit - 1;
        while (i < last) {
            out.reserve(4096);
            byte[] o = out.buf;
            int len = out.len;
            for (int stop = Math.min(last, i + 2048); i < stop; i += 2) {
                int v = HEX_PAIR[(sql[i] & 0xff) << 8 | (sql[i + 1] & 0xff)];
                if ((v & ~0xff) == 0) {
                    o[len++] = (byte) v;
                } else if (v > 0) {
                    o[len++] = '\\';
                    o[len++] = (byte) v;
                } else {
                    out.len = len;
                    return i;
                }
            }
            out.len = len;
        }
        return i;
    }

    private static int digit(byte b) throws Unsupported {
        int d = HEX_VALUE[b & 0xff];
        if (d < 0) {
            throw new Unsupported("a malformed hex literal");
        }
        return d;
    }

    /** Digits with at most one point and an exponent: what a dump writes for a number. */
    private boolean isNumber(int from, int to) {
        int i = from;
        if (sql[i] == '-' || sql[i] == '+') {
            i++;
        }
        int digits = 0;
        boolean point = false;
        for (; i < to; i++) {
            byte c = sql[i];
            if (c >= '0' && c <= '9') {
                digits++;
            } else if (c == '.' && !point) {
                point = true;
            } else {
                break;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < to && (sql[i] == 'e' || sql[i] == 'E')) {
            i++;
            if (i < to && (sql[i] == '-' || sql[i] == '+')) {
                i++;
            }
            int exp = i;
            while (i < to && sql[i] >= '0' && sql[i] <= '9') {
                i++;
            }
            if (i == exp) {
                return false;
            }
        }
        return i == to;
    }

    /** Bytes of a bare value: letters, digits, {@code . + - _}. */
    private static boolean isWordByte(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                || c == '.' || c == '+' || c == '-' || c == '_';
    }

    private boolean regionIs(int i, String upper) {
        for (int k = 0; k < upper.length(); k++) {
            if (Character.toUpperCase(sql[i + k]) != upper.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private int skipBlank(int i) {
        while (i < end && (sql[i] == ' ' || sql[i] == '\n' || sql[i] == '\r' || sql[i] == '\t')) {
            i++;
        }
        return i;
    }
}
