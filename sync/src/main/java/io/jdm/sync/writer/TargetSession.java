package io.jdm.sync.writer;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.TidbSession;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A writer's own connection to the target: multi-statement batches (one round trip per batch),
 * autocommit off, and the session that makes replayed values land exactly: strict, zero and
 * partial dates allowed, explicit 0 kept in AUTO_INCREMENT columns, no foreign-key checks (rows of
 * related tables are applied by different writers). On TiDB also DM's session (see {@link TidbSession}).
 */
final class TargetSession {
    static final String SQL_MODE = "STRICT_TRANS_TABLES,NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES,NO_ENGINE_SUBSTITUTION";

    private TargetSession() {
    }

    static Connection open(ConnectionSpec spec) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", spec.user());
        p.setProperty("password", spec.password());
        p.setProperty("allowMultiQueries", "true");
        p.setProperty("socketTimeout", "600000");
        Connection c = DriverManager.getConnection(spec.jdbcUrl(), p);
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = '" + SQL_MODE + "', foreign_key_checks = 0");
            Map<String, String> session = new LinkedHashMap<>(TidbSession.defaults(c, spec.session()));
            session.putAll(spec.session());
            for (Map.Entry<String, String> e : session.entrySet()) {
                if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_.]*")) {
                    throw new SQLException("session variable name not allowed: " + e.getKey());
                }
                st.execute("SET SESSION " + e.getKey() + " = " + value(e.getValue()));
            }
            c.setAutoCommit(false);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private static String value(String v) {
        if (v.matches("-?[0-9]+(\\.[0-9]+)?") || v.equalsIgnoreCase("ON") || v.equalsIgnoreCase("OFF")
                || v.equalsIgnoreCase("DEFAULT")) {
            return v;
        }
        return io.jdm.common.sql.Identifiers.literal(v);
    }

    /** Runs a multi-statement string, reading every result so a failing statement surfaces here. */
    static void executeAll(Statement st, String sql) throws SQLException {
        boolean isResult = st.execute(sql);
        while (isResult || st.getUpdateCount() != -1) {
            isResult = st.getMoreResults();
        }
    }
}
