package io.jdm.load;

import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites the CREATE statements of schema files for the routed target: names qualified and
 * renamed, {@code IF NOT EXISTS} added (a merged target table is created once; a rerun is a
 * no-op), and, with deferred indexes, secondary indexes moved out of the CREATE TABLE.
 */
final class SchemaRewriter {
    /** A secondary index taken out of a CREATE TABLE, added back after the data. */
    record Index(String name, String definition) {
    }

    /**
     * The CREATE TABLE to run and the indexes to add after the data (empty unless deferred);
     * {@code optionAdded} says whether the table option asked for is in {@code create}.
     */
    record TableDdl(String create, List<Index> deferred, boolean optionAdded) {
        TableDdl(String create, List<Index> deferred) {
            this(create, deferred, false);
        }
    }

    private SchemaRewriter() {
    }

    static String createDatabase(String sql, String targetSchema) {
        SqlCursor c = new SqlCursor(sql);
        if (!c.keyword("CREATE") || !(c.keyword("DATABASE") || c.keyword("SCHEMA"))) {
            throw new IllegalArgumentException("not a CREATE DATABASE statement: " + SqlText.head(sql));
        }
        skipIfNotExists(c);
        c.identifier();
        return "CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(targetSchema) + c.rest();
    }

    static TableDdl createTable(String sql, TableName target, boolean deferIndexes) {
        return createTable(sql, target, deferIndexes, null);
    }

    /**
     * As {@link #createTable(String, TableName, boolean)}, with {@code tableOption} (such as {@code
     * STATS_AUTO_RECALC=0}) written right after the column list, where any table option may stand,
     * so that the table is created with it in one statement. A CREATE without a column list ({@code
     * LIKE}, {@code AS SELECT}) is left without it: {@link TableDdl#optionAdded()} is false then.
     */
    static TableDdl createTable(String sql, TableName target, boolean deferIndexes, String tableOption) {
        TableDdl ddl = rewriteCreateTable(sql, target, deferIndexes);
        if (tableOption == null) {
            return ddl;
        }
        String create = ddl.create();
        int from = head(target).length();
        int open = create.indexOf('(', from);
        if (open < 0 || !create.substring(from, open).isBlank()) {
            return ddl;
        }
        List<Integer> cuts = definitionCuts(create, open);
        int close = cuts.get(cuts.size() - 1);
        return new TableDdl(create.substring(0, close + 1) + " " + tableOption + create.substring(close + 1),
                ddl.deferred(), true);
    }

    private static TableDdl rewriteCreateTable(String sql, TableName target, boolean deferIndexes) {
        SqlCursor c = new SqlCursor(sql);
        if (!c.keyword("CREATE")) {
            throw new IllegalArgumentException("not a CREATE TABLE statement: " + SqlText.head(sql));
        }
        c.keyword("OR");
        c.keyword("REPLACE");
        if (!c.keyword("TABLE")) {
            throw new IllegalArgumentException("not a CREATE TABLE statement: " + SqlText.head(sql));
        }
        skipIfNotExists(c);
        c.qualifiedName();
        String rest = c.rest();
        String head = head(target);
        if (!deferIndexes) {
            return new TableDdl(head + rest, List.of());
        }
        int open = rest.indexOf('(');
        if (open < 0 || !rest.substring(0, open).isBlank()) {
            return new TableDdl(head + rest, List.of());
        }
        List<Integer> cuts = definitionCuts(rest, open);
        int close = cuts.get(cuts.size() - 1);
        List<String> defs = new ArrayList<>();
        for (int i = 1; i < cuts.size(); i++) {
            String def = rest.substring(cuts.get(i - 1) + 1, cuts.get(i)).strip();
            if (!def.isEmpty() || i < cuts.size() - 1) {
                defs.add(def);
            }
        }
        List<String> kept = new ArrayList<>();
        List<Index> deferred = new ArrayList<>();
        for (String def : defs) {
            String word = new SqlCursor(def).peekWord();
            if (word.equals("CONSTRAINT") || word.equals("FOREIGN")) {
                // a foreign key needs its index at creation time: keep this table as it is
                return new TableDdl(head + rest, List.of());
            }
            Index idx = secondaryIndex(def);
            if (idx != null) {
                deferred.add(idx);
            } else {
                kept.add(def);
            }
        }
        if (deferred.isEmpty()) {
            return new TableDdl(head + rest, List.of());
        }
        String body = "(\n  " + String.join(",\n  ", kept) + "\n)";
        return new TableDdl(head + " " + body + rest.substring(close + 1), deferred);
    }

    private static String head(TableName target) {
        return "CREATE TABLE IF NOT EXISTS " + target.quoted();
    }

    /** The statement without its {@code DEFINER = user@host} clause: a view runs as the target's loading user. */
    static String withoutDefiner(String sql) {
        List<int[]> w = SqlText.SCANNER.words(sql);
        for (int k = 0; k + 4 < w.size(); k++) {
            if (SqlText.is(sql, w.get(k), "DEFINER") && SqlText.is(sql, w.get(k + 1), "=")
                    && SqlText.is(sql, w.get(k + 3), "@")) {
                int end = w.get(k + 4)[1];
                while (end < sql.length() && Character.isWhitespace(sql.charAt(end))) {
                    end++;
                }
                return sql.substring(0, w.get(k)[0]) + sql.substring(end);
            }
        }
        return sql;
    }

    /** The ALTER TABLE that adds {@code indexes} back. */
    static String addIndexes(TableName table, List<Index> indexes) {
        StringBuilder sb = new StringBuilder("ALTER TABLE ").append(table.quoted());
        for (int i = 0; i < indexes.size(); i++) {
            sb.append(i == 0 ? " ADD " : ", ADD ").append(indexes.get(i).definition());
        }
        return sb.toString();
    }

    private static Index secondaryIndex(String def) {
        SqlCursor c = new SqlCursor(def);
        boolean special = c.keyword("FULLTEXT") || c.keyword("SPATIAL");
        boolean key = c.keyword("KEY") || c.keyword("INDEX");
        if (!key && !special) {
            return null;
        }
        String name = c.identifier();
        return new Index(name, def);
    }

    private static void skipIfNotExists(SqlCursor c) {
        if (c.keyword("IF")) {
            c.keyword("NOT");
            c.keyword("EXISTS");
        }
    }

    /**
     * Where the definitions of the body that opens at {@code open} are cut: the opening
     * parenthesis, each top-level comma, and last the closing parenthesis.
     */
    private static List<Integer> definitionCuts(String s, int open) {
        List<Integer> cuts = new ArrayList<>(List.of(open));
        SqlText.SCANNER.code(s, open, s.length(), (i, c, depth) -> {
            boolean closed = cuts.size() > 1 && s.charAt(cuts.get(cuts.size() - 1)) == ')';
            if (!closed && ((c == ',' && depth == 1) || (c == ')' && depth == 0))) {
                cuts.add(i);
            }
        });
        if (cuts.size() < 2 || s.charAt(cuts.get(cuts.size() - 1)) != ')') {
            throw new IllegalArgumentException("CREATE TABLE has unbalanced parentheses");
        }
        return cuts;
    }
}
