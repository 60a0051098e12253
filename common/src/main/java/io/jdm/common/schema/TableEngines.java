package io.jdm.common.schema;

import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The storage engine of each target table, read once per table (or per schema, {@link TableReadCache}). A table whose engine keeps rows
 * outside transactions (MyISAM, Aria, MEMORY, ARCHIVE, CSV...) keeps what a failed or killed
 * transaction wrote into it: the load writes its files statement by statement, each announced in
 * its checkpoint before it runs ({@code FileLoader}), and sync replays its changes in safe mode
 * ({@code SqlBuilder}), so that what landed before a failure is written again over itself where a
 * key tells the rows apart.
 */
public final class TableEngines {
    /** One table's engine; {@code keyed} when it has a primary or NOT NULL unique key. */
    public record Engine(String name, boolean transactional, boolean keyed) {
    }

    private final TableReadCache<Engine> known = new TableReadCache<>(new TableReadCache.Reader<>() {
        @Override
        public Engine one(Connection c, TableName table) throws SQLException {
            return readOne(c, table);
        }

        @Override
        public Map<String, Engine> whole(Connection c, String schema) throws SQLException {
            return readAll(c, schema);
        }
    });

    /**
     * The engine of {@code table}, read on {@code c} the first time, or with its schema's when many
     * of its tables are asked for ({@link TableReadCache}); a table not there reads as transactional.
     */
    public Engine of(Connection c, TableName table) throws SQLException {
        return known.get(c, table);
    }

    /** Reads the engine of {@code table} ahead, inside the caller's transaction ({@link TableReadCache#warm}). */
    public void warm(Connection c, TableName table) throws SQLException {
        known.warm(c, table);
    }

    /** The engine of {@code table} as the server says now (a table not there reads as transactional). */
    public static Engine read(Connection c, TableName table) throws SQLException {
        Engine e = readOne(c, table);
        if (!c.getAutoCommit()) {
            c.commit();
        }
        return e;
    }

    private static final String ENGINES = "SELECT t.TABLE_NAME, t.ENGINE, e.TRANSACTIONS FROM information_schema.TABLES t"
            + " LEFT JOIN information_schema.ENGINES e ON e.ENGINE = t.ENGINE WHERE t.TABLE_SCHEMA = ?";

    private static Engine readOne(Connection c, TableName table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ENGINES + " AND t.TABLE_NAME = ?")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? engine(c, table, rs) : new Engine(null, true, false);
            }
        }
    }

    /** The engines of every table of {@code schema} in one statement, by name as the server lists them. */
    private static Map<String, Engine> readAll(Connection c, String schema) throws SQLException {
        Map<String, Engine> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(ENGINES + " AND t.TABLE_TYPE = 'BASE TABLE'")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), engine(c, new TableName(schema, rs.getString(1)), rs));
                }
            }
        }
        return out;
    }

    /** A row of {@link #ENGINES}; a table outside transactions has its keys read on {@code c}. */
    private static Engine engine(Connection c, TableName table, ResultSet rs) throws SQLException {
        String name = rs.getString(2);
        // an engine the server does not list (TiDB's own tables) is taken at its word: transactional
        boolean transactional = !"NO".equalsIgnoreCase(rs.getString(3));
        return new Engine(name, transactional, !transactional && keyed(c, table));
    }

    /**
     * Whether {@code table} has a primary key or a unique key whose columns are all NOT NULL: a key
     * that tells any two of its rows apart, so that a row written again meets the one already there.
     * A key on an invisible AUTO_INCREMENT column (MySQL's generated invisible primary key, or one
     * added on the target) does not count: an INSERT without a column list leaves it out, so the
     * server numbers a row written again anew and it never meets the one already there.
     */
    public static boolean keyed(Connection c, TableName table) throws SQLException {
        return keyed(c, table.schema(), table.table()).getOrDefault(table.table(), false);
    }

    /**
     * Those of {@code tables} that are {@link #keyed(Connection, TableName)}: the keys of a schema
     * holding {@value TableReadCache#WHOLE_AFTER} or more of them read with the whole schema's, in two
     * statements, the others' table by table (a target of 10,000 tables: 20,000 statements, against 2).
     */
    public static Set<TableName> keyed(Connection c, Collection<TableName> tables) throws SQLException {
        Set<TableName> out = new HashSet<>();
        TableReadCache.readEach(c, tables, KEYED).forEach((t, keyed) -> {
            if (keyed) {
                out.add(t);
            }
        });
        return out;
    }

    /** Reads whether a table, or each table of a schema, is keyed. */
    private static final TableReadCache.Reader<Boolean> KEYED = new TableReadCache.Reader<>() {
        @Override
        public Boolean one(Connection c, TableName table) throws SQLException {
            return keyed(c, table);
        }

        @Override
        public Map<String, Boolean> whole(Connection c, String schema) throws SQLException {
            return keyed(c, schema, null);
        }
    };

    /**
     * Whether each table of {@code schema} named {@code table} (every table of it when null) is keyed,
     * by name as the server lists it; one asked for by name keeps that name.
     */
    private static Map<String, Boolean> keyed(Connection c, String schema, String table) throws SQLException {
        // two statements that name the table, not one joining STATISTICS to COLUMNS: MariaDB reads a
        // table for information_schema only where a statement names it with constants, and the join
        // read every table's columns (50 ms a call on a target of 1,000 tables)
        String where = " WHERE TABLE_SCHEMA = ?" + (table == null ? "" : " AND TABLE_NAME = ?");
        Map<String, Set<String>> numberedAnew = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_NAME, COLUMN_NAME, EXTRA"
                + " FROM information_schema.COLUMNS" + where + " AND EXTRA LIKE '%INVISIBLE%'")) {
            bind(ps, schema, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String extra = rs.getString(3) == null ? "" : rs.getString(3).toUpperCase(Locale.ROOT);
                    if (extra.contains("INVISIBLE") && extra.contains("AUTO_INCREMENT")) {
                        numberedAnew.computeIfAbsent(table != null ? table : rs.getString(1), k -> new HashSet<>())
                                .add(rs.getString(2).toLowerCase(Locale.ROOT));
                    }
                }
            }
        }
        Map<String, Map<String, Boolean>> keys = new HashMap<>(); // table -> index -> whether it tells rows apart
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME, NULLABLE"
                + " FROM information_schema.STATISTICS" + where + " AND NON_UNIQUE = 0")) {
            bind(ps, schema, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = table != null ? table : rs.getString(1);
                    String column = rs.getString(3); // null: a part of a functional index
                    boolean apart = !"YES".equals(rs.getString(4)) && (column == null
                            || !numberedAnew.getOrDefault(name, Set.of()).contains(column.toLowerCase(Locale.ROOT)));
                    keys.computeIfAbsent(name, k -> new LinkedHashMap<>()).merge(rs.getString(2), apart,
                            Boolean::logicalAnd);
                }
            }
        }
        Map<String, Boolean> out = new HashMap<>();
        keys.forEach((name, indexes) -> out.put(name, indexes.containsValue(true)));
        return out;
    }

    private static void bind(PreparedStatement ps, String schema, String table) throws SQLException {
        ps.setString(1, schema);
        if (table != null) {
            ps.setString(2, table);
        }
    }
}
