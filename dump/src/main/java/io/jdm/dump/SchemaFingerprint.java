package io.jdm.dump;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.Hashes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every selected table's column list, read in one query while the lock is held: the definitions that
 * match the recorded position. Schema files are written after the lock is released, so a table
 * whose columns differ by then was altered after the snapshot, and its CREATE TABLE would not match
 * the data nor the binlog that follows (the DDL would be replayed twice).
 */
final class SchemaFingerprint {
    private final Map<TableName, String> columns;

    private SchemaFingerprint(Map<TableName, String> columns) {
        this.columns = columns;
    }

    static SchemaFingerprint read(Connection c, List<TableName> tables) throws SQLException {
        Set<String> schemas = new LinkedHashSet<>();
        tables.forEach(t -> schemas.add(t.schema()));
        return read(c, schemas);
    }

    /**
     * The columns of every table of the schemas {@code where} names (a superset of the selected
     * tables; the others are never asked about), read without waiting for the table list.
     */
    static SchemaFingerprint read(Connection c, SchemaReader.SchemaCondition where) throws SQLException {
        return read(c, where.schemas());
    }

    private static SchemaFingerprint read(Connection c, Collection<String> schemas) throws SQLException {
        if (schemas.isEmpty()) {
            return new SchemaFingerprint(Map.of());
        }
        StringBuilder in = new StringBuilder();
        for (String s : schemas) {
            in.append(in.length() == 0 ? "" : ",").append(Identifiers.literal(s));
        }
        return readWhere(c, "TABLE_SCHEMA IN (" + in + ")");
    }

    private static SchemaFingerprint readWhere(Connection c, String where) throws SQLException {
        Map<TableName, StringBuilder> sigs = new HashMap<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, EXTRA"
                        + " FROM information_schema.COLUMNS WHERE " + where
                        + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")) {
            while (rs.next()) {
                TableName t = new TableName(rs.getString(1), rs.getString(2));
                sigs.computeIfAbsent(t, k -> new StringBuilder())
                        .append(signature(rs.getString(3), rs.getString(4), "YES".equals(rs.getString(5)),
                                generated(rs.getString(6))));
            }
        }
        Map<TableName, String> out = new HashMap<>();
        sigs.forEach((k, v) -> out.put(k, v.toString()));
        return new SchemaFingerprint(out);
    }

    /**
     * A short digest of the table's columns as read, for a lock-free dump's plan to compare with
     * later; null when the table was not seen.
     */
    String digest(TableName table) {
        String sig = columns.get(table);
        if (sig == null) {
            return null;
        }
        return Hashes.sha256Hex(sig, 24);
    }

    /** True when the table's columns are still those seen under the lock (or none were recorded). */
    boolean matches(TableSchema schema) {
        String expected = columns.get(schema.name());
        if (expected == null) {
            return true;
        }
        StringBuilder sb = new StringBuilder();
        for (Column c : schema.columns()) {
            sb.append(signature(c.name(), c.columnType(), c.nullable(), c.generated()));
        }
        return expected.contentEquals(sb);
    }

    private static boolean generated(String extra) {
        String e = extra == null ? "" : extra.toUpperCase();
        return e.contains("VIRTUAL") || e.contains("STORED") || e.contains("PERSISTENT");
    }

    private static String signature(String name, String type, boolean nullable, boolean generated) {
        return name + "\u0001" + type + "\u0001" + nullable + "\u0001" + generated + "\u0002";
    }
}
