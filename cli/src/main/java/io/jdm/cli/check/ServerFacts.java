package io.jdm.cli.check;

import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the checks need to know about one server, read once over one connection. */
final class ServerFacts {
    final String version;
    final Flavor flavor;
    final Map<String, String> variables;
    final List<String> grants;
    final Connection connection;

    private ServerFacts(Connection c, String version, Map<String, String> variables, List<String> grants) {
        this.connection = c;
        this.version = version;
        this.flavor = Flavor.fromVersion(version);
        this.variables = variables;
        this.grants = grants;
    }

    static ServerFacts read(Connection c) throws SQLException {
        String version;
        Map<String, String> vars = new HashMap<>();
        List<String> grants = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT VERSION()")) {
                rs.next();
                version = rs.getString(1);
            }
            try (ResultSet rs = st.executeQuery("SHOW GLOBAL VARIABLES WHERE Variable_name IN ('log_bin', "
                    + "'binlog_format', 'binlog_row_image', 'server_id', 'log_bin_compress', 'gtid_mode', "
                    + "'gtid_strict_mode', 'character_set_server', 'max_allowed_packet', 'lower_case_table_names', "
                    + "'binlog_row_value_options', 'binlog_transaction_compression', 'max_connections', 'local_infile')")) {
                while (rs.next()) {
                    vars.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2));
                }
            }
            try (ResultSet rs = st.executeQuery("SHOW GRANTS FOR CURRENT_USER()")) {
                while (rs.next()) {
                    grants.add(rs.getString(1));
                }
            }
        }
        return new ServerFacts(c, version, vars, grants);
    }

    /** Facts given rather than read: for checks that need no connection. */
    static ServerFacts of(String version, Map<String, String> variables, List<String> grants) {
        return new ServerFacts(null, version, Map.copyOf(variables), List.copyOf(grants));
    }

    String var(String name) {
        return variables.getOrDefault(name, "");
    }

    /** True when the user holds {@code privilege} on {@code *.*} (or ALL PRIVILEGES there). */
    boolean hasGlobal(String privilege) {
        for (String g : grants) {
            String u = g.toUpperCase(Locale.ROOT);
            int on = u.indexOf(" ON *.* ");
            if (on < 0) {
                on = u.indexOf(" ON *.*");
            }
            if (!u.startsWith("GRANT ") || on < 0) {
                continue;
            }
            String privs = u.substring(6, on);
            if (privs.contains("ALL PRIVILEGES") || containsPrivilege(privs, privilege)) {
                return true;
            }
        }
        return false;
    }

    /** True when the user holds {@code privilege} globally or on the database {@code db}. */
    boolean has(String privilege, String db) {
        if (hasGlobal(privilege)) {
            return true;
        }
        String dbOn = (" ON `" + db.replace("`", "``") + "`.*").toUpperCase(Locale.ROOT);
        for (String g : grants) {
            String u = g.toUpperCase(Locale.ROOT);
            int on = u.indexOf(dbOn);
            if (u.startsWith("GRANT ") && on > 0) {
                String privs = u.substring(6, on);
                if (privs.contains("ALL PRIVILEGES") || containsPrivilege(privs, privilege)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean containsPrivilege(String privs, String privilege) {
        for (String p : privs.split(",")) {
            String t = p.strip();
            int paren = t.indexOf('(');
            if (paren >= 0) {
                continue; // column-level grants do not count
            }
            if (t.equals(privilege)) {
                return true;
            }
            // MySQL 8 and MariaDB 10.5+ renamed some privileges.
            if (privilege.equals("REPLICATION CLIENT") && (t.equals("BINLOG MONITOR") || t.equals("SLAVE MONITOR"))) {
                return true;
            }
        }
        return false;
    }
}
