package io.jdm.load;

import java.util.Locale;

/**
 * Reads the head of one SQL statement: keywords and identifiers, skipping whitespace and plain
 * comments. Only the few leading words jdm rewrites are parsed; the rest of a statement is passed
 * through byte for byte.
 */
final class SqlCursor {
    private final String sql;
    private int pos;

    SqlCursor(String sql) {
        this(sql, 0);
    }

    SqlCursor(String sql, int pos) {
        this.sql = sql;
        this.pos = pos;
    }

    int pos() {
        return pos;
    }

    String rest() {
        return sql.substring(pos);
    }

    /** Skips whitespace and {@code --}, {@code #} and {@code /* *}{@code /} comments (not {@code /*!}). */
    SqlCursor skipSpace() {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '#' || (c == '-' && sql.startsWith("--", pos) && (pos + 2 >= sql.length()
                    || Character.isWhitespace(sql.charAt(pos + 2)) || sql.charAt(pos + 2) < 32))) {
                int nl = sql.indexOf('\n', pos);
                pos = nl < 0 ? sql.length() : nl + 1;
            } else if (c == '/' && sql.startsWith("/*", pos) && !sql.startsWith("/*!", pos)
                    && !sql.startsWith("/*+", pos)) {
                int end = sql.indexOf("*/", pos + 2);
                pos = end < 0 ? sql.length() : end + 2;
            } else {
                return this;
            }
        }
        return this;
    }

    /** Consumes {@code keyword} (case-insensitive, whole word) if it comes next. */
    boolean keyword(String keyword) {
        skipSpace();
        int end = pos + keyword.length();
        if (end > sql.length() || !sql.regionMatches(true, pos, keyword, 0, keyword.length())) {
            return false;
        }
        if (end < sql.length() && isWordChar(sql.charAt(end))) {
            return false;
        }
        pos = end;
        return true;
    }

    /** The next bare word, upper-cased, without consuming it; "" when none. */
    String peekWord() {
        skipSpace();
        int end = pos;
        while (end < sql.length() && isWordChar(sql.charAt(end))) {
            end++;
        }
        return sql.substring(pos, end).toUpperCase(Locale.ROOT);
    }

    /** Reads one identifier: {@code `quoted`` name`}, {@code "quoted"} or a bare word. */
    String identifier() {
        skipSpace();
        if (pos >= sql.length()) {
            throw new IllegalArgumentException("expected a name at the end of the statement");
        }
        char q = sql.charAt(pos);
        if (q == '`' || q == '"') {
            StringBuilder sb = new StringBuilder();
            int i = pos + 1;
            while (i < sql.length()) {
                char c = sql.charAt(i);
                if (c == q) {
                    if (i + 1 < sql.length() && sql.charAt(i + 1) == q) {
                        sb.append(q);
                        i += 2;
                        continue;
                    }
                    pos = i + 1;
                    return sb.toString();
                }
                sb.append(c);
                i++;
            }
            throw new IllegalArgumentException("unterminated quoted name");
        }
        int end = pos;
        while (end < sql.length() && isWordChar(sql.charAt(end))) {
            end++;
        }
        if (end == pos) {
            throw new IllegalArgumentException("expected a name at character " + pos);
        }
        String name = sql.substring(pos, end);
        pos = end;
        return name;
    }

    /** Reads {@code name} or {@code schema.name}; the schema is null when absent. */
    String[] qualifiedName() {
        String first = identifier();
        if (pos < sql.length() && sql.charAt(pos) == '.') {
            pos++;
            return new String[] {first, identifier()};
        }
        return new String[] {null, first};
    }

    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 0x7f;
    }
}
