package io.jdm.common.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads SQL text the way the server's lexer splits it before any grammar: string literals,
 * quoted identifiers, comments and conditional comments, under one {@link SqlDialect}. It is the
 * text API of {@link SqlLexer}, the one state machine, fed a character at a time; it keeps no
 * state between calls, so one instance serves every thread.
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
        scan(sql, 0, sql.length(), sink);
    }

    /** The same for {@code sql[from, to)}, read as text that starts there in code. */
    public void scan(CharSequence sql, int from, int to, Sink sink) {
        SqlLexer lx = new SqlLexer(dialect,
                (kind, start, end) -> sink.segment(kind, from + (int) start, from + (int) end));
        for (int i = from; i < to; i++) {
            lx.feed(ascii(sql.charAt(i)));
        }
        lx.end();
    }

    /** Receives a character that is code and the depth of parentheses around it (a parenthesis itself is outside). */
    @FunctionalInterface
    public interface CodeChar {
        void at(int index, char c, int depth);
    }

    /**
     * Calls {@code visitor} for every character of {@code sql[from, to)} that is code: outside
     * literals, quoted names, comments and conditional-comment marks; depth counts from {@code from}.
     */
    public void code(CharSequence sql, int from, int to, CodeChar visitor) {
        int[] depth = {0};
        scan(sql, from, to, (kind, start, end) -> {
            if (kind != Kind.CODE) {
                return;
            }
            for (int i = start; i < end; i++) {
                char c = sql.charAt(i);
                if (c == ')' && depth[0] > 0) {
                    depth[0]--;
                }
                visitor.at(i, c, depth[0]);
                if (c == '(') {
                    depth[0]++;
                }
            }
        });
    }

    /**
     * The first position in {@code sql[from, to)} that holds more than white space and comments the
     * server skips (a conditional comment it runs starts there), or {@code to}.
     */
    public int skipBlank(CharSequence sql, int from, int to) {
        SqlLexer lx = new SqlLexer(dialect);
        for (int i = from; i < to; i++) {
            boolean semicolon = lx.feed(ascii(sql.charAt(i)));
            if (lx.hasContent()) {
                return from + (int) lx.contentStart();
            }
            if (semicolon) {
                return i;
            }
        }
        lx.end();
        return lx.hasContent() ? from + (int) lx.contentStart() : to;
    }

    /**
     * The statements of {@code sql}: split at each semicolon in code (not in a literal, a quoted name
     * or a comment), each stripped of surrounding white space, the empty ones (nothing but blanks and
     * comments) left out.
     */
    public List<String> statements(CharSequence sql) {
        List<String> out = new ArrayList<>();
        int[] from = {0};
        code(sql, 0, sql.length(), (i, c, depth) -> {
            if (c == ';') {
                addStatement(out, sql, from[0], i);
                from[0] = i + 1;
            }
        });
        addStatement(out, sql, from[0], sql.length());
        return out;
    }

    private void addStatement(List<String> out, CharSequence sql, int from, int to) {
        if (skipBlank(sql, from, to) < to) {
            out.add(sql.subSequence(from, to).toString().strip());
        }
    }

    /**
     * The words of {@code sql} as {@code [start, end)} spans: each literal and quoted name whole,
     * code cut at white space and around {@code = @ , ( ) ;}; comments and the marks of
     * conditional comments left out (the text of one the server runs is code).
     */
    public List<int[]> words(CharSequence sql) {
        List<int[]> words = new ArrayList<>();
        scan(sql, (kind, start, end) -> {
            if (kind == Kind.STRING || kind == Kind.IDENTIFIER) {
                words.add(new int[] {start, end});
            } else if (kind == Kind.CODE) {
                int w = start;
                for (int i = start; i <= end; i++) {
                    char c = i < end ? sql.charAt(i) : ' ';
                    boolean punct = c == '=' || c == '@' || c == ',' || c == '(' || c == ')' || c == ';';
                    if (punct || Character.isWhitespace(c)) {
                        if (w < i) {
                            words.add(new int[] {w, i});
                        }
                        if (punct) {
                            words.add(new int[] {i, i + 1});
                        }
                        w = i + 1;
                    }
                }
            }
        });
        return words;
    }

    /** A literal, quoted name, comment or conditional-comment mark and where it ends (just past it). */
    public record Token(Kind kind, int end) {
    }

    /** The token that starts at {@code start}; null when code starts there or the token is not closed. */
    public Token token(CharSequence sql, int start) {
        Token[] first = {null};
        SqlLexer lx = new SqlLexer(dialect, (kind, s, e) -> {
            if (first[0] == null) {
                first[0] = new Token(kind, start + (int) e);
            }
        });
        int i = start;
        while (first[0] == null && i < sql.length()) {
            lx.feed(ascii(sql.charAt(i++)));
            if (first[0] == null && lx.inCode()) {
                return null; // code starts there: nothing to read to its end
            }
        }
        if (first[0] == null) {
            lx.end();
            if (lx.unterminated() != null) {
                return null;
            }
        }
        return first[0] == null || first[0].kind() == Kind.CODE ? null : first[0];
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
                Token t = token(sql, i);
                if (t == null || t.end() > to) {
                    return null;
                }
                end = t.end();
                parts.add(unquote(sql, i, end));
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

    /** The name quoted in {@code sql[start, end)}: quotes removed, doubled quotes undone. */
    public static String unquote(CharSequence sql, int start, int end) {
        char q = sql.charAt(start);
        return sql.subSequence(start + 1, end - 1).toString().replace(q + "" + q, String.valueOf(q));
    }

    /** Letters, digits, {@code _}, {@code $} and any non-ASCII character: what an unquoted name is made of. */
    public static boolean isBareNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$'
                || c >= 0x80;
    }

    /** A character as the lexer reads it: ASCII as itself, anything else as one byte that is no syntax. */
    private static int ascii(char c) {
        return c < 0x80 ? c : 0x80;
    }
}
