package io.jdm.load;

import io.jdm.common.sql.SqlLexer;
import io.jdm.common.sql.SqlScanner.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a stream of SQL text into statements at top-level semicolons without ever holding more
 * than one statement (and one read ahead) in memory, and reports each statement's byte span in the
 * (uncompressed) stream. The text is read by {@link SqlLexer} under the dumps' dialect ({@link
 * SqlText#DIALECT}): it works on bytes, so UTF-8 text and raw binary inside string literals pass
 * through untouched and offsets are exact. Comments stay in the statement text; the server skips
 * them. A statement that holds only comments is none.
 *
 * <p>The stream is read into one buffer that the statements are handed out of as they are, not
 * copied: a {@link Statement}'s bytes are valid until the next call to {@link #next()} ({@link
 * Statement#text()} and {@link Statement#copy()} keep them longer).
 */
final class StatementLexer {
    /**
     * One complete statement: {@code bytes()[from(), to())}, without the terminating semicolon,
     * and its span {@code start..end} in the stream.
     */
    static final class Statement {
        private final byte[] bytes;
        private final int from;
        private final int to;
        private final long start;
        private final long end;
        private final int topLevelGroups;

        Statement(byte[] bytes, int from, int to, long start, long end, int topLevelGroups) {
            this.bytes = bytes;
            this.from = from;
            this.to = to;
            this.start = start;
            this.end = end;
            this.topLevelGroups = topLevelGroups;
        }

        /** The buffer the statement is in, valid until the lexer's next call to {@link #next()}. */
        byte[] bytes() {
            return bytes;
        }

        int from() {
            return from;
        }

        int to() {
            return to;
        }

        int length() {
            return to - from;
        }

        /** The statement's bytes, copied. */
        byte[] text() {
            return Arrays.copyOfRange(bytes, from, to);
        }

        /** This statement with its own copy of its bytes, to be kept past the lexer's next statement. */
        Statement copy() {
            return new Statement(text(), 0, length(), start, end, topLevelGroups);
        }

        /** Stream offset of the statement's first byte (the end of the one before). */
        long start() {
            return start;
        }

        /** Stream offset just past its semicolon. */
        long end() {
            return end;
        }

        /** Parenthesised groups at the statement's top level (an INSERT's rows, and its column list). */
        int topLevelGroups() {
            return topLevelGroups;
        }
    }

    /** The stream ended inside a statement, or a statement outgrew the limit. */
    static final class MalformedSqlException extends Exception {
        private static final long serialVersionUID = 1L;
        private final long offset;

        MalformedSqlException(String message, long offset) {
            super(message);
            this.offset = offset;
        }

        long offset() {
            return offset;
        }
    }

    private final InputStream in;
    /** Bytes asked of the stream at a time. */
    private final int chunk;
    private final long maxStatementBytes;
    private final SqlLexer lexer = new SqlLexer(SqlText.DIALECT);
    private byte[] buf;
    /** Where the current statement starts in {@link #buf}. */
    private int from;
    /** Bytes of {@link #buf} the lexer has read. */
    private int scanned;
    /** Bytes of {@link #buf} filled from the stream. */
    private int len;
    /** Stream offset of {@code buf[0]}. */
    private long base;
    private boolean eof;

    StatementLexer(InputStream in, int bufferSize, long maxStatementBytes) {
        this.in = in;
        this.chunk = bufferSize;
        this.buf = new byte[bufferSize];
        this.maxStatementBytes = maxStatementBytes;
    }

    StatementLexer(InputStream in) {
        this(in, 1 << 16, 1L << 30);
    }

    /** Bytes consumed so far. */
    long offset() {
        return base + scanned;
    }

    /** The next statement, or null at a clean end of stream (only whitespace and comments left). */
    Statement next() throws IOException, MalformedSqlException {
        while (true) {
            if (scanned == len && !fill()) {
                return atEof();
            }
            int stop = lexer.scan(buf, scanned, len);
            checkSize((stop < 0 ? len : stop - 1) - from);
            if (stop < 0) {
                scanned = len;
                continue;
            }
            scanned = stop;
            Statement s = finish(stop);
            if (s != null) {
                return s;
            }
        }
    }

    /**
     * Reads more of the stream behind what is there. A full buffer first drops the statements
     * already handed out (moving the current one to the front) when that frees at least half of
     * it, else it doubles: a statement is copied at most about once on its way through.
     */
    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        if (len == buf.length) {
            int keep = len - from;
            if (from > 0 && keep <= buf.length / 2) {
                System.arraycopy(buf, from, buf, 0, keep);
                base += from;
                scanned -= from;
                len = keep;
                from = 0;
            } else {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
        }
        int n = in.readNBytes(buf, len, Math.min(chunk, buf.length - len));
        if (n <= 0) {
            eof = true;
            return false;
        }
        len += n;
        return true;
    }

    private void checkSize(long statementBytes) throws MalformedSqlException {
        if (statementBytes > maxStatementBytes) {
            throw new MalformedSqlException("the statement starting at byte offset " + (base + from)
                    + " is larger than " + maxStatementBytes + " bytes", base + from);
        }
    }

    private Statement atEof() throws MalformedSqlException {
        lexer.end();
        Kind open = lexer.unterminated();
        long stmtStart = base + from;
        if (lexer.hasContent() || open != null) {
            throw new MalformedSqlException("the file ends inside a statement that starts at byte offset "
                    + stmtStart + " (" + describe(open) + "): the file is truncated or corrupt", stmtStart);
        }
        return null;
    }

    private static String describe(Kind open) {
        if (open == null) {
            return "no terminating semicolon";
        }
        return switch (open) {
            case STRING -> "unterminated string";
            case IDENTIFIER -> "unterminated identifier";
            default -> "unterminated comment";
        };
    }

    /**
     * Ends the current statement at {@code stop} (just past its semicolon); returns null when it
     * held no code (a stray ';' or comments).
     */
    private Statement finish(int stop) {
        Statement s = null;
        if (lexer.hasContent()) {
            int a = from;
            int b = stop - 1;
            while (a < b && SqlLexer.isBlank(buf[a])) {
                a++;
            }
            while (b > a && SqlLexer.isBlank(buf[b - 1])) {
                b--;
            }
            s = new Statement(buf, a, b, base + from, base + stop, lexer.groups());
        }
        from = stop;
        lexer.newStatement();
        return s;
    }
}
