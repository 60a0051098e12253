package io.jdm.load;

import io.jdm.common.sql.SqlBytes;
import io.jdm.common.sql.SqlScanner;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the rows of one rewritten {@code INSERT ... VALUES (..), (..)} into LOAD DATA's text
 * ({@link #FORMAT}), or finds that they cannot be expressed there exactly. Only values whose text
 * reaches the target column through the same conversion as the literal are taken:
 *
 * <ul>
 *   <li>{@code NULL} as {@code \N}; unquoted numbers into numeric columns (into ENUM, SET, BIT, YEAR
 *       or a string a number means something else than its text);</li>
 *   <li>quoted strings, their SQL escapes undone and LOAD DATA's escapes applied;</li>
 *   <li>{@code X'..'}, {@code 0x..}, {@code b'..'}, {@code 0b..} into string, binary, BIT and
 *       geometry columns, and {@code _binary '..'} into any, as their bytes; the text is then read
 *       as binary, which a UTF-8 session's strings survive only where
 *       {@link TargetColumns.Column#sameAsBinary} says so.</li>
 * </ul>
 *
 * Anything else (expressions, functions, {@code DEFAULT}, other introducers, comments, a
 * generated column, {@code ON DUPLICATE KEY UPDATE}) makes the statement go by INSERT. The
 * values are read with the dump files' scanner ({@link SqlText#SCANNER}); the caller makes sure
 * the session reads literals as it does (no ANSI_QUOTES, no NO_BACKSLASH_ESCAPES).
 */
final class LoadDataRows {
    /** The LOAD DATA clauses the text is written for. */
    static final String FORMAT = "FIELDS TERMINATED BY ',' ENCLOSED BY '\"' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n'";

    /**
     * The statement's rows, written to the caller's buffer.
     *
     * @param columns the INSERT's column list as it wrote it ({@code (`a`,`b`)}), or "" when it had none
     * @param binary the text must be read as {@code CHARACTER SET binary}
     */
    record Rows(long rows, String columns, boolean binary) {
    }

    private LoadDataRows() {
    }

    /**
     * Writes the rows of {@code sql} (a statement {@link InsertRewriter#rewrite} wrote) to {@code out}.
     *
     * @param binaryNames the session reads statements as binary ({@code SET NAMES binary}); otherwise as UTF-8
     * @return the rows, or null when some value cannot be expressed exactly
     */
    static Rows convert(String sql, TargetColumns table, boolean binaryNames, SqlBytes out) {
        out.clear();
        SqlCursor c = new SqlCursor(sql);
        List<TargetColumns.Column> columns;
        String list = "";
        try {
            if (!c.keyword("INSERT") && !c.keyword("REPLACE")) {
                return null;
            }
            c.keyword("IGNORE");
            c.keyword("INTO");
            c.qualifiedName();
            int open = c.skipSpace().pos();
            if (open < sql.length() && sql.charAt(open) == '(') {
                columns = new ArrayList<>();
                c = new SqlCursor(sql, open + 1);
                while (true) {
                    TargetColumns.Column col = table.column(c.identifier());
                    if (col == null) {
                        return null;
                    }
                    columns.add(col);
                    int at = c.skipSpace().pos();
                    char next = at < sql.length() ? sql.charAt(at) : 0;
                    c = new SqlCursor(sql, at + 1);
                    if (next == ')') {
                        break;
                    }
                    if (next != ',') {
                        return null;
                    }
                }
                list = sql.substring(open, c.pos());
            } else {
                if (table.hasInvisible()) {
                    return null;
                }
                columns = table.all();
            }
        } catch (IllegalArgumentException e) {
            return null; // not the head jdm wrote: the INSERT path reports it
        }
        if (!c.keyword("VALUES") && !c.keyword("VALUE")) {
            return null;
        }
        Writer w = new Writer(sql, c.pos(), columns, out);
        SqlText.SCANNER.scan(sql, c.pos(), sql.length(), w);
        if (!w.finished()) {
            return null;
        }
        if (w.bytesSeen && !binaryNames && !w.stringsSameAsBinary) {
            return null;
        }
        return new Rows(w.rows, list, binaryNames || w.bytesSeen);
    }

    /** Reads the VALUES list segment by segment and writes each row as a line of fields. */
    private static final class Writer implements SqlScanner.Sink {
        private static final int WANT_ROW = 0;
        private static final int IN_ROW = 1;
        private static final int AFTER_ROW = 2;

        private final String sql;
        private final int from;
        private final List<TargetColumns.Column> columns;
        private final SqlBytes out;
        private int state = WANT_ROW;
        private boolean failed;
        private int field;
        private boolean valueWritten;
        /** The word of the current field (a number, NULL, a prefix), -1 when none; {@code wordEnd} when it ended. */
        private int wordStart = -1;
        private int wordEnd = -1;
        long rows;
        boolean bytesSeen;
        boolean stringsSameAsBinary = true;

        Writer(String sql, int from, List<TargetColumns.Column> columns, SqlBytes out) {
            this.sql = sql;
            this.from = from;
            this.columns = columns;
            this.out = out;
        }

        boolean finished() {
            return !failed && state == AFTER_ROW && rows > 0;
        }

        @Override
        public void segment(SqlScanner.Kind kind, int start, int end) {
            if (failed || end <= from) {
                return;
            }
            switch (kind) {
                case CODE -> code(Math.max(start, from), end);
                case STRING -> string(start, end);
                default -> failed = true; // a name, a comment or a conditional comment among the values
            }
        }

        private void code(int start, int end) {
            for (int i = start; i < end && !failed; i++) {
                char ch = sql.charAt(i);
                if (isWordChar(ch)) {
                    if (state != IN_ROW || valueWritten || (wordStart >= 0 && wordEnd >= 0)) {
                        failed = true; // a second word, or a word after a value: an expression
                    } else if (wordStart < 0) {
                        wordStart = i;
                    }
                    continue;
                }
                endWord(i);
                if (Character.isWhitespace(ch)) {
                    continue;
                }
                switch (ch) {
                    case '(' -> {
                        if (state != WANT_ROW) {
                            failed = true; // a function call or a nested expression
                        } else {
                            state = IN_ROW;
                            field = 0;
                        }
                    }
                    case ',' -> {
                        if (state == IN_ROW) {
                            endField();
                            field++;
                            out.append(',');
                        } else if (state == AFTER_ROW) {
                            state = WANT_ROW;
                        } else {
                            failed = true;
                        }
                    }
                    case ')' -> {
                        if (state != IN_ROW) {
                            failed = true;
                        } else {
                            endField();
                            if (field + 1 != columns.size()) {
                                failed = true;
                            }
                            out.append('\n');
                            rows++;
                            state = AFTER_ROW;
                        }
                    }
                    default -> failed = true;
                }
            }
            endWord(end);
        }

        private void endWord(int i) {
            if (wordStart >= 0 && wordEnd < 0) {
                wordEnd = i;
            }
        }

        private TargetColumns.Column column() {
            if (field >= columns.size() || columns.get(field).generated()) {
                failed = true;
                return null;
            }
            return columns.get(field);
        }

        /** A field ends: what it held was a word alone (NULL, a number, 0x.., 0b..) unless a string was written. */
        private void endField() {
            if (valueWritten) {
                valueWritten = false;
                return;
            }
            TargetColumns.Column col = column();
            if (failed || wordStart < 0) {
                failed = true; // an empty field
                return;
            }
            int a = wordStart;
            int b = wordEnd;
            wordStart = wordEnd = -1;
            if (b - a == 4 && sql.regionMatches(true, a, "NULL", 0, 4)) {
                out.append('\\').append('N');
            } else if (b - a > 2 && sql.charAt(a) == '0' && (sql.charAt(a + 1) == 'x' || sql.charAt(a + 1) == 'b')) {
                bytes(col, decode(a + 2, b, sql.charAt(a + 1) == 'x' ? 4 : 1, false));
            } else if (isNumber(a, b) && col.numeric()) {
                out.appendAscii(sql.subSequence(a, b));
            } else {
                failed = true;
            }
        }

        private void string(int start, int end) {
            if (state != IN_ROW || valueWritten || end - start < 2) {
                failed = true;
                return;
            }
            TargetColumns.Column col = column();
            if (failed) {
                return;
            }
            String prefix = wordStart < 0 ? "" : sql.substring(wordStart, wordEnd < 0 ? start : wordEnd);
            boolean adjacent = wordStart >= 0 && (wordEnd < 0 || wordEnd == start);
            wordStart = wordEnd = -1;
            valueWritten = true;
            if (prefix.isEmpty()) {
                text(start, end, col, false);
            } else if (adjacent && prefix.length() == 1 && "xXbB".indexOf(prefix.charAt(0)) >= 0
                    && sql.charAt(start) == '\'') {
                bytes(col, decode(start + 1, end - 1, prefix.equalsIgnoreCase("x") ? 4 : 1, true));
            } else if (prefix.equalsIgnoreCase("_binary")) {
                bytesSeen = true;
                text(start, end, col, true);
            } else {
                failed = true; // N'..', another character set's introducer
            }
        }

        /** A quoted string between {@code start} and {@code end} (quotes included), as an enclosed field. */
        private void text(int start, int end, TargetColumns.Column col, boolean binary) {
            char q = sql.charAt(start);
            int stop = end - 1;
            boolean ascii = true;
            out.append('"');
            int run = start + 1;
            int i = run;
            while (i < stop) {
                char ch = sql.charAt(i);
                if (ch >= 0x80) {
                    ascii = false;
                    i++;
                    continue;
                }
                if (ch != '\\' && ch != q && !needsEscape(ch)) {
                    i++;
                    continue;
                }
                out.appendUtf8(sql, run, i);
                if (ch == '\\') {
                    char e = i + 1 < stop ? sql.charAt(i + 1) : 0;
                    if (e == 0 || e >= 0x80) {
                        failed = true; // the server keeps such a character; rare enough to leave to INSERT
                        return;
                    }
                    int u = SqlText.unescaped(e);
                    if (u < 0) {
                        escaped('\\');
                        escaped(e);
                    } else {
                        escaped(u);
                    }
                    i += 2;
                } else if (ch == q) {
                    escaped(q); // a doubled quote
                    i += 2;
                } else {
                    escaped(ch);
                    i++;
                }
                run = i;
            }
            out.appendUtf8(sql, run, stop);
            out.append('"');
            if (!binary && !col.sameAsBinary(ascii)) {
                stringsSameAsBinary = false;
            }
        }

        /** Hex ({@code bits} 4) or binary ({@code bits} 1) digits as bytes, or null when they are not such digits. */
        private byte[] decode(int start, int end, int bits, boolean quoted) {
            int digits = end - start;
            int perByte = 8 / bits;
            if (bits == 4 && quoted && digits % 2 != 0) {
                return null; // X'ABC' is an error the INSERT reports
            }
            byte[] b = new byte[(digits + perByte - 1) / perByte];
            int shift = 0;
            int pos = b.length - 1;
            for (int i = end - 1; i >= start; i--) {
                int d = Character.digit(sql.charAt(i), 1 << bits);
                if (d < 0) {
                    return null;
                }
                b[pos] |= (byte) (d << shift);
                shift += bits;
                if (shift == 8) {
                    shift = 0;
                    pos--;
                }
            }
            return b;
        }

        private void bytes(TargetColumns.Column col, byte[] b) {
            if (b == null || !col.takesBytes()) {
                failed = true;
                return;
            }
            bytesSeen = true;
            out.append('"');
            int run = 0;
            for (int i = 0; i < b.length; i++) {
                int v = b[i] & 0xFF;
                if (v == '\\' || v == '"' || needsEscape((char) v)) {
                    out.append(b, run, i - run);
                    escaped(v);
                    run = i + 1;
                }
            }
            out.append(b, run, b.length - run);
            out.append('"');
        }

        /** Characters written with LOAD DATA's escapes though inside quotes: NUL, and line ends. */
        private static boolean needsEscape(char ch) {
            return ch == 0 || ch == '\n' || ch == '\r' || ch == '"';
        }

        private void escaped(int ch) {
            switch (ch) {
                case 0 -> out.append('\\').append('0');
                case '\n' -> out.append('\\').append('n');
                case '\r' -> out.append('\\').append('r');
                case '\\' -> out.append('\\').append('\\');
                case '"' -> out.append('\\').append('"');
                default -> out.append((char) ch);
            }
        }

        /** {@code -12}, {@code 3.5}, {@code .5}, {@code 1e300}, {@code -2.5E-10}: what the server reads as one number. */
        private boolean isNumber(int a, int b) {
            int i = a;
            if (i < b && sql.charAt(i) == '-') {
                i++;
            }
            int digits = 0;
            while (i < b && Character.isDigit(sql.charAt(i))) {
                i++;
                digits++;
            }
            if (i < b && sql.charAt(i) == '.') {
                i++;
                while (i < b && Character.isDigit(sql.charAt(i))) {
                    i++;
                    digits++;
                }
            }
            if (digits == 0) {
                return false;
            }
            if (i < b && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
                i++;
                if (i < b && (sql.charAt(i) == '-' || sql.charAt(i) == '+')) {
                    i++;
                }
                int exp = 0;
                while (i < b && Character.isDigit(sql.charAt(i))) {
                    i++;
                    exp++;
                }
                if (exp == 0) {
                    return false;
                }
            }
            return i == b;
        }

        private static boolean isWordChar(char ch) {
            return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_'
                    || ch == '.' || ch == '-' || ch == '+' || ch == '$';
        }
    }
}
