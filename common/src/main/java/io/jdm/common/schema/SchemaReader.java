package io.jdm.common.schema;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NO_SUCH_TABLE;

import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
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
        return list(c, selected).tables();
    }

    /** Views the predicate selects, sorted. */
    public static List<TableName> listViews(Connection c, BiPredicate<String, String> selected) throws SQLException {
        return list(c, selected).views();
    }

    /**
     * What a selection holds, each list sorted: its base tables, its views, and the tables of a kind
     * jdm does not copy, each with its {@code TABLE_TYPE}: MariaDB's system-versioned tables (whose
     * history a dump of their rows would lose) and sequences (MariaDB's and TiDB's, whose next value
     * is not a row).
     */
    public record Listing(List<TableName> tables, List<TableName> views, Map<TableName, String> uncopied) {
        /**
         * One line naming the tables jdm does not copy and what to do; null when there are none.
         *
         * @param shown how many to name before "and N more"
         */
        public String uncopiedLine(int shown) {
            return uncopied.isEmpty() ? null : SchemaReader.uncopiedLine(uncopied, shown);
        }
    }

    /**
     * One line naming tables jdm does not copy, each with its {@code TABLE_TYPE}, and what to do.
     *
     * @param shown how many to name before "and N more"
     */
    public static String uncopiedLine(Map<TableName, String> uncopied, int shown) {
        List<String> named = new ArrayList<>();
        uncopied.forEach((t, type) -> named.add(t.quoted() + " (" + type.toLowerCase(java.util.Locale.ROOT) + ")"));
        String list = String.join(", ", named.subList(0, Math.min(shown, named.size())))
                + (named.size() > shown ? " and " + (named.size() - shown) + " more" : "");
        return "jdm does not copy system-versioned tables (their history) or sequences (their next value): "
                + list + "; leave " + (named.size() == 1 ? "it" : "them")
                + " out with block-allow-list (ignore-tables) and move " + (named.size() == 1 ? "it" : "them")
                + " by hand";
    }

    /**
     * The {@code TABLE_TYPE} of {@code table} when it is of a kind jdm does not copy (see {@link
     * Listing}); null when it is a base table or a view, or is not there.
     */
    public static String uncopiedKind(Connection c, TableName table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_TYPE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                String type = rs.next() ? rs.getString(1) : null;
                return type == null || UNCOPIED_NOT.contains(type) ? null : type;
            }
        }
    }

    /** The kinds {@link #list} does not count as uncopied. */
    private static final Set<String> UNCOPIED_NOT = Set.of("BASE TABLE", "VIEW", "SYSTEM VIEW", "TEMPORARY");

    /** Everything the predicate selects, in one statement: see {@link Listing}. */
    public static Listing list(Connection c, BiPredicate<String, String> selected) throws SQLException {
        return list(c, selectedSchemas(c, "TABLE_SCHEMA", selected), selected);
    }

    /**
     * Everything the predicate selects in the schemas {@code where} names (from {@link
     * #selectedSchemas} on {@code TABLE_SCHEMA}).
     */
    public static Listing list(Connection c, SchemaCondition where, BiPredicate<String, String> selected)
            throws SQLException {
        List<TableName> tables = new ArrayList<>();
        List<TableName> views = new ArrayList<>();
        Map<TableName, String> uncopied = new LinkedHashMap<>();
        if (where.selectsNone()) {
            return new Listing(tables, views, uncopied);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE"
                + " FROM information_schema.TABLES WHERE " + where.sql() + " ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            where.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String db = rs.getString(1);
                    String tbl = rs.getString(2);
                    String type = rs.getString(3);
                    if (SYSTEM_SCHEMAS.contains(db.toLowerCase()) || !selected.test(db, tbl)) {
                        continue;
                    }
                    TableName t = new TableName(db, tbl);
                    if ("BASE TABLE".equals(type)) {
                        tables.add(t);
                    } else if ("VIEW".equals(type)) {
                        views.add(t);
                    } else if (!UNCOPIED_NOT.contains(type)) {
                        // not information_schema's own views (in a system schema), nor MariaDB's
                        // listing of this session's temporary tables (it has none)
                        uncopied.put(t, type);
                    }
                }
            }
        }
        return new Listing(tables, views, uncopied);
    }

    /**
     * A condition on an information_schema query that keeps the rows whose {@code column} names a
     * schema, and the schemas it names, bound as parameters. Naming the schemas keeps the server from
     * opening the definitions of every other schema's tables (MariaDB 11.4: 0.29 s of its CPU for
     * 16,000 tables, against 0.01 s for one schema of 1,000); leaving the system schemas out, from
     * opening their ~100 tables'.
     *
     * @param schemas the schemas named; null for every schema but the system ones
     */
    public record SchemaCondition(String sql, List<String> schemas) {
        static SchemaCondition of(String column, List<String> schemas) {
            if (schemas == null) {
                return new SchemaCondition(column + " NOT IN ('mysql', 'information_schema', 'performance_schema',"
                        + " 'sys')", null);
            }
            return new SchemaCondition(schemas.isEmpty() ? "1 = 0"
                    : column + " IN (" + String.join(", ", Collections.nCopies(schemas.size(), "?")) + ")",
                    List.copyOf(schemas));
        }

        /** Whether no row can meet it: the query need not be sent. */
        public boolean selectsNone() {
            return schemas != null && schemas.isEmpty();
        }

        /** Binds the schemas named from parameter {@code first} on; the index of the parameter after them. */
        public int bind(PreparedStatement ps, int first) throws SQLException {
            int i = first;
            for (String s : schemas == null ? List.<String>of() : schemas) {
                ps.setString(i++, s);
            }
            return i;
        }
    }

    /**
     * The schemas that may hold a table {@code selected} selects, as a condition on {@code column}:
     * read from {@code information_schema.SCHEMATA} when {@code selected} is a {@link SchemaScope}
     * (every schema but the system ones past {@value #MAX_NAMED_SCHEMAS} of them, or when it is not).
     */
    public static SchemaCondition selectedSchemas(Connection c, String column, BiPredicate<String, String> selected)
            throws SQLException {
        return SchemaCondition.of(column, selected instanceof SchemaScope scope ? schemas(c, scope) : null);
    }

    /** The schemas of {@code tables} as a condition on {@code column} (every one but the system ones past {@value #MAX_NAMED_SCHEMAS}). */
    public static SchemaCondition schemasOf(String column, Collection<TableName> tables) {
        List<String> schemas = tables.stream().map(TableName::schema).distinct().toList();
        return SchemaCondition.of(column, schemas.size() > MAX_NAMED_SCHEMAS ? null : schemas);
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

    /** Reads the columns and keys of a table, or of every table of a schema. */
    private static final TableReadCache.Reader<TableSchema> READER = new TableReadCache.Reader<>() {
        @Override
        public TableSchema one(Connection c, TableName table) throws SQLException {
            return read(c, table.schema(), table.table()).get(table.table());
        }

        @Override
        public Map<String, TableSchema> whole(Connection c, String schema) throws SQLException {
            return readAll(c, schema);
        }
    };

    /**
     * The columns and keys of those of {@code tables} whose schema holds {@value
     * TableReadCache#WHOLE_AFTER} or more of them, each such schema read whole ({@link #readAll}); the
     * others, and a table missing from its schema's listing, are left to {@link #read}. Two
     * statements a table cost a server more than its schema's listing once a schema has many of them.
     */
    public static Map<TableName, TableSchema> readTogether(Connection c, Collection<TableName> tables)
            throws SQLException {
        return TableReadCache.readWhole(c, tables, READER);
    }

    /**
     * The columns and keys of each of {@code tables}: {@link #readTogether}, then the rest table by
     * table. A table not there is left out.
     */
    public static Map<TableName, TableSchema> readEach(Connection c, Collection<TableName> tables)
            throws SQLException {
        return TableReadCache.readEach(c, tables, READER);
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
