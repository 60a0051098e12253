package io.jdm.load;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a stream of SQL text into statements at top-level semicolons without ever holding more
 * than one statement in memory, and reports each statement's byte span in the (uncompressed)
 * stream. It works on bytes: every character that matters to the grammar is ASCII, so UTF-8 text
 * and raw binary inside string literals pass through untouched and offsets are exact.
 *
 * <p>Understood: single and double quoted strings with backslash escapes and doubled quotes,
 * backticked identifiers, {@code -- } and {@code #} line comments, {@code /* *}{@code /} block
 * comments. Version comments ({@code /*!40101 ... *}{@code /}) and optimizer hints
 * ({@code /*+ ... *}{@code /}) count as code: the server executes them. Comments stay in the
 * statement text; the server skips them.
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

    private enum State {
        CODE, SINGLE, SINGLE_ESC, DOUBLE, DOUBLE_ESC, BACKTICK, DASH, DASH_DASH, SLASH, SLASH_STAR,
        LINE_COMMENT, BLOCK, BLOCK_STAR, EXEC_COMMENT, EXEC_COMMENT_STAR
    }

    private final InputStream in;
    private final byte[] buf;
    private final long maxStatementBytes;
    private int bufPos;
    private int bufLen;
    private long offset; // stream offset of buf[bufPos]
    private byte[] acc = new byte[8192];
    private int accLen;
    private long stmtStart;
    private boolean hasCode;
    private int depth;
    private int groups;
    private State state = State.CODE;
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
            int i = bufPos;
            int end = bufLen;
            byte[] b = buf;
            while (i < end) {
                if (state == State.SINGLE || state == State.DOUBLE) {
                    // string literals are most of a dump's bytes: skip to the next quote or backslash
                    i = literalEnd(b, i, end, state == State.SINGLE ? (byte) '\'' : (byte) '"');
                    if (i == end) {
                        break;
                    }
                }
                byte c = b[i++];
                if (state.ordinal() >= State.DASH.ordinal() && state.ordinal() <= State.SLASH.ordinal()
                        && !continuesComment(c)) {
                    hasCode = true; // a lone '-', '--x' or '/' was code after all
                    state = State.CODE;
                }
                if (c == ';' && state == State.CODE) {
                    long stmtEnd = offset + (i - bufPos);
                    append(b, bufPos, i - 1 - bufPos);
                    offset = stmtEnd;
                    bufPos = i;
                    Statement s = finish(stmtEnd);
                    if (s != null) {
                        return s;
                    }
                    i = bufPos;
                    continue;
                }
                step(c);
            }
            append(b, bufPos, end - bufPos);
            offset += end - bufPos;
            bufPos = end;
        }
    }

    /** The index of the first {@code quote} or backslash in {@code b[i, end)}, or {@code end}. */
    private static int literalEnd(byte[] b, int i, int end, byte quote) {
        while (i < end) {
            byte c = b[i];
            if (c == quote || c == '\\') {
                return i;
            }
            i++;
        }
        return end;
    }

    private boolean continuesComment(byte c) {
        return switch (state) {
            case DASH -> c == '-';
            case DASH_DASH -> isSpace(c) || (c >= 0 && c < 32);
            case SLASH -> c == '*';
            default -> true;
        };
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
        boolean open = switch (state) {
            case SINGLE, SINGLE_ESC, DOUBLE, DOUBLE_ESC, BACKTICK, BLOCK, BLOCK_STAR, SLASH_STAR,
                    EXEC_COMMENT, EXEC_COMMENT_STAR -> true;
            default -> false;
        };
        boolean code = hasCode || state == State.DASH || state == State.SLASH;
        if (code || open) {
            throw new MalformedSqlException("the file ends inside a statement that starts at byte offset "
                    + stmtStart + " (" + describe(state) + "): the file is truncated or corrupt", stmtStart);
        }
        return null;
    }

    private static String describe(State s) {
        return switch (s) {
            case SINGLE, SINGLE_ESC, DOUBLE, DOUBLE_ESC -> "unterminated string";
            case BACKTICK -> "unterminated identifier";
            case BLOCK, BLOCK_STAR, SLASH_STAR, EXEC_COMMENT, EXEC_COMMENT_STAR -> "unterminated comment";
            default -> "no terminating semicolon";
        };
    }

    /** Ends the current statement; returns null when it held no code (a stray ';' or comments). */
    private Statement finish(long stmtEnd) {
        Statement s = null;
        if (hasCode) {
            int from = 0;
            int to = accLen;
            while (from < to && isSpace(acc[from])) {
                from++;
            }
            while (to > from && isSpace(acc[to - 1])) {
                to--;
            }
            s = new Statement(Arrays.copyOfRange(acc, from, to), stmtStart, stmtEnd, groups);
        }
        accLen = 0;
        stmtStart = stmtEnd;
        hasCode = false;
        depth = 0;
        groups = 0;
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

    private void step(byte c) {
        switch (state) {
            case CODE -> code(c);
            case SINGLE -> state = c == '\\' ? State.SINGLE_ESC : c == '\'' ? State.CODE : State.SINGLE;
            case SINGLE_ESC -> state = State.SINGLE;
            case DOUBLE -> state = c == '\\' ? State.DOUBLE_ESC : c == '"' ? State.CODE : State.DOUBLE;
            case DOUBLE_ESC -> state = State.DOUBLE;
            case BACKTICK -> state = c == '`' ? State.CODE : State.BACKTICK;
            case DASH -> state = State.DASH_DASH;
            case DASH_DASH -> state = c == '\n' ? State.CODE : State.LINE_COMMENT;
            case SLASH -> state = State.SLASH_STAR;
            case SLASH_STAR -> {
                if (c == '!' || c == '+') {
                    hasCode = true;
                    state = State.EXEC_COMMENT;
                } else {
                    state = c == '*' ? State.BLOCK_STAR : State.BLOCK;
                }
            }
            case LINE_COMMENT -> state = c == '\n' ? State.CODE : State.LINE_COMMENT;
            case BLOCK -> state = c == '*' ? State.BLOCK_STAR : State.BLOCK;
            case BLOCK_STAR -> state = c == '/' ? State.CODE : c == '*' ? State.BLOCK_STAR : State.BLOCK;
            case EXEC_COMMENT -> state = c == '*' ? State.EXEC_COMMENT_STAR : State.EXEC_COMMENT;
            case EXEC_COMMENT_STAR -> state = c == '/' ? State.CODE
                    : c == '*' ? State.EXEC_COMMENT_STAR : State.EXEC_COMMENT;
            default -> throw new IllegalStateException(state.name());
        }
    }

    private void code(byte c) {
        switch (c) {
            case '\'' -> {
                hasCode = true;
                state = State.SINGLE;
            }
            case '"' -> {
                hasCode = true;
                state = State.DOUBLE;
            }
            case '`' -> {
                hasCode = true;
                state = State.BACKTICK;
            }
            case '#' -> state = State.LINE_COMMENT;
            case '-' -> state = State.DASH;
            case '/' -> state = State.SLASH;
            case '(' -> {
                hasCode = true;
                if (depth++ == 0) {
                    groups++;
                }
            }
            case ')' -> {
                hasCode = true;
                depth = Math.max(0, depth - 1);
            }
            default -> {
                if (!isSpace(c)) {
                    hasCode = true;
                }
            }
        }
    }

    static boolean isSpace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0x0b;
    }
}
