package io.jdm.embedded;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** A running database server that a test or the demo can connect to over TCP. */
public interface SqlServer extends AutoCloseable {
    /** Embedded servers listen on loopback only. */
    default String host() {
        return "127.0.0.1";
    }

    int port();

    /** Embedded servers let root in from 127.0.0.1 with an empty password (an init file at every start). */
    default String user() {
        return "root";
    }

    default String password() {
        return "";
    }

    /** One of {@code mariadb}, {@code mysql}, {@code tidb}. */
    String flavor();

    /** A JDBC URL for Connector/J, optionally with a default database. */
    default String jdbcUrl(String database) {
        return "jdbc:mysql://" + host() + ":" + port() + "/" + (database == null ? "" : database)
                + "?useSSL=false&allowPublicKeyRetrieval=true&serverTimezone=UTC&allowLoadLocalInfile=true";
    }

    /** The embedded flavour this server is, or null for one this module did not start (TiDB). */
    default ServerFlavor serverFlavor() {
        return null;
    }

    /**
     * The privilege that lets a user read binlog positions ({@code SHOW MASTER STATUS}, {@code SHOW
     * BINARY LOGS}) and replica status: MariaDB 10.5+ split it off as {@code BINLOG MONITOR, SLAVE
     * MONITOR}; MySQL keeps it in {@code REPLICATION CLIENT}.
     */
    default String binlogMonitorPrivilege() {
        return flavor().equals("mariadb") ? "BINLOG MONITOR, SLAVE MONITOR" : "REPLICATION CLIENT";
    }

    /** Stops the server process, keeping its data, so {@link #restart()} brings it back on the same port. */
    default void stopServer() {
        throw new UnsupportedOperationException(this + " cannot be stopped and restarted");
    }

    /**
     * Kills the server process as a crash would (SIGKILL), keeping its data: no client is told, and
     * its connections drop at once. {@link #restart()} brings it back after crash recovery.
     */
    default void kill() {
        throw new UnsupportedOperationException(this + " cannot be killed and restarted");
    }

    /** Starts a server stopped by {@link #stopServer()} or {@link #kill()} again on the same port and data. */
    default void restart() {
        throw new UnsupportedOperationException(this + " cannot be stopped and restarted");
    }

    /** As {@link #restart()}, with server options that win over the ones the server was started with. */
    default void restart(java.util.List<String> extraArgs) {
        throw new UnsupportedOperationException(this + " cannot be restarted with other options");
    }

    default Connection connect() throws SQLException {
        return java.sql.DriverManager.getConnection(jdbcUrl(null), user(), password());
    }

    /** Runs statements as this server's user, failing on the first error. */
    default void execute(String... sql) {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(flavor() + " on port " + port() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Drops and recreates a database in utf8mb4 whatever the server's default: the fresh schema
     * each test starts from.
     */
    default void freshDatabase(String database) {
        String q = "`" + database.replace("`", "``") + "`";
        execute("DROP DATABASE IF EXISTS " + q, "CREATE DATABASE " + q + " CHARACTER SET utf8mb4");
    }

    /**
     * Every row of a query as one string, its columns joined by {@code |} (NULL as empty): the way
     * tests compare source and target row by row. Select {@code HEX(col)} to compare bytes.
     */
    default List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    String v = rs.getString(i);
                    sb.append(i > 1 ? "|" : "").append(v == null ? "" : v);
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    /**
     * Every row of {@code db.table} with every column as HEX, in primary-key (or first column) order:
     * the bytes themselves compared, not what a driver makes of them.
     */
    default List<String> hexRows(String db, String table) throws SQLException {
        List<String> cols = rows("SELECT CONCAT('`', REPLACE(COLUMN_NAME, '`', '``'), '`') FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = '" + db.replace("'", "''") + "' AND TABLE_NAME = '" + table.replace("'", "''")
                + "' ORDER BY ORDINAL_POSITION");
        if (cols.isEmpty()) {
            throw new SQLException("no table " + db + "." + table + " on " + this);
        }
        StringBuilder sel = new StringBuilder();
        for (String c : cols) {
            sel.append(sel.length() == 0 ? "" : ", '|', ").append("COALESCE(HEX(").append(c).append("), 'NULL')");
        }
        String q = "`" + db.replace("`", "``") + "`.`" + table.replace("`", "``") + "`";
        return rows("SELECT CONCAT(" + sel + ") AS r FROM " + q + " ORDER BY r");
    }

    /**
     * Whether CHECKSUM TABLE gives one answer for the same rows: MySQL 5.7's changes from one run to
     * the next for tables with generated columns (seen with every column's hex equal), so tests
     * compare {@link #hexRows} there instead.
     */
    default boolean checksumTableIsStable() throws SQLException {
        return !rows("SELECT VERSION()").get(0).startsWith("5.7");
    }

    @Override
    void close();
}
