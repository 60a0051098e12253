package io.jdm.load;

import io.jdm.common.config.OnDuplicate;
import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites the head of a dump file's {@code INSERT} to the routed, schema-qualified target table
 * and the configured duplicate handling, and splits a statement that is too large for the target
 * into several with the same head.
 */
final class InsertRewriter {
    private InsertRewriter() {
    }

    /**
     * A rewritten INSERT; {@code columnList} tells whether the first parenthesised group names
     * columns; {@code schema} (null when unqualified) and {@code table} are the names the file wrote.
     */
    record Insert(String sql, boolean columnList, String schema, String table) {
    }

    /** {@code INSERT [IGNORE] INTO `t` (..) VALUES ..} becomes {@code <verb> `db`.`t` (..) VALUES ..}. */
    static Insert rewrite(String sql, TableName target, OnDuplicate onDuplicate) {
        SqlCursor c = new SqlCursor(sql);
        if (!c.keyword("INSERT") && !c.keyword("REPLACE")) {
            throw new IllegalArgumentException("not an INSERT or REPLACE statement: " + SqlText.head(sql));
        }
        while (c.keyword("LOW_PRIORITY") || c.keyword("DELAYED") || c.keyword("HIGH_PRIORITY")
                || c.keyword("IGNORE")) {
            // modifiers of the dump are replaced by the configured duplicate handling
        }
        c.keyword("INTO");
        String[] named = c.qualifiedName();
        String verb = switch (onDuplicate) {
            case ERROR -> "INSERT INTO ";
            case IGNORE -> "INSERT IGNORE INTO ";
            case REPLACE -> "REPLACE INTO ";
        };
        String table = target.quoted();
        StringBuilder out = new StringBuilder(verb.length() + table.length() + sql.length() - c.pos());
        out.append(verb).append(table).append(sql, c.pos(), sql.length());
        int i = c.pos();
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return new Insert(out.toString(), i < sql.length() && sql.charAt(i) == '(', named[0], named[1]);
    }

    /**
     * Splits {@code sql} so that each piece is at most {@code maxBytes} of UTF-8; returns the
     * statement itself when it already fits.
     *
     * @throws IllegalArgumentException when the VALUES list cannot be found or one row alone is too big
     */
    static List<String> split(String sql, long maxBytes) {
        // at most 3 bytes per UTF-16 unit: most statements are known to fit without counting
        if ((long) sql.length() * 3 <= maxBytes || SqlText.utf8Length(sql, 0, sql.length()) <= maxBytes) {
            return List.of(sql);
        }
        int values = findValues(sql);
        if (values < 0) {
            throw new IllegalArgumentException("cannot split: no VALUES list found");
        }
        String head = sql.substring(0, values) + " ";
        long headBytes = SqlText.utf8Length(head, 0, head.length());
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder(head);
        long curBytes = headBytes;
        int rowsInCur = 0;
        int i = values;
        while (true) {
            i = skipSpace(sql, i);
            if (i >= sql.length()) {
                break;
            }
            if (sql.charAt(i) != '(') {
                throw new IllegalArgumentException("cannot split: unexpected text after the VALUES list at character "
                        + i);
            }
            int end = groupEnd(sql, i);
            long rowBytes = SqlText.utf8Length(sql, i, end);
            if (headBytes + rowBytes > maxBytes) {
                throw new IllegalArgumentException("one row of " + rowBytes + " bytes is larger than the target's "
                        + "max_allowed_packet (" + maxBytes + " bytes usable)");
            }
            if (rowsInCur > 0 && curBytes + 1 + rowBytes > maxBytes) {
                out.add(cur.toString());
                cur.setLength(0);
                cur.append(head);
                curBytes = headBytes;
                rowsInCur = 0;
            }
            if (rowsInCur > 0) {
                cur.append(',');
                curBytes++;
            }
            cur.append(sql, i, end);
            curBytes += rowBytes;
            rowsInCur++;
            i = skipSpace(sql, end);
            if (i < sql.length() && sql.charAt(i) == ',') {
                i++;
            }
        }
        if (rowsInCur > 0) {
            out.add(cur.toString());
        }
        return out;
    }

    /** Index just after the top-level VALUES (or VALUE) keyword, or -1. */
    static int findValues(String sql) {
        int depth = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = quoteEnd(sql, i);
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && (c == 'V' || c == 'v') && (i == 0 || !SqlCursor.isWordChar(sql.charAt(i - 1)))) {
                for (String kw : new String[] {"VALUES", "VALUE"}) {
                    int end = i + kw.length();
                    if (sql.regionMatches(true, i, kw, 0, kw.length())
                            && (end >= sql.length() || !SqlCursor.isWordChar(sql.charAt(end)))) {
                        return end;
                    }
                }
            }
            i++;
        }
        return -1;
    }

    /** Index after the parenthesised group starting at {@code start}. */
    private static int groupEnd(String sql, int start) {
        int depth = 0;
        int i = start;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = quoteEnd(sql, i);
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i + 1;
            }
            i++;
        }
        throw new IllegalArgumentException("cannot split: unbalanced parentheses");
    }

    /** Index after the quoted string or name starting at {@code start}. */
    static int quoteEnd(String sql, int start) {
        char q = sql.charAt(start);
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\' && q != '`') {
                i += 2;
            } else if (c == q) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == q) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }

    private static int skipSpace(String sql, int i) {
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return i;
    }
}
