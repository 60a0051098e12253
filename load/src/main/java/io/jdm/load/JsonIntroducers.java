package io.jdm.load;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.SqlScanner;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives the string and hex literals of an INSERT's JSON columns the {@code _utf8mb4} introducer,
 * for a file read with {@code SET NAMES binary} (as Dumpling and mydumper write every file). There
 * every literal is a binary string, and MySQL makes no JSON value of one (error 3144, "Cannot
 * create a JSON value from a string with CHARACTER SET 'binary'"), although the source stored
 * that text. With {@code character_set_connection} binary an introducer converts nothing: it
 * labels the literal's bytes utf8mb4, and the server takes them as that text, or refuses bytes
 * that are not UTF-8 (error 1300) rather than change them. NULL needs nothing, and a value the file
 * wrote otherwise ({@code CONVERT(… USING UTF8MB4)}, as mydumper writes a JSON column, an
 * introducer of its own) is left as it is, as is every other column's: its bytes are stored as
 * the file has them. MariaDB's JSON is LONGTEXT, which takes the bytes as they are: no column of
 * it is JSON here ({@link Column#isJson}).
 */
final class JsonIntroducers {
    private static final String INTRODUCER = "_utf8mb4 ";

    private final TableSchema table;
    /** The INSERT head ({@code INSERT INTO t (…) VALUES}) the {@link #json} fields were worked out for. */
    private String head;
    /** Which fields of a row are JSON columns; null when none is. */
    private boolean[] json;

    private JsonIntroducers(TableSchema table) {
        this.table = table;
    }

    /** For INSERTs into {@code table}; null when it has no JSON column (or is null), and nothing is to be done. */
    static JsonIntroducers of(TableSchema table) {
        return table != null && table.columns().stream().anyMatch(Column::isJson) ? new JsonIntroducers(table) : null;
    }

    /** {@code sql}, an INSERT into the table, with every string and hex literal of a JSON field introduced. */
    String introduce(String sql) {
        int values = InsertRewriter.findValues(sql);
        if (values < 0) {
            return sql;
        }
        boolean[] fields = fields(sql, values);
        if (fields == null) {
            return sql;
        }
        Literals found = new Literals(sql, fields);
        SqlText.SCANNER.scan(sql, values, sql.length(), found);
        List<Integer> at = found.at;
        if (at.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + at.size() * INTRODUCER.length());
        int copied = 0;
        for (int v : at) {
            out.append(sql, copied, v).append(INTRODUCER);
            copied = v;
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /** Which fields of the INSERT's rows are JSON columns, by its column list or the table's order; null for none. */
    private boolean[] fields(String sql, int values) {
        if (head != null && head.length() == values && sql.regionMatches(0, head, 0, values)) {
            return json;
        }
        head = sql.substring(0, values);
        json = null;
        List<String> names;
        try {
            names = InsertRewriter.columnNames(sql);
        } catch (IllegalArgumentException e) {
            return null; // not a column list read here: the statement goes as written, for the server to judge
        }
        List<Column> columns = new ArrayList<>();
        if (names == null) {
            columns.addAll(table.valuesColumns());
        } else {
            names.forEach(n -> columns.add(table.column(n).orElse(null)));
        }
        boolean[] out = new boolean[columns.size()];
        boolean any = false;
        for (int i = 0; i < out.length; i++) {
            out[i] = columns.get(i) != null && columns.get(i).isJson();
            any |= out[i];
        }
        json = any ? out : null;
        return json;
    }

    /**
     * Finds, in one pass of the lexer over the VALUES list, where the literals of JSON fields start:
     * a field starts after a row's {@code (} or a {@code ,} in it, and its first token past blanks
     * and comments is the one looked at.
     */
    private static final class Literals implements SqlScanner.Sink {
        private final String sql;
        private final boolean[] json;
        final List<Integer> at = new ArrayList<>();
        private int depth;
        private int field;
        /** The current field is JSON and its first token is still to come. */
        private boolean awaited;

        Literals(String sql, boolean[] json) {
            this.sql = sql;
            this.json = json;
        }

        @Override
        public void segment(SqlScanner.Kind kind, int start, int end) {
            if (kind == SqlScanner.Kind.COMMENT) {
                return;
            }
            if (kind != SqlScanner.Kind.CODE) {
                if (awaited && kind == SqlScanner.Kind.STRING) {
                    at.add(start);
                }
                awaited = false;
                return;
            }
            for (int i = start; i < end; i++) {
                char c = sql.charAt(i);
                if (awaited && !Character.isWhitespace(c)) {
                    if (isHexOrBit(sql, i)) {
                        at.add(i);
                    }
                    awaited = false;
                }
                if (c == '(') {
                    if (depth++ == 0) {
                        field(0);
                    }
                } else if (c == ')' && depth > 0) {
                    depth--;
                } else if (c == ',' && depth == 1) {
                    field(field + 1);
                }
            }
        }

        private void field(int f) {
            field = f;
            awaited = f < json.length && json[f];
        }
    }

    /**
     * Whether a hex or bit literal starts at {@code v}, in code: {@code X'…'} or {@code B'…'} (the
     * quote begins a string token of its own), {@code 0x…} or {@code 0b…}. Not NULL, a number, a
     * function, or a literal with a prefix ({@code N'…'}, {@code _latin1'…'}), which are left as written.
     */
    static boolean isHexOrBit(String sql, int v) {
        if (v + 1 >= sql.length()) {
            return false;
        }
        char c = sql.charAt(v);
        char next = sql.charAt(v + 1);
        if ("xXbB".indexOf(c) >= 0) {
            return next == '\'' && (v == 0 || !SqlScanner.isBareNameChar(sql.charAt(v - 1)));
        }
        if (c != '0' || (next != 'x' && next != 'b') || (v > 0 && SqlScanner.isBareNameChar(sql.charAt(v - 1)))) {
            return false;
        }
        int end = v + 2;
        while (end < sql.length() && SqlScanner.isBareNameChar(sql.charAt(end))) {
            end++;
        }
        String digits = next == 'x' ? "0123456789abcdefABCDEF" : "01";
        for (int i = v + 2; i < end; i++) {
            if (digits.indexOf(sql.charAt(i)) < 0) {
                return false; // a name that starts like one
            }
        }
        return end > v + 2;
    }
}
