package io.jdm.load;

import io.jdm.common.sql.SqlScanner;
import java.util.Locale;

/**
 * Reads the head of one SQL statement: keywords and identifiers, skipping whitespace and the
 * comments the server skips ({@link SqlText#SCANNER} tells which). Only the few leading words jdm
 * rewrites are parsed; the rest of a statement is passed through byte for byte.
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

    /** Skips white space and comments; a conditional comment the server runs is code and stops it. */
    SqlCursor skipSpace() {
        pos = SqlText.SCANNER.skipBlank(sql, pos, sql.length());
        return this;
    }

    /** Consumes {@code keyword} (case-insensitive, whole word) if it comes next. */
    boolean keyword(String keyword) {
        skipSpace();
        int end = pos + keyword.length();
        if (end > sql.length() || !sql.regionMatches(true, pos, keyword, 0, keyword.length())) {
            return false;
        }
        if (end < sql.length() && SqlScanner.isBareNameChar(sql.charAt(end))) {
            return false;
        }
        pos = end;
        return true;
    }

    /** The next bare word, upper-cased, without consuming it; "" when none. */
    String peekWord() {
        skipSpace();
        return sql.substring(pos, wordEnd()).toUpperCase(Locale.ROOT);
    }

    /** Reads one identifier: {@code `quoted`` name`}, {@code "quoted"} or a bare word. */
    String identifier() {
        skipSpace();
        if (pos >= sql.length()) {
            throw new IllegalArgumentException("expected a name at the end of the statement");
        }
        char q = sql.charAt(pos);
        if (q == '`' || q == '"') {
            SqlScanner.Token t = SqlText.SCANNER.token(sql, pos);
            if (t == null) {
                throw new IllegalArgumentException("unterminated quoted name");
            }
            String name = SqlScanner.unquote(sql, pos, t.end());
            pos = t.end();
            return name;
        }
        int end = wordEnd();
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

    /**
     * Reads a parenthesised list of names {@code (a, `b`, ...)}.
     *
     * @throws IllegalArgumentException when the text is not one
     */
    java.util.List<String> names() {
        java.util.List<String> names = new java.util.ArrayList<>();
        symbol('(');
        do {
            names.add(identifier());
        } while (!symbolIf(')') && symbol(','));
        return names;
    }

    /** Consumes {@code c}, which must come next; returns true. */
    private boolean symbol(char c) {
        if (!symbolIf(c)) {
            throw new IllegalArgumentException("expected '" + c + "' at character " + pos);
        }
        return true;
    }

    private boolean symbolIf(char c) {
        skipSpace();
        if (pos < sql.length() && sql.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private int wordEnd() {
        int end = pos;
        while (end < sql.length() && SqlScanner.isBareNameChar(sql.charAt(end))) {
            end++;
        }
        return end;
    }
}
