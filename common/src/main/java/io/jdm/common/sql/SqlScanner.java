package io.jdm.common.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads SQL text the way the server's lexer splits it before any grammar: string literals,
 * quoted identifiers, comments and conditional comments, under one {@link SqlDialect}. It never
 * allocates per character and keeps no state between calls, so one instance serves every thread.
 *
 * <p>What it knows: {@code '…'} and (unless ANSI_QUOTES) {@code "…"} strings with doubled quotes
 * and, unless NO_BACKSLASH_ESCAPES, backslash escapes; {@code `…`} identifiers and, under
 * ANSI_QUOTES, {@code "…"} ones; {@code -- } (two dashes and a space or control character) and
 * {@code #} line comments; {@code /* *&#47;} comments; conditional comments {@code /*!},
 * {@code /*!NNNNN} and MariaDB's {@code /*M!NNNNNN}, whose body is code when the version is at
 * most the server's and a comment otherwise.
 */
public final class SqlScanner {

    /** What a stretch of text is. */
    public enum Kind {
        /** Keywords, bare names, numbers, operators, white space. */
        CODE,
        /** A string literal, quotes included. */
        STRING,
        /** A quoted identifier, quotes included. */
        IDENTIFIER,
        /** A comment, or a conditional comment the server does not run. */
        COMMENT,
        /** The opening {@code /*!NNNNN} or closing {@code *&#47;} of a conditional comment the server runs. */
        VERSION_MARK
    }

    /** Receives the text as consecutive stretches that cover all of it. */
    @FunctionalInterface
    public interface Sink {
        void segment(Kind kind, int start, int end);
    }

    private final SqlDialect dialect;

    public SqlScanner(SqlDialect dialect) {
        this.dialect = dialect;
    }

    public SqlDialect dialect() {
        return dialect;
    }

    /** Calls {@code sink} for every stretch of {@code sql}, in order. An unterminated literal or comment runs to the end. */
    public void scan(CharSequence sql, Sink sink) {
        int n = sql.length();
        int code = 0;
        int i = 0;
        boolean inRunComment = false;
        while (i < n) {
            char c = sql.charAt(i);
            Kind kind = null;
            int end = i;
            if (c == '\'' || (c == '"' && !dialect.ansiQuotes())) {
                kind = Kind.STRING;
                end = quotedEnd(sql, i, !dialect.noBackslashEscapes());
            } else if (c == '`' || c == '"') {
                kind = Kind.IDENTIFIER;
                end = quotedEnd(sql, i, false);
            } else if (c == '#' || (c == '-' && isDashComment(sql, i))) {
                kind = Kind.COMMENT;
                end = lineEnd(sql, i);
            } else if (c == '/' && at(sql, i + 1) == '*') {
                int mark = versionMarkEnd(sql, i);
                if (mark > 0 && !inRunComment) {
                    kind = Kind.VERSION_MARK;
                    end = mark;
                    inRunComment = true;
                } else {
                    kind = Kind.COMMENT;
                    end = commentEnd(sql, i + 2);
                }
            } else if (inRunComment && c == '*' && at(sql, i + 1) == '/') {
                kind = Kind.VERSION_MARK;
                end = i + 2;
                inRunComment = false;
            }
            if (kind == null) {
                i++;
                continue;
            }
            if (code < i) {
                sink.segment(Kind.CODE, code, i);
            }
            sink.segment(kind, i, end);
            i = end;
            code = end;
        }
        if (code < n) {
            sink.segment(Kind.CODE, code, n);
        }
    }

    /**
     * The same text with the same length, for a grammar that knows neither the dialect nor
     * conditional comments: comments and conditional-comment marks become spaces (line breaks
     * stay), ANSI-quoted identifiers become backtick-quoted, and under NO_BACKSLASH_ESCAPES
     * backslashes in strings become spaces. Every position in it is the same position in
     * {@code sql}; names must be read from {@code sql} itself ({@link #identifiers}), as the
     * identifiers' and literals' insides are not kept exactly.
     */
    public String normalize(String sql) {
        char[] out = sql.toCharArray();
        scan(sql, (kind, start, end) -> {
            switch (kind) {
                case COMMENT, VERSION_MARK -> {
                    for (int j = start; j < end; j++) {
                        if (out[j] != '\n') {
                            out[j] = ' ';
                        }
                    }
                }
                case IDENTIFIER -> {
                    if (out[start] == '"') {
                        out[start] = '`';
                        for (int j = start + 1; j < end; j++) {
                            if (out[j] == '`') {
                                out[j] = '_';
                            }
                        }
                        if (end - start > 1 && out[end - 1] == '"') {
                            out[end - 1] = '`';
                        }
                    }
                }
                case STRING -> {
                    if (dialect.noBackslashEscapes()) {
                        for (int j = start + 1; j < end; j++) {
                            if (out[j] == '\\') {
                                out[j] = ' ';
                            }
                        }
                    }
                }
                default -> {
                }
            }
        });
        return new String(out);
    }

    /**
     * The parts of a possibly qualified name written in {@code sql[from, to)}: {@code `a`.b} is
     * {@code [a, b]}, quotes removed and doubled quotes undone; comments and white space around
     * the parts are skipped. Null when anything else is there (a string, an operator).
     */
    public List<String> identifiers(CharSequence sql, int from, int to) {
        List<String> parts = new ArrayList<>(2);
        int i = skipBlank(sql, from, to);
        while (true) {
            if (i >= to) {
                return null;
            }
            char c = sql.charAt(i);
            int end;
            if (c == '`' || (c == '"' && dialect.ansiQuotes())) {
                end = quotedEnd(sql, i, false);
                if (end > to || end - i < 2 || sql.charAt(end - 1) != c) {
                    return null;
                }
                parts.add(sql.subSequence(i + 1, end - 1).toString().replace(c + "" + c, String.valueOf(c)));
            } else {
                end = i;
                while (end < to && isBareNameChar(sql.charAt(end))) {
                    end++;
                }
                if (end == i) {
                    return null;
                }
                parts.add(sql.subSequence(i, end).toString());
            }
            i = skipBlank(sql, end, to);
            if (i == to) {
                return parts;
            }
            if (sql.charAt(i) != '.') {
                return null;
            }
            i = skipBlank(sql, i + 1, to);
        }
    }

    /** Letters, digits, {@code _}, {@code $} and any non-ASCII character: what an unquoted name is made of. */
    public static boolean isBareNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$'
                || c >= 0x80;
    }

    private int skipBlank(CharSequence sql, int from, int to) {
        int i = from;
        while (i < to) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && at(sql, i + 1) == '*' && versionMarkEnd(sql, i) < 0) {
                i = commentEnd(sql, i + 2);
            } else if (c == '#' || (c == '-' && isDashComment(sql, i))) {
                i = lineEnd(sql, i);
            } else {
                return i;
            }
        }
        return i;
    }

    /** The end of the quoted text starting at {@code start} (just past the closing quote). */
    private static int quotedEnd(CharSequence sql, int start, boolean backslashEscapes) {
        char q = sql.charAt(start);
        int n = sql.length();
        int i = start + 1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\' && backslashEscapes) {
                i += 2;
            } else if (c == q) {
                if (at(sql, i + 1) != q) {
                    return i + 1;
                }
                i += 2;
            } else {
                i++;
            }
        }
        return n;
    }

    private static boolean isDashComment(CharSequence sql, int i) {
        return at(sql, i + 1) == '-' && i + 2 < sql.length() && sql.charAt(i + 2) <= ' ';
    }

    private static int lineEnd(CharSequence sql, int i) {
        int n = sql.length();
        while (i < n && sql.charAt(i) != '\n') {
            i++;
        }
        return i;
    }

    private static int commentEnd(CharSequence sql, int from) {
        int n = sql.length();
        for (int i = from; i + 1 < n; i++) {
            if (sql.charAt(i) == '*' && sql.charAt(i + 1) == '/') {
                return i + 2;
            }
        }
        return n;
    }

    /**
     * For a conditional comment the server runs, the end of its opening mark; -1 for a plain
     * comment or one for a newer server. MySQL writes five digits ({@code 50100} is 5.1.0) and
     * newer ones six; MariaDB's {@code /*M!} is run by MariaDB only, whose versions start at 10.0
     * (100000), above any MySQL version.
     */
    private int versionMarkEnd(CharSequence sql, int start) {
        int i = start + 2;
        if (at(sql, i) == 'M' && at(sql, i + 1) == '!') {
            i += 2;
        } else if (at(sql, i) == '!') {
            i += 1;
        } else {
            return -1;
        }
        int digits = 0;
        while (digits < 6 && Character.isDigit(at(sql, i + digits))) {
            digits++;
        }
        if (digits < 5) {
            return i; // no version: run by every server
        }
        long version = Long.parseLong(sql.subSequence(i, i + digits).toString());
        return version <= dialect.serverVersion() ? i + digits : -1;
    }

    private static char at(CharSequence sql, int i) {
        return i < sql.length() ? sql.charAt(i) : '\0';
    }
}
