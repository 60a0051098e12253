package io.jdm.sync.reader;

import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.SqlScanner;

/**
 * Finds a charset introducer ({@code _latin1'…'}, {@code _binary"…"}) outside comments, strings
 * and quoted names. A statement is sent to the target as UTF-8 text decoded from the source
 * client's charset; every literal then means what it meant on the source (the target converts it
 * to the same collation_connection), except one with an introducer, whose bytes are taken as they
 * come: re-encoded, they are other bytes.
 */
final class Introducers {
    private static final SqlScanner ESCAPES = new SqlScanner(SqlDialect.DEFAULT);
    private static final SqlScanner NO_ESCAPES = new SqlScanner(new SqlDialect(false, true, Long.MAX_VALUE));

    private Introducers() {
    }

    /** Where the first introducer starts, or -1: a name of {@code _} and word characters, white space, a string. */
    static int find(String sql, boolean noBackslashEscapes) {
        int[] found = {-1};
        int[] code = {0, 0}; // the last stretch of code
        (noBackslashEscapes ? NO_ESCAPES : ESCAPES).scan(sql, (kind, start, end) -> {
            if (found[0] >= 0) {
                return;
            }
            if (kind == SqlScanner.Kind.CODE) {
                code[0] = start;
                code[1] = end;
            } else if (kind == SqlScanner.Kind.STRING && code[1] == start) {
                found[0] = introducerBefore(sql, code[0], start);
            }
        });
        return found[0];
    }

    /** Where a word that starts with {@code _} ends {@code sql[from, to)} before white space, or -1. */
    private static int introducerBefore(String sql, int from, int to) {
        int e = to;
        while (e > from && Character.isWhitespace(sql.charAt(e - 1))) {
            e--;
        }
        int w = e;
        while (w > from && isWordChar(sql.charAt(w - 1))) {
            w--;
        }
        return e - w > 1 && sql.charAt(w) == '_' ? w : -1;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
