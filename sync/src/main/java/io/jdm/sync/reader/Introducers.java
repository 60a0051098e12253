package io.jdm.sync.reader;

/**
 * Finds a charset introducer ({@code _latin1'…'}, {@code _binary"…"}) outside comments, strings
 * and quoted names. A statement is sent to the target as UTF-8 text decoded from the source
 * client's charset; every literal then means what it meant on the source (the target converts it
 * to the same collation_connection), except one with an introducer, whose bytes are taken as they
 * come: re-encoded, they are other bytes.
 */
final class Introducers {
    private Introducers() {
    }

    /** Where the first introducer starts, or -1. */
    static int find(String sql, boolean noBackslashEscapes) {
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i, c, c == '`' || noBackslashEscapes);
            } else if (c == '#' || (c == '-' && sql.startsWith("-- ", i))) {
                int e = sql.indexOf('\n', i);
                i = e < 0 ? n : e + 1;
            } else if (c == '/' && sql.startsWith("/*", i) && !sql.startsWith("/*!", i)
                    && !sql.startsWith("/*M!", i)) {
                int e = sql.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else if (c == '_' && (i == 0 || !isWordChar(sql.charAt(i - 1)))) {
                int e = i + 1;
                while (e < n && isWordChar(sql.charAt(e))) {
                    e++;
                }
                int q = e;
                while (q < n && Character.isWhitespace(sql.charAt(q))) {
                    q++;
                }
                if (e > i + 1 && q < n && (sql.charAt(q) == '\'' || sql.charAt(q) == '"')) {
                    return i;
                }
                i = e;
            } else if (isWordChar(c)) {
                while (i < n && isWordChar(sql.charAt(i))) {
                    i++;
                }
            } else {
                i++;
            }
        }
        return -1;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** The end of a quoted run; a doubled quote stands for itself, a backslash escapes unless {@code raw}. */
    private static int skipQuoted(String s, int p, char q, boolean raw) {
        int i = p + 1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\' && !raw) {
                i += 2;
            } else if (c == q) {
                if (i + 1 < s.length() && s.charAt(i + 1) == q) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return s.length();
    }
}
