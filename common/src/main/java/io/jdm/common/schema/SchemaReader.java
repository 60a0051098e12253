package io.jdm.common.schema;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NO_SUCH_TABLE;

import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/** Reads table lists and table schemas from information_schema. */
public final class SchemaReader {
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
        List<TableName> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = ? "
                        + "AND TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') "
                        + "ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            // leaving the system schemas out keeps the server from opening their ~100 tables' definitions
            ps.setString(1, type);
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

    public static TableSchema read(Connection c, TableName table) throws SQLException {
        List<Column> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, EXTRA, "
                        + "CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS "
                        + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String extra = rs.getString(6) == null ? "" : rs.getString(6).toUpperCase();
                    boolean generated = extra.contains("VIRTUAL") || extra.contains("STORED")
                            || extra.contains("PERSISTENT");
                    columns.add(new Column(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4),
                            "YES".equals(rs.getString(5)), generated, rs.getString(7), rs.getString(8),
                            extra.contains("INVISIBLE")));
                }
            }
        }
        if (columns.isEmpty()) {
            throw new SQLException("table " + table + " does not exist", "42S02", ER_NO_SUCH_TABLE);
        }
        Map<String, List<String>> uniques = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT INDEX_NAME, COLUMN_NAME, NULLABLE FROM information_schema.STATISTICS "
                        + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 "
                        + "ORDER BY INDEX_NAME = 'PRIMARY' DESC, INDEX_NAME, SEQ_IN_INDEX")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            Set<String> nullableKeys = new java.util.HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String idx = rs.getString(1);
                    uniques.computeIfAbsent(idx, k -> new ArrayList<>()).add(rs.getString(2));
                    if ("YES".equals(rs.getString(3))) {
                        nullableKeys.add(idx);
                    }
                }
            }
            nullableKeys.forEach(uniques::remove);
        }
        List<String> pk = uniques.getOrDefault("PRIMARY", List.of());
        List<List<String>> uks = new ArrayList<>();
        uniques.forEach((k, v) -> {
            if (!k.equals("PRIMARY")) {
                uks.add(v);
            }
        });
        return new TableSchema(table, columns, pk, uks);
    }
}
