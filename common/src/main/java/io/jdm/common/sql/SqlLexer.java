package io.jdm.common.sql;

import io.jdm.common.sql.SqlScanner.Kind;

/**
 * The one state machine that reads SQL text the way the server's lexer splits it before any
 * grammar, under one {@link SqlDialect}. It is fed text in pieces of any size, down to one byte,
 * and carries its state from piece to piece, so a dump file is read as a stream and a
 * {@link String} a character at a time ({@link SqlScanner}) by the same code.
 *
 * <p>It reads bytes: every character that matters to it is ASCII, so UTF-8 text and raw binary
 * inside literals pass through untouched and positions are exact byte offsets. Text is fed one
 * byte per character (non-ASCII as {@code 0x80}), so its positions are character indexes.
 *
 * <p>What it reports: the text as consecutive {@link Kind segments} (to an optional sink), each
 * top-level semicolon (outside literals, comments and conditional comments), whether a statement
 * holds anything the server runs and where that starts, its top-level parenthesised groups, and
 * the literal or comment left open at the end. A segment is reported once its end is known, so
 * the sink lags the input by at most the open token. Not thread-safe: one instance per stream.
 */
public final class SqlLexer {

    /** Receives the text as consecutive stretches that cover all of it, in order. */
    @FunctionalInterface
    public interface Segments {
        void segment(Kind kind, long start, long end);
    }

    // code, and the four token bodies that are skipped in bulk
    private static final int CODE = 0;
    private static final int STRING = 1;
    private static final int IDENT = 2;
    private static final int LINE = 3;
    private static final int BLOCK = 4;
    // one character decides what came before
    private static final int STRING_ESC = 5;
    private static final int STRING_END = 6; // a closing quote, unless the next character doubles it
    private static final int IDENT_END = 7;
    private static final int BLOCK_STAR = 8;
    private static final int DASH = 9;
    private static final int DASH_DASH = 10;
    private static final int SLASH = 11;
    private static final int SLASH_STAR = 12;
    private static final int SLASH_STAR_M = 13;
    private static final int MARK_DIGITS = 14; // /*! or /*M! and up to six digits of a version
    private static final int RUN_STAR = 15; // '*' inside a conditional comment the server runs

    // what a byte in code is: special ones start or end something, the rest are content (plain) or blank
    private static final byte PLAIN = 0;
    private static final byte BLANK = 1;
    private static final byte SPECIAL = 2;
    private static final byte[] BYTES = new byte[256];
    private static final long SEMICOLONS = ByteWords.repeat(';');
    private static final long BACKTICKS = ByteWords.repeat('`');

    static {
        for (char c : ";'\"`#-/*()".toCharArray()) {
            if (c >= '0' && c != ';' && c != '`') {
                throw new IllegalStateException("skipCode's eight-byte test misses special byte " + c);
            }
            BYTES[c] = SPECIAL;
        }
        for (char c : " \n\r\t\f\u000b".toCharArray()) {
            BYTES[c] = BLANK;
        }
    }

    private final boolean ansiQuotes;
    private final boolean backslashEscapes;
    private final long serverVersion;
    private final Segments sink;

    private int state = CODE;
    private int quote;
    private boolean inRun; // inside a conditional comment the server runs: its text is code
    private long position; // of the next byte fed
    private long tokenStart; // of the open or pending token
    private long codeStart; // of the code stretch not yet reported
    private long markEnd; // just past the '!' of a conditional comment being read
    private int digits;
    private long version;

    private boolean content;
    private long contentStart = -1;
    private int depth;
    private int groups;

    /** A lexer that reports no segments: for splitting statements. */
    public SqlLexer(SqlDialect dialect) {
        this(dialect, null);
    }

    public SqlLexer(SqlDialect dialect, Segments sink) {
        this.ansiQuotes = dialect.ansiQuotes();
        this.backslashEscapes = !dialect.noBackslashEscapes();
        this.serverVersion = dialect.serverVersion();
        this.sink = sink;
    }

    /** White space to the server's lexer: space, tab, line feed, carriage return, form feed, vertical tab. */
    public static boolean isBlank(int c) {
        return BYTES[c & 0xff] == BLANK;
    }

    /** Bytes fed so far. */
    public long position() {
        return position;
    }

    /**
     * Feeds {@code b[from, to)} and stops just past the first top-level semicolon in it.
     *
     * @return the index just past that semicolon, or -1 when all of {@code b[from, to)} was fed without one
     */
    public int scan(byte[] b, int from, int to) {
        long base = position - from;
        int i = from;
        while (i < to) {
            int s = state;
            if (s == CODE) {
                i = skipCode(b, i, to, base);
                if (i == to) {
                    break;
                }
            } else if (s <= BLOCK) {
                // literals are most of a dump's bytes: jump to the next byte that can end one
                i = s == STRING ? ByteWords.indexOfEither(b, i, to, quote, backslashEscapes ? '\\' : quote)
                        : s == IDENT ? ByteWords.indexOfEither(b, i, to, quote, quote)
                        : s == LINE ? ByteWords.indexOfEither(b, i, to, '\n', '\n')
                        : ByteWords.indexOfEither(b, i, to, '*', '*');
                if (i == to) {
                    break;
                }
            }
            int c = b[i] & 0xff;
            i++;
            if (step(c, base + i - 1)) {
                position = base + i;
                return i;
            }
        }
        position = base + to;
        return -1;
    }

    /** Feeds one character; true when it is a top-level semicolon. */
    public boolean feed(int c) {
        return step(c, position++);
    }

    /** The end of the input: settles what the last characters were and reports the last segments. */
    public void end() {
        long pos = position;
        switch (state) {
            case DASH, SLASH, RUN_STAR -> codeAfterAll();
            case DASH_DASH -> { // the server reads "--" at the end as a comment: its NUL terminator follows
                begin(tokenStart);
                state = LINE;
            }
            case MARK_DIGITS -> mark(pos);
            case STRING_END, IDENT_END -> close(openKind(), pos);
            default -> {
            }
        }
        if (state != CODE) {
            emit(openKind(), tokenStart, pos);
        } else if (codeStart < pos) {
            emit(Kind.CODE, codeStart, pos);
        }
    }

    /**
     * After {@link #end()}: what the input ended inside of ({@link Kind#STRING}, {@link Kind#IDENTIFIER},
     * {@link Kind#COMMENT}, or {@link Kind#VERSION_MARK} for a conditional comment never closed), or null.
     */
    public Kind unterminated() {
        if (state == LINE) {
            return null; // a line comment ends with the text
        }
        return state != CODE ? openKind() : inRun ? Kind.VERSION_MARK : null;
    }

    /** True when no literal, comment or undecided character is open: the last one fed was code or closed a token. */
    public boolean inCode() {
        return state == CODE;
    }

    /** True when the statement so far holds code: more than white space, plain comments and semicolons. */
    public boolean hasContent() {
        return content;
    }

    /** Where the statement's first code starts, or -1 while it has none. */
    public long contentStart() {
        return contentStart;
    }

    /** Parenthesised groups at depth 0 in the statement so far, outside conditional comments: a VALUES list's rows. */
    public int groups() {
        return groups;
    }

    /** Starts counting a new statement (after a top-level semicolon). */
    public void newStatement() {
        content = false;
        contentStart = -1;
        depth = 0;
        groups = 0;
    }

    private Kind openKind() {
        return switch (state) {
            case STRING, STRING_ESC, STRING_END -> Kind.STRING;
            case IDENT, IDENT_END -> Kind.IDENTIFIER;
            default -> Kind.COMMENT;
        };
    }

    /**
     * The index of the first byte in {@code b[i, end)} that {@link #code} has to decide on, or
     * {@code end}: names, numbers, commas and white space need no more than marking the content.
     */
    private int skipCode(byte[] b, int i, int end, long base) {
        if (!content) {
            while (i < end && BYTES[b[i] & 0xff] == BLANK) {
                i++;
            }
            if (i == end || BYTES[b[i] & 0xff] != PLAIN) {
                return i;
            }
            markContent(base + i);
        }
        // eight bytes at a time while none is special: every special byte is below '0' but ';' and '`'
        // (a dump's long runs of code are hex literals of binary values)
        for (int last = end - 8; i <= last; i += 8) {
            long w = ByteWords.word(b, i);
            if ((ByteWords.below(w, '0') | ByteWords.equal(w, SEMICOLONS) | ByteWords.equal(w, BACKTICKS)) != 0) {
                break;
            }
        }
        while (i < end && BYTES[b[i] & 0xff] != SPECIAL) {
            i++;
        }
        return i;
    }

    private boolean step(int c, long pos) {
        switch (state) {
            case CODE:
                return code(c, pos);
            case STRING:
                if (c == quote) {
                    state = STRING_END;
                } else if (c == '\\' && backslashEscapes) {
                    state = STRING_ESC;
                }
                return false;
            case STRING_ESC:
                state = STRING;
                return false;
            case IDENT:
                if (c == quote) {
                    state = IDENT_END;
                }
                return false;
            case STRING_END, IDENT_END:
                if (c == quote) { // a doubled quote stands for itself
                    state = state == STRING_END ? STRING : IDENT;
                    return false;
                }
                close(openKind(), pos);
                return code(c, pos);
            case LINE:
                if (c == '\n') {
                    close(Kind.COMMENT, pos); // the line break itself is white space
                }
                return false;
            case BLOCK:
                if (c == '*') {
                    state = BLOCK_STAR;
                }
                return false;
            case BLOCK_STAR:
                if (c == '/') {
                    close(Kind.COMMENT, pos + 1);
                } else if (c != '*') {
                    state = BLOCK;
                }
                return false;
            default:
                return pending(c, pos);
        }
    }

    /** The states where a character or two are held until the next one tells what they are. */
    private boolean pending(int c, long pos) {
        switch (state) {
            case DASH:
                if (c == '-') {
                    state = DASH_DASH;
                    return false;
                }
                break;
            case DASH_DASH:
                if (c <= ' ') { // "-- " and "--" before a control character start a comment
                    begin(tokenStart);
                    if (c == '\n') {
                        close(Kind.COMMENT, pos);
                    } else {
                        state = LINE;
                    }
                    return false;
                }
                if (c == '-') { // "---": the first dash is code, the next two may still start a comment
                    markContent(tokenStart);
                    tokenStart++;
                    return false;
                }
                break;
            case SLASH:
                if (c == '*') {
                    begin(tokenStart);
                    state = inRun ? BLOCK : SLASH_STAR; // no conditional comment inside a conditional comment
                    return false;
                }
                break;
            case SLASH_STAR:
                if (c == '!') {
                    startMark(pos);
                } else if (c == 'M') {
                    state = SLASH_STAR_M;
                } else {
                    if (c == '+') {
                        markContent(tokenStart); // an optimizer hint: the server reads it
                    }
                    state = c == '*' ? BLOCK_STAR : BLOCK;
                }
                return false;
            case SLASH_STAR_M:
                if (c == '!') {
                    startMark(pos);
                } else {
                    state = c == '*' ? BLOCK_STAR : BLOCK;
                }
                return false;
            case MARK_DIGITS:
                if (c >= '0' && c <= '9') {
                    version = version * 10 + (c - '0');
                    if (++digits == 6) {
                        mark(pos + 1);
                    }
                    return false;
                }
                mark(pos);
                return step(c, pos);
            case RUN_STAR:
                if (c == '/') {
                    begin(tokenStart);
                    emit(Kind.VERSION_MARK, tokenStart, pos + 1);
                    codeStart = pos + 1;
                    inRun = false;
                    state = CODE;
                    return false;
                }
                break;
            default:
                throw new IllegalStateException("lexer state " + state);
        }
        codeAfterAll();
        return code(c, pos);
    }

    /** The held characters were code after all. */
    private void codeAfterAll() {
        markContent(tokenStart);
        state = CODE;
    }

    private void startMark(long pos) {
        markEnd = pos + 1;
        digits = 0;
        version = 0;
        state = MARK_DIGITS;
    }

    /**
     * Settles a conditional comment whose version digits end at {@code end}. MySQL writes five digits
     * ({@code 50100} is 5.1.0) and newer ones six; MariaDB's {@code /*M!} is run by MariaDB only,
     * whose versions start at 10.0 (100000), above any MySQL version. Fewer than five digits are no
     * version: every server runs the comment, and the digits are code.
     */
    private void mark(long end) {
        if (digits < 5) {
            end = markEnd;
        } else if (version > serverVersion) {
            state = BLOCK; // for a newer server: a comment
            return;
        }
        emit(Kind.VERSION_MARK, tokenStart, end);
        markContent(tokenStart);
        codeStart = end;
        inRun = true;
        state = CODE;
    }

    private boolean code(int c, long pos) {
        if (c == ';') {
            return !inRun;
        }
        switch (c) {
            case '\'' -> open(STRING, c, pos);
            case '"' -> open(ansiQuotes ? IDENT : STRING, c, pos);
            case '`' -> open(IDENT, c, pos);
            case '#' -> {
                begin(pos);
                hold(LINE, pos);
            }
            case '-' -> hold(DASH, pos);
            case '/' -> hold(SLASH, pos);
            case '*' -> {
                if (inRun) {
                    hold(RUN_STAR, pos);
                } else {
                    markContent(pos);
                }
            }
            case '(' -> {
                markContent(pos);
                if (!inRun && depth++ == 0) {
                    groups++;
                }
            }
            case ')' -> {
                markContent(pos);
                if (!inRun && depth > 0) {
                    depth--;
                }
            }
            default -> {
                if (BYTES[c] != BLANK) {
                    markContent(pos);
                }
            }
        }
        return false;
    }

    /** A token (or what may turn out to be code) starts at {@code pos}. */
    private void hold(int pending, long pos) {
        tokenStart = pos;
        state = pending;
    }

    private void open(int kind, int q, long pos) {
        markContent(pos);
        begin(pos);
        tokenStart = pos;
        quote = q;
        state = kind;
    }

    private void markContent(long pos) {
        if (!content) {
            content = true;
            contentStart = pos;
        }
    }

    /** A token starts at {@code start}: the code before it is complete. */
    private void begin(long start) {
        if (codeStart < start) {
            emit(Kind.CODE, codeStart, start);
        }
        codeStart = start;
    }

    private void close(Kind kind, long end) {
        emit(kind, tokenStart, end);
        codeStart = end;
        state = CODE;
    }

    private void emit(Kind kind, long start, long end) {
        if (sink != null) {
            sink.segment(kind, start, end);
        }
    }
}
