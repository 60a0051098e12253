package io.jdm.load;

import io.jdm.common.config.OnDuplicate;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.SqlScanner;
import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites the head of a dump file's {@code INSERT} to the routed, schema-qualified target table
 * and the configured duplicate handling, and splits a statement that is too large for the target
 * into several with the same head. Where the route adds columns to the target table
 * ({@link ExtraColumns}), they are added to the column list and their values to every row.
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
        return rewrite(sql, target, onDuplicate, ExtraColumns.NONE);
    }

    /**
     * As {@link #rewrite(String, TableName, OnDuplicate)}, with {@code extra}'s names appended to the
     * column list and its values to every row.
     *
     * @throws IllegalArgumentException when {@code extra} is not empty and the INSERT names no columns
     */
    static Insert rewrite(String sql, TableName target, OnDuplicate onDuplicate, ExtraColumns extra) {
        SqlCursor c = atTable(sql);
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
        boolean columnList = i < sql.length() && sql.charAt(i) == '(';
        if (!extra.isEmpty()) {
            if (!columnList) {
                throw new IllegalArgumentException("it names no columns, and the route adds columns ("
                        + String.join(", ", extra.names()) + ") that need the INSERTs to name theirs; dump again "
                        + "with jdm or with complete INSERTs");
            }
            return new Insert(withExtra(out.toString(), extra), true, named[0], named[1]);
        }
        return new Insert(out.toString(), columnList, named[0], named[1]);
    }

    /**
     * The names of the column list of the INSERT or REPLACE {@code sql}, as written; null when it
     * names no columns.
     *
     * @throws IllegalArgumentException when the statement is not an INSERT or its column list is not one
     */
    static List<String> columnNames(String sql) {
        SqlCursor c = atTable(sql);
        c.qualifiedName();
        return c.skipSpace().pos() < sql.length() && sql.charAt(c.pos()) == '(' ? c.names() : null;
    }

    /** A cursor on the table name of the INSERT or REPLACE {@code sql}, past its verb, modifiers and INTO. */
    private static SqlCursor atTable(String sql) {
        SqlCursor c = new SqlCursor(sql);
        if (!c.keyword("INSERT") && !c.keyword("REPLACE")) {
            throw new IllegalArgumentException("not an INSERT or REPLACE statement: " + SqlText.head(sql));
        }
        while (c.keyword("LOW_PRIORITY") || c.keyword("DELAYED") || c.keyword("HIGH_PRIORITY")
                || c.keyword("IGNORE")) {
            // modifiers of the dump are replaced by the configured duplicate handling
        }
        c.keyword("INTO");
        return c;
    }

    /** {@code sql} (an INSERT with a column list) with the extra columns' names and every row's values. */
    private static String withExtra(String sql, ExtraColumns extra) {
        int values = findValues(sql);
        if (values < 0) {
            throw new IllegalArgumentException("no VALUES list found");
        }
        int close = sql.lastIndexOf(')', values);
        StringBuilder names = new StringBuilder();
        StringBuilder literals = new StringBuilder();
        for (int e = 0; e < extra.size(); e++) {
            names.append(',');
            Identifiers.appendQuoted(names, extra.names().get(e));
            literals.append(',').append(extra.literal(e));
        }
        StringBuilder out = new StringBuilder(sql.length() + names.length() + 64);
        out.append(sql, 0, close).append(names).append(sql, close, values).append(' ');
        List<int[]> rows = rows(sql, values);
        for (int r = 0; r < rows.size(); r++) {
            int[] row = rows.get(r);
            out.append(r == 0 ? "" : ",").append(sql, row[0], row[1] - 1).append(literals).append(')');
        }
        return out.toString();
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
        for (int[] row : rows(sql, values)) {
            long rowBytes = SqlText.utf8Length(sql, row[0], row[1]);
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
            cur.append(sql, row[0], row[1]);
            curBytes += rowBytes;
            rowsInCur++;
        }
        if (rowsInCur > 0) {
            out.add(cur.toString());
        }
        return out;
    }

    /** Index just after the top-level VALUES (or VALUE) keyword, or -1. */
    static int findValues(String sql) {
        int[] found = {-1};
        SqlText.SCANNER.code(sql, 0, sql.length(), (i, c, depth) -> {
            if (found[0] >= 0 || depth > 0 || (c != 'V' && c != 'v')
                    || (i > 0 && SqlScanner.isBareNameChar(sql.charAt(i - 1)))) {
                return;
            }
            for (String kw : new String[] {"VALUES", "VALUE"}) {
                int end = i + kw.length();
                if (sql.regionMatches(true, i, kw, 0, kw.length())
                        && (end >= sql.length() || !SqlScanner.isBareNameChar(sql.charAt(end)))) {
                    found[0] = end;
                    return;
                }
            }
        });
        return found[0];
    }

    /** The spans of the parenthesised rows of the VALUES list that starts at {@code from}. */
    private static List<int[]> rows(String sql, int from) {
        List<int[]> rows = new ArrayList<>();
        int[] open = {-1};
        SqlText.SCANNER.code(sql, from, sql.length(), (i, c, depth) -> {
            if (depth > 0) {
                return;
            }
            if (c == '(') {
                open[0] = i;
            } else if (c == ')' && open[0] >= 0) {
                rows.add(new int[] {open[0], i + 1});
                open[0] = -1;
            } else if (c != ',' && !Character.isWhitespace(c)) {
                throw new IllegalArgumentException("cannot split: unexpected text after the VALUES list at character "
                        + i);
            }
        });
        if (open[0] >= 0) {
            throw new IllegalArgumentException("cannot split: unbalanced parentheses");
        }
        return rows;
    }
}
