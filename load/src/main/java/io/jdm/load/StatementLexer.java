package io.jdm.load;

import io.jdm.common.sql.SqlLexer;
import io.jdm.common.sql.SqlScanner.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a stream of SQL text into statements at top-level semicolons without ever holding more
 * than one statement in memory, and reports each statement's byte span in the (uncompressed)
 * stream. The text is read by {@link SqlLexer} under the dumps' dialect ({@link SqlText#DIALECT}):
 * it works on bytes, so UTF-8 text and raw binary inside string literals pass through untouched
 * and offsets are exact. Comments stay in the statement text; the server skips them. A statement
 * that holds only comments is none.
 */
final class StatementLexer {
    /** One complete statement; {@code text} excludes the terminating semicolon. */
    record Statement(byte[] text, long start, long end, int topLevelGroups) {
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
    private final byte[] buf;
    private final long maxStatementBytes;
    private final SqlLexer lexer = new SqlLexer(SqlText.DIALECT);
    private int bufPos;
    private int bufLen;
    private long offset; // stream offset of buf[bufPos]
    private byte[] acc = new byte[8192];
    private int accLen;
    private long stmtStart;
    private boolean eof;

    StatementLexer(InputStream in, int bufferSize, long maxStatementBytes) {
        this.in = in;
        this.buf = new byte[bufferSize];
        this.maxStatementBytes = maxStatementBytes;
    }

    StatementLexer(InputStream in) {
        this(in, 1 << 16, 1L << 30);
    }

    /** Bytes consumed so far. */
    long offset() {
        return offset;
    }

    /** The next statement, or null at a clean end of stream (only whitespace and comments left). */
    Statement next() throws IOException, MalformedSqlException {
        while (true) {
            if (bufPos == bufLen && !fill()) {
                return atEof();
            }
            int stop = lexer.scan(buf, bufPos, bufLen);
            if (stop < 0) {
                append(buf, bufPos, bufLen - bufPos);
                offset += bufLen - bufPos;
                bufPos = bufLen;
                continue;
            }
            append(buf, bufPos, stop - 1 - bufPos);
            offset += stop - bufPos;
            bufPos = stop;
            Statement s = finish(offset);
            if (s != null) {
                return s;
            }
        }
    }

    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        int n = in.readNBytes(buf, 0, buf.length);
        if (n <= 0) {
            eof = true;
            return false;
        }
        bufPos = 0;
        bufLen = n;
        return true;
    }

    private Statement atEof() throws MalformedSqlException {
        lexer.end();
        Kind open = lexer.unterminated();
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

    /** Ends the current statement; returns null when it held no code (a stray ';' or comments). */
    private Statement finish(long stmtEnd) {
        Statement s = null;
        if (lexer.hasContent()) {
            int from = 0;
            int to = accLen;
            while (from < to && SqlLexer.isBlank(acc[from])) {
                from++;
            }
            while (to > from && SqlLexer.isBlank(acc[to - 1])) {
                to--;
            }
            s = new Statement(Arrays.copyOfRange(acc, from, to), stmtStart, stmtEnd, lexer.groups());
        }
        accLen = 0;
        stmtStart = stmtEnd;
        lexer.newStatement();
        return s;
    }

    private void append(byte[] b, int from, int len) throws MalformedSqlException {
        if (len <= 0) {
            return;
        }
        if (accLen + (long) len > maxStatementBytes) {
            throw new MalformedSqlException("the statement starting at byte offset " + stmtStart
                    + " is larger than " + maxStatementBytes + " bytes", stmtStart);
        }
        if (accLen + len > acc.length) {
            acc = Arrays.copyOf(acc, Math.max(acc.length * 2, accLen + len));
        }
        System.arraycopy(b, from, acc, accLen, len);
        accLen += len;
    }
}
