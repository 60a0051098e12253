package io.jdm.common.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Calendar;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;

/** Builds pools and single connections from a {@link ConnectionSpec}, with its session variables applied. */
public final class DataSources {
    private static final int ACCESS_DENIED = 1045;
    private static final int UNKNOWN_SYSTEM_VARIABLE = 1193;
    private DataSources() {
    }

    /**
     * Starts initializing, on a daemon thread, the driver's classes a process's first connection
     * needs (its character set table, property definitions, URL parser, protocol) and the calendar
     * every result set makes: about 0.1 s of CPU that the command's own thread would otherwise
     * spend when it opens that connection, after reading its task file. Nothing fails if it does.
     */
    public static void warmUp() {
        Thread t = new Thread(() -> {
            try {
                ClassLoader loader = DataSources.class.getClassLoader();
                for (Class<?> c : List.of(com.mysql.cj.jdbc.Driver.class, com.mysql.cj.CharsetMapping.class,
                        com.mysql.cj.conf.PropertyDefinitions.class, com.mysql.cj.conf.ConnectionUrl.class,
                        com.mysql.cj.protocol.a.NativeProtocol.class, com.mysql.cj.jdbc.ConnectionImpl.class,
                        com.mysql.cj.jdbc.result.ResultSetImpl.class)) {
                    Class.forName(c.getName(), true, loader);
                }
                com.mysql.cj.conf.ConnectionUrl.getConnectionUrlInstance("jdbc:mysql://127.0.0.1:3306/",
                        new Properties());
                Calendar.getInstance(TimeZone.getDefault(), Locale.US);
            } catch (Throwable ignored) {
                // the first connection initializes whatever is left
            }
        }, "jdm-driver-warm-up");
        t.setDaemon(true);
        t.start();
    }

    /** A HikariCP pool of exactly {@code size} connections named {@code name}. */
    public static HikariDataSource pool(ConnectionSpec spec, int size, String name) {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName(name);
        hc.setJdbcUrl(spec.jdbcUrl());
        hc.setUsername(spec.user());
        hc.setPassword(spec.password());
        spec.driverProperties().forEach((k, v) -> hc.addDataSourceProperty((String) k, v));
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(0);
        hc.setConnectionTimeout(Math.max(250, spec.connectTimeoutSeconds() * 1000L));
        hc.setInitializationFailTimeout(-1);
        hc.setAutoCommit(true);
        String init = sessionSql(spec.session());
        if (!init.isEmpty()) {
            hc.setConnectionInitSql(init);
        }
        return new HikariDataSource(hc);
    }

    /** One connection outside any pool: for the dump's snapshot and the checks. */
    public static Connection connect(ConnectionSpec spec) throws SQLException {
        return connect(spec, new Properties());
    }

    /**
     * One connection outside any pool, with Connector/J properties of the caller's added (e.g. the
     * sync writers' multi-statement batches) and the spec's session variables set.
     */
    public static Connection connect(ConnectionSpec spec, Properties driver) throws SQLException {
        Properties p = spec.driverProperties();
        p.putAll(driver);
        p.setProperty("user", spec.user());
        p.setProperty("password", spec.password());
        DriverManager.setLoginTimeout(spec.connectTimeoutSeconds());
        Connection c;
        try {
            c = DriverManager.getConnection(spec.jdbcUrl(), p);
        } catch (SQLException e) {
            throw requiresTls(spec, p, e) ? new SQLException(e.getMessage() + " (over TLS the same user and password"
                    + " are let in: the user requires TLS (REQUIRE SSL or X509); add a security section with ssl-ca"
                    + ", and ssl-cert/ssl-key for X509, to this server's entry)", e.getSQLState(), e.getErrorCode(), e)
                    : e;
        }
        try {
            setSession(c, spec.session());
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /**
     * Whether a login refused without TLS (MySQL answers a REQUIRE SSL user's plain login with the
     * same "access denied" as a wrong password) is let in over TLS: one probe, only after such a
     * refusal and only when the spec has no TLS. The probe does not check the server's certificate
     * and runs no statement: it tells two causes of one error apart, with the password the plain
     * login already sent.
     */
    private static boolean requiresTls(ConnectionSpec spec, Properties p, SQLException e) {
        if (e.getErrorCode() != ACCESS_DENIED || spec.tls().isPresent()) {
            return false;
        }
        try (Connection probe = DriverManager.getConnection(spec.jdbcUrl().replace("sslMode=DISABLED",
                "sslMode=REQUIRED"), p)) {
            return true;
        } catch (SQLException again) {
            return false;
        }
    }

    /**
     * Shows a generated invisible primary key on a connection that reads table definitions: MySQL
     * 8.0.30+ hides {@code my_row_id} from SHOW CREATE TABLE and information_schema when
     * {@code show_gipk_in_create_table_and_information_schema} is OFF, though the table's rows and
     * its binlog rows carry it. A server without the variable (MariaDB, MySQL before 8.0.30) has
     * nothing to show.
     */
    public static void showGeneratedInvisibleKeys(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION show_gipk_in_create_table_and_information_schema = ON");
        } catch (SQLException e) {
            if (e.getErrorCode() != UNKNOWN_SYSTEM_VARIABLE) {
                throw e;
            }
        }
    }

    /** {@code SET SESSION} of every variable given, names checked and values quoted the one way. */
    public static void setSession(Connection c, Map<String, String> session) throws SQLException {
        String sql = sessionSql(session);
        if (!sql.isEmpty()) {
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            }
        }
    }

    static String sessionSql(Map<String, String> session) {
        if (session.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("SET SESSION ");
        boolean first = true;
        for (Map.Entry<String, String> e : session.entrySet()) {
            if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_.]*")) {
                throw new IllegalArgumentException("session variable name not allowed: " + e.getKey());
            }
            if (!first) {
                sb.append(", ");
            }
            first = false;
            sb.append(e.getKey()).append(" = ").append(sessionValue(e.getValue()));
        }
        return sb.toString();
    }

    private static String sessionValue(String v) {
        if (v.matches("-?[0-9]+(\\.[0-9]+)?") || v.equalsIgnoreCase("ON") || v.equalsIgnoreCase("OFF")
                || v.equalsIgnoreCase("DEFAULT")) {
            return v;
        }
        return "'" + v.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
