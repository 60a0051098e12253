package io.jdm.common.position;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** Which server we talk to; decides GTID syntax, snapshot method and a few SQL details. */
public enum Flavor {
    MYSQL, MARIADB, TIDB;

    /** Detects the flavor from {@code SELECT VERSION()}. */
    public static Flavor detect(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            rs.next();
            return fromVersion(rs.getString(1));
        }
    }

    public static Flavor fromVersion(String version) {
        String v = version.toLowerCase(Locale.ROOT);
        if (v.contains("tidb")) {
            return TIDB;
        }
        if (v.contains("mariadb")) {
            return MARIADB;
        }
        return MYSQL;
    }

    /** Reads the current binlog position (file, pos and GTID set) as {@code SHOW MASTER STATUS} gives it. */
    public BinlogPosition currentPosition(Connection c) throws SQLException {
        String file;
        long pos;
        String gtid = "";
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(this == MYSQL ? showMasterStatusSql(c) : "SHOW MASTER STATUS")) {
            if (!rs.next()) {
                throw new SQLException("binary log is disabled on the source (SHOW MASTER STATUS returned no row)");
            }
            file = rs.getString(1);
            pos = rs.getLong(2);
            if (this != MARIADB && rs.getMetaData().getColumnCount() >= 5) {
                gtid = rs.getString(5);
            }
        }
        if (this == MARIADB) {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@gtid_binlog_pos")) {
                rs.next();
                gtid = rs.getString(1);
            }
        }
        return new BinlogPosition(file, pos, gtid);
    }

    private static String showMasterStatusSql(Connection c) throws SQLException {
        return mysqlStatusSql(c.getMetaData().getDatabaseMajorVersion(), c.getMetaData().getDatabaseMinorVersion());
    }

    /** MySQL 8.4 removed SHOW MASTER STATUS in favour of SHOW BINARY LOG STATUS (8.2+ has both). */
    static String mysqlStatusSql(int major, int minor) {
        return (major > 8 || (major == 8 && minor >= 4)) ? "SHOW BINARY LOG STATUS" : "SHOW MASTER STATUS";
    }
}
