package io.jdm.common.schema;

import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The storage engine of each target table, read once per table. A table whose engine keeps rows
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

    private final Map<TableName, Engine> known = new ConcurrentHashMap<>();

    /** The engine of {@code table}, read on {@code c} the first time (a table not there reads as transactional). */
    public Engine of(Connection c, TableName table) throws SQLException {
        Engine e = known.get(table);
        if (e == null) {
            e = read(c, table);
            known.put(table, e);
        }
        return e;
    }

    /** The engine of {@code table} as the server says now (a table not there reads as transactional). */
    public static Engine read(Connection c, TableName table) throws SQLException {
        String name = null;
        boolean transactional = true;
        try (PreparedStatement ps = c.prepareStatement("SELECT t.ENGINE, e.TRANSACTIONS FROM information_schema.TABLES t"
                + " LEFT JOIN information_schema.ENGINES e ON e.ENGINE = t.ENGINE"
                + " WHERE t.TABLE_SCHEMA = ? AND t.TABLE_NAME = ?")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    name = rs.getString(1);
                    // an engine the server does not list (TiDB's own tables) is taken at its word: transactional
                    transactional = !"NO".equalsIgnoreCase(rs.getString(2));
                }
            }
        }
        boolean keyed = !transactional && keyed(c, table);
        if (!c.getAutoCommit()) {
            c.commit();
        }
        return new Engine(name, transactional, keyed);
    }

    /**
     * Whether {@code table} has a primary key or a unique key whose columns are all NOT NULL: a key
     * that tells any two of its rows apart, so that a row written again meets the one already there.
     * A key on an invisible AUTO_INCREMENT column (MySQL's generated invisible primary key, or one
     * added on the target) does not count: an INSERT without a column list leaves it out, so the
     * server numbers a row written again anew and it never meets the one already there.
     */
    public static boolean keyed(Connection c, TableName table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT s.INDEX_NAME FROM information_schema.STATISTICS s"
                + " LEFT JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = s.TABLE_SCHEMA"
                + " AND c.TABLE_NAME = s.TABLE_NAME AND c.COLUMN_NAME = s.COLUMN_NAME"
                + " WHERE s.TABLE_SCHEMA = ? AND s.TABLE_NAME = ? AND s.NON_UNIQUE = 0 GROUP BY s.INDEX_NAME"
                + " HAVING SUM(s.NULLABLE = 'YES') = 0"
                + " AND SUM(c.EXTRA LIKE '%INVISIBLE%' AND c.EXTRA LIKE '%auto_increment%') = 0")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
