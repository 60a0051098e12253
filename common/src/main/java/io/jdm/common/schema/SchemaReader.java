package io.jdm.common.schema;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NO_SUCH_TABLE;

import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/** Reads table lists and table schemas from information_schema. */
public final class SchemaReader {
    /** More selected schemas than this are listed with every other one (a statement of bounded size). */
    private static final int MAX_NAMED_SCHEMAS = 1000;
    private static final Set<String> SYSTEM_SCHEMAS =
            Set.of("mysql", "information_schema", "performance_schema", "sys");

    private SchemaReader() {
    }

    /** Base tables (not views) the predicate selects, sorted, system schemas excluded. */
    public static List<TableName> listTables(Connection c, BiPredicate<String, String> selected) throws SQLException {
        return list(c, "BASE TABLE", selected);
    }

    /** Views the predicate selects, sorted. */
    public static List<TableName> listViews(Connection c, BiPredicate<String, String> selected) throws SQLException {
        return list(c, "VIEW", selected);
    }

    private static List<TableName> list(Connection c, String type, BiPredicate<String, String> selected)
            throws SQLException {
        List<String> schemas = selected instanceof SchemaScope scope ? schemas(c, scope) : null;
        if (schemas != null && schemas.isEmpty()) {
            return new ArrayList<>();
        }
        // leaving the system schemas out keeps the server from opening their ~100 tables' definitions,
        // naming the selected schemas from opening those of every other schema's tables
        String where = schemas == null
                ? "TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')"
                : "TABLE_SCHEMA IN (" + String.join(", ", java.util.Collections.nCopies(schemas.size(), "?")) + ")";
        List<TableName> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_TYPE = ? AND " + where + " ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            ps.setString(1, type);
            for (int i = 0; schemas != null && i < schemas.size(); i++) {
                ps.setString(i + 2, schemas.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String db = rs.getString(1);
                    String tbl = rs.getString(2);
                    if (!SYSTEM_SCHEMAS.contains(db.toLowerCase()) && selected.test(db, tbl)) {
                        out.add(new TableName(db, tbl));
                    }
                }
            }
        }
        return out;
    }

    /** The schemas that may hold a table {@code scope} selects; null when too many to name them all. */
    private static List<String> schemas(Connection c, SchemaScope scope) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA")) {
            while (rs.next()) {
                String db = rs.getString(1);
                if (!SYSTEM_SCHEMAS.contains(db.toLowerCase()) && scope.mayHoldSelected(db)) {
                    out.add(db);
                }
            }
        }
        return out.size() > MAX_NAMED_SCHEMAS ? null : out;
    }

    public static TableSchema read(Connection c, TableName table) throws SQLException {
        TableSchema s = read(c, table.schema(), table.table()).get(table.table());
        if (s == null) {
            throw new SQLException("table " + table + " does not exist", "42S02", ER_NO_SUCH_TABLE);
        }
        return s;
    }

    /**
     * Every table of {@code schema}, by name, in two statements: for a schema of many tables, where
     * two statements a table cost the server more than its whole listing (MariaDB 11.4, 1,000 tables:
     * 0.7 s against about 2 s).
     */
    public static Map<String, TableSchema> readAll(Connection c, String schema) throws SQLException {
        return read(c, schema, null);
    }

    /** The tables of {@code schema} named {@code table}, or all of them when it is null, by name. */
    private static Map<String, TableSchema> read(Connection c, String schema, String table) throws SQLException {
        String where = "WHERE TABLE_SCHEMA = ?" + (table == null ? "" : " AND TABLE_NAME = ?");
        Map<String, List<Column>> columns = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, EXTRA, "
                        + "CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS " + where
                        + " ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
            bind(ps, schema, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String extra = rs.getString(7) == null ? "" : rs.getString(7).toUpperCase();
                    boolean generated = extra.contains("VIRTUAL") || extra.contains("STORED")
                            || extra.contains("PERSISTENT");
                    // one table asked for keeps the name asked (a server that folds names lists it otherwise)
                    columns.computeIfAbsent(table != null ? table : rs.getString(1), k -> new ArrayList<>()).add(new Column(rs.getString(2),
                            rs.getInt(3), rs.getString(4), rs.getString(5), "YES".equals(rs.getString(6)), generated,
                            rs.getString(8), rs.getString(9), extra.contains("INVISIBLE")));
                }
            }
        }
        Map<String, Map<String, List<String>>> uniques = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME, NULLABLE FROM information_schema.STATISTICS " + where
                        + " AND NON_UNIQUE = 0 ORDER BY TABLE_NAME, INDEX_NAME = 'PRIMARY' DESC, INDEX_NAME, SEQ_IN_INDEX")) {
            bind(ps, schema, table);
            Map<String, Set<String>> nullableKeys = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String tbl = table != null ? table : rs.getString(1);
                    String idx = rs.getString(2);
                    uniques.computeIfAbsent(tbl, k -> new LinkedHashMap<>())
                            .computeIfAbsent(idx, k -> new ArrayList<>()).add(rs.getString(3));
                    if ("YES".equals(rs.getString(4))) {
                        nullableKeys.computeIfAbsent(tbl, k -> new HashSet<>()).add(idx);
                    }
                }
            }
            nullableKeys.forEach((tbl, keys) -> keys.forEach(uniques.get(tbl)::remove));
        }
        Map<String, TableSchema> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<Column>> e : columns.entrySet()) {
            Map<String, List<String>> keys = uniques.getOrDefault(e.getKey(), Map.of());
            List<String> pk = keys.getOrDefault("PRIMARY", List.of());
            List<List<String>> uks = new ArrayList<>();
            keys.forEach((k, v) -> {
                if (!k.equals("PRIMARY")) {
                    uks.add(v);
                }
            });
            out.put(e.getKey(), new TableSchema(new TableName(schema, e.getKey()), e.getValue(), pk, uks));
        }
        return out;
    }

    private static void bind(PreparedStatement ps, String schema, String table) throws SQLException {
        ps.setString(1, schema);
        if (table != null) {
            ps.setString(2, table);
        }
    }
}
