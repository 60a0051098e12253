package io.jdm.cli.check;

import io.jdm.common.config.Consistency;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks on the tables a source's block-allow-list selects. */
final class TableChecks {
    private static final int SHOWN = 5;
    /**
     * What the load does with a target table whose engine keeps rows outside transactions: it decides
     * by the target's engine, whatever the source's is.
     */
    static final String LOAD_OUTSIDE_TRANSACTIONS = "the load writes them statement by statement, never with LOAD"
            + " DATA, each statement marked begun in its checkpoint before it runs; after a kill the statement in"
            + " doubt is written again over its rows on a table with a primary or NOT NULL unique key, and stops the"
            + " load on one without (empty that table and its checkpoint rows, then rerun)";

    private TableChecks() {
    }

    static List<CheckResult> run(ServerFacts f, String inst, PrecheckInput.Source s) throws SQLException {
        SchemaReader.Listing listed = SchemaReader.list(f.connection, s.tableFilter());
        List<TableName> tables = listed.tables();
        List<CheckResult> out = new ArrayList<>();
        String uncopied = listed.uncopiedLine(SHOWN);
        if (uncopied != null) {
            out.add(CheckResult.fail("table_schema", inst, uncopied));
        }
        if (tables.isEmpty()) {
            out.add(CheckResult.warn("table_schema", inst,
                    "the block-allow-list selects no table: check do-dbs / do-tables"));
            return out;
        }
        List<String> keyless = new ArrayList<>();
        Map<TableName, TableSchema> read = SchemaReader.readEach(f.connection, tables);
        for (TableName t : tables) {
            TableSchema ts = read.get(t);
            if (ts != null && !ts.hasIdentityKey()) { // null: dropped since it was listed
                keyless.add(t.toString());
            }
        }
        if (!keyless.isEmpty() && s.consistency() == Consistency.LOCK_FREE) {
            out.add(CheckResult.fail("table_schema", inst, keyless.size() + " of " + tables.size()
                    + " tables have no primary or NOT NULL unique key (" + shown(keyless) + "), which consistency"
                    + " lock-free needs to replay their rows; add one, or dump with consistency flush or lock"));
        } else if (keyless.isEmpty()) {
            out.add(CheckResult.pass("table_schema", inst, tables.size() + " tables selected, all with a primary or unique key"));
        } else {
            out.add(CheckResult.warn("table_schema", inst, keyless.size() + " of " + tables.size()
                    + " tables have no primary or NOT NULL unique key (" + shown(keyless)
                    + "): they replicate row by row and dump unchunked; add a primary key"));
        }
        List<String> outside = new ArrayList<>();
        outsideTransactions(f.connection, tables).forEach((t, engine) -> outside.add(t + " (" + engine + ")"));
        if (!outside.isEmpty()) {
            out.add(CheckResult.warn("table_schema", inst, outside.size() + " of " + tables.size()
                    + " tables keep their rows outside transactions (" + shown(outside) + "): "
                    + LOAD_OUTSIDE_TRANSACTIONS));
        }
        return out;
    }

    /**
     * The tables among {@code tables} whose engine the server lists as not transactional (MyISAM,
     * Aria, MEMORY, ARCHIVE, CSV...), sorted, each with its engine.
     */
    static Map<TableName, String> outsideTransactions(Connection c, Collection<TableName> tables) throws SQLException {
        Set<TableName> selected = new HashSet<>(tables);
        Map<TableName, String> out = new LinkedHashMap<>();
        SchemaReader.SchemaCondition in = SchemaReader.schemasOf("t.TABLE_SCHEMA", tables);
        if (in.selectsNone()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT t.TABLE_SCHEMA, t.TABLE_NAME, t.ENGINE"
                + " FROM information_schema.TABLES t JOIN information_schema.ENGINES e ON e.ENGINE = t.ENGINE"
                + " WHERE t.TABLE_TYPE = 'BASE TABLE' AND e.TRANSACTIONS = 'NO' AND " + in.sql()
                + " ORDER BY t.TABLE_SCHEMA, t.TABLE_NAME")) {
            in.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TableName t = new TableName(rs.getString(1), rs.getString(2));
                    if (selected.contains(t)) {
                        out.put(t, rs.getString(3));
                    }
                }
            }
        }
        return out;
    }

    /** Collations used by the selected tables' columns and the tables themselves. */
    static List<String> collations(ServerFacts f, PrecheckInput.Source s) throws SQLException {
        List<String> out = new ArrayList<>();
        SchemaReader.SchemaCondition in = SchemaReader.selectedSchemas(f.connection, "TABLE_SCHEMA", s.tableFilter());
        if (in.selectsNone()) {
            return out;
        }
        try (PreparedStatement ps = f.connection.prepareStatement(
                "SELECT DISTINCT TABLE_SCHEMA, TABLE_NAME, COLLATION_NAME FROM information_schema.COLUMNS "
                        + "WHERE COLLATION_NAME IS NOT NULL AND " + in.sql() + " UNION SELECT DISTINCT TABLE_SCHEMA,"
                        + " TABLE_NAME, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_COLLATION IS NOT"
                        + " NULL AND " + in.sql())) {
            in.bind(ps, in.bind(ps, 1));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String db = rs.getString(1);
                    if (!isSystem(db) && s.tableFilter().test(db, rs.getString(2)) && !out.contains(rs.getString(3))) {
                        out.add(rs.getString(3));
                    }
                }
            }
        }
        return out;
    }

    static boolean isSystem(String db) {
        return switch (db.toLowerCase()) {
            case "mysql", "information_schema", "performance_schema", "sys" -> true;
            default -> false;
        };
    }

    static String shown(List<String> names) {
        return names.size() <= SHOWN ? String.join(", ", names)
                : String.join(", ", names.subList(0, SHOWN)) + ", ... " + (names.size() - SHOWN) + " more";
    }
}
