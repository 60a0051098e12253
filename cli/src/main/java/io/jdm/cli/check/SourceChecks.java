package io.jdm.cli.check;

import io.jdm.common.config.Consistency;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.ServerRsaKey;
import io.jdm.common.position.Flavor;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.sql.TableName;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The checks on a source server. */
final class SourceChecks {
    private SourceChecks() {
    }

    static List<CheckResult> run(ServerFacts f, String inst, PrecheckInput.Source s, PrecheckInput in)
            throws SQLException {
        List<CheckResult> out = new ArrayList<>();
        out.add(version(f, inst));
        if (in.needsDump()) {
            out.add(dumpPrivileges(f, inst, s.consistency()));
        }
        if (in.needsBinlog()) {
            out.add(binlogEnabled(f, inst));
            out.add(expect(f, inst, "binlog_format", "ROW",
                    "SET GLOBAL binlog_format=ROW and binlog_format=ROW in my.cnf, then reconnect writers"));
            if (f.var("binlog_format").equalsIgnoreCase("ROW")) {
                out.add(sessionBinlogFormat(f, inst));
            }
            out.add(expect(f, inst, "binlog_row_image", "FULL",
                    "SET GLOBAL binlog_row_image=FULL and in my.cnf"));
            out.add(serverId(f, inst));
            if (f.flavor == Flavor.MYSQL) {
                out.add(rowValueOptions(f, inst));
                out.add(binlogLogin(f, inst, s.spec()));
            }
            if (f.flavor == Flavor.MARIADB) {
                out.add(logBinCompress(f, inst));
            }
            out.add(gtid(f, inst, s.enableGtid()));
            out.add(replicationPrivileges(f, inst));
        }
        out.add(connections(f, inst, s.sourceConnections(), "mydumpers.threads"));
        out.addAll(TableChecks.run(f, inst, s));
        return out;
    }

    /**
     * DM's conn_number: the server must allow the connections the task opens at once. A warning, since
     * max_connections counts every client of the server and a privileged user gets one more.
     */
    static CheckResult connections(ServerFacts f, String inst, int needed, String keys) {
        long allowed;
        try {
            allowed = Long.parseLong(f.var("max_connections").trim());
        } catch (NumberFormatException e) {
            allowed = 0;
        }
        if (allowed <= 0 || needed <= allowed) { // TiDB's 0: no limit
            return CheckResult.pass("conn_number", inst, "the task opens up to " + needed
                    + " connections at once; max_connections is " + (allowed <= 0 ? "unlimited" : allowed));
        }
        return CheckResult.warn("conn_number", inst, "the task opens up to " + needed + " connections at once but"
                + " max_connections is " + allowed + ": raise max_connections or lower " + keys);
    }

    static CheckResult version(ServerFacts f, String inst) {
        String v = f.version;
        int[] mm = majorMinor(v);
        boolean ok = switch (f.flavor) {
            case TIDB -> true;
            case MARIADB -> mm[0] > 10 || (mm[0] == 10 && mm[1] >= 4);
            case MYSQL -> (mm[0] == 5 && mm[1] >= 7) || (mm[0] == 8 && mm[1] <= 4);
        };
        if (ok) {
            return CheckResult.pass("version", inst, f.flavor.name().toLowerCase(Locale.ROOT) + " " + v);
        }
        if (f.flavor == Flavor.MYSQL && mm[0] >= 8) {
            return CheckResult.warn("version", inst, "MySQL " + v + " is newer than 8.4, the newest version jdm is tested on");
        }
        return CheckResult.fail("version", inst, "server " + v + " is not supported: use MySQL 5.7-8.4, MariaDB 10.4+ or TiDB");
    }

    static int[] majorMinor(String version) {
        String v = version;
        int tidb = v.indexOf("-TiDB-v");
        if (tidb >= 0) {
            v = v.substring(tidb + 7);
        }
        String[] parts = v.split("[.-]");
        try {
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (RuntimeException e) {
            return new int[] {0, 0};
        }
    }

    private static CheckResult binlogEnabled(ServerFacts f, String inst) {
        String v = f.var("log_bin");
        if (v.equalsIgnoreCase("ON") || v.equals("1")) {
            return CheckResult.pass("binlog_enable", inst, "binary log is on");
        }
        return CheckResult.fail("binlog_enable", inst,
                "binary log is off: start the server with log-bin (and server-id) to replicate from it");
    }

    private static CheckResult expect(ServerFacts f, String inst, String var, String want, String fix) {
        String v = f.var(var);
        if (v.equalsIgnoreCase(want)) {
            return CheckResult.pass(var, inst, var + "=" + v);
        }
        return CheckResult.fail(var, inst, var + "=" + (v.isEmpty() ? "(unset)" : v) + ", need " + want + ": " + fix);
    }

    /**
     * A session may still log its row changes as statements (SET SESSION binlog_format), which sync
     * cannot replay and stops at. Whose sessions may do so is not the task user's to read (other
     * users' grants), so a warning: the source's writers must keep ROW.
     */
    static CheckResult sessionBinlogFormat(ServerFacts f, String inst) {
        String privilege = switch (f.flavor) {
            case MARIADB -> "SUPER or BINLOG ADMIN";
            case MYSQL -> f.version.startsWith("5.") ? "SUPER" : "SESSION_VARIABLES_ADMIN or SYSTEM_VARIABLES_ADMIN";
            case TIDB -> "SUPER";
        };
        return CheckResult.warn("session_binlog_format", inst, "binlog_format is ROW globally, but a session with "
                + privilege + " can still SET SESSION binlog_format=STATEMENT or MIXED; sync stops at the first row "
                + "change logged as a statement: make sure the source's writers keep ROW");
    }

    /**
     * MySQL 8's PARTIAL_JSON logs only the changed parts of a JSON value (PARTIAL_UPDATE_ROWS), which
     * the binlog library cannot decode: sync stops at the first such event of a selected table.
     */
    static CheckResult rowValueOptions(ServerFacts f, String inst) {
        String v = f.var("binlog_row_value_options");
        if (!v.toUpperCase(Locale.ROOT).contains("PARTIAL_JSON")) {
            return CheckResult.pass("binlog_row_value_options", inst, "binlog_row_value_options='" + v + "'");
        }
        return CheckResult.fail("binlog_row_value_options", inst, "binlog_row_value_options=" + v
                + ": partial JSON updates cannot be replayed; SET GLOBAL binlog_row_value_options='' and set it "
                + "in my.cnf, then reconnect the source's writers");
    }

    private static CheckResult serverId(ServerFacts f, String inst) {
        String v = f.var("server_id");
        if (!v.isEmpty() && !v.equals("0")) {
            return CheckResult.pass("server_id", inst, "server_id=" + v);
        }
        return CheckResult.fail("server_id", inst, "server_id is 0: set a unique server-id in my.cnf");
    }

    private static CheckResult logBinCompress(ServerFacts f, String inst) {
        String v = f.var("log_bin_compress");
        if (v.isEmpty() || v.equalsIgnoreCase("OFF") || v.equals("0")) {
            return CheckResult.pass("log_bin_compress", inst, "log_bin_compress=OFF");
        }
        return CheckResult.fail("log_bin_compress", inst,
                "log_bin_compress=ON: compressed binlog events cannot be read; SET GLOBAL log_bin_compress=OFF");
    }

    private static CheckResult gtid(ServerFacts f, String inst, boolean enableGtid) {
        if (f.flavor == Flavor.MARIADB) {
            return CheckResult.pass("gtid", inst, "MariaDB GTID is always on");
        }
        String mode = f.var("gtid_mode");
        if (mode.equalsIgnoreCase("ON")) {
            return CheckResult.pass("gtid", inst, "gtid_mode=ON");
        }
        if (enableGtid) {
            return CheckResult.fail("gtid", inst, "gtid_mode=" + (mode.isEmpty() ? "OFF" : mode)
                    + " but enable-gtid is true: turn GTID on or set syncers.*.enable-gtid: false");
        }
        return CheckResult.warn("gtid", inst, "gtid_mode=" + (mode.isEmpty() ? "OFF" : mode)
                + ": replication uses file/pos, which does not survive a source failover");
    }

    /**
     * SELECT, RELOAD and LOCK TABLES, as DM checks them; a lock-free dump takes no lock and needs
     * SELECT only, and {@code auto} goes lock-free where RELOAD is missing.
     */
    private static CheckResult dumpPrivileges(ServerFacts f, String inst, Consistency consistency) {
        List<String> missing = new ArrayList<>();
        for (String p : List.of("SELECT", "RELOAD", "LOCK TABLES")) {
            if (!f.hasGlobal(p)) {
                missing.add(p);
            }
        }
        if (missing.isEmpty()) {
            return CheckResult.pass("dump_privilege", inst, "SELECT, RELOAD, LOCK TABLES granted");
        }
        if (!missing.contains("SELECT") && consistency == Consistency.LOCK_FREE) {
            return CheckResult.pass("dump_privilege", inst, "SELECT granted; consistency lock-free takes no lock, so "
                    + "RELOAD and LOCK TABLES are not needed");
        }
        if (!missing.contains("SELECT") && missing.contains("RELOAD") && consistency == Consistency.AUTO) {
            return CheckResult.warn("dump_privilege", inst, "RELOAD missing: FLUSH TABLES WITH READ LOCK is not "
                    + "possible, the dump goes lock-free, each chunk in its own snapshot (GRANT RELOAD ON *.* for one "
                    + "snapshot of all tables)");
        }
        if (missing.equals(List.of("RELOAD"))) {
            return CheckResult.warn("dump_privilege", inst, "RELOAD missing: FLUSH TABLES WITH READ LOCK is not "
                    + "possible, the dump falls back to LOCK TABLES (GRANT RELOAD ON *.* for the shortest lock)");
        }
        return CheckResult.fail("dump_privilege", inst, "missing " + String.join(", ", missing)
                + ": GRANT " + String.join(", ", missing) + " ON *.* TO the task's source user");
    }

    /**
     * Whether, and how, the binlog stream logs in as the task's user. mysql_native_password sends a
     * hash; sha256_password, and caching_sha2_password (MySQL 8's default) when the server holds no
     * cached hash of the password, send the password itself: over TLS, else encrypted with the
     * server's RSA public key, pinned by the task or asked of the server. The item says which way
     * it goes, and fails where neither is possible, since the JDBC connections of a dump and load
     * might get through (a cached hash) and the task would stop only once it reaches sync. An
     * account whose plugin cannot be read (no such privilege) passes with a note.
     */
    static CheckResult binlogLogin(ServerFacts f, String inst, ConnectionSpec spec) {
        String plugin;
        try (var st = f.connection.createStatement(); var rs = st.executeQuery("SHOW CREATE USER CURRENT_USER()")) {
            plugin = rs.next() ? authPlugin(rs.getString(1)) : null;
        } catch (SQLException e) {
            plugin = null;
        }
        if (plugin == null) {
            return CheckResult.pass("binlog_login", inst, "the user's authentication plugin could not be read");
        }
        boolean sha256 = plugin.equals("sha256_password");
        if (!sha256 && !plugin.equals("caching_sha2_password")) {
            return CheckResult.pass("binlog_login", inst, "the user logs in with " + plugin);
        }
        String logsIn = "the user logs in with " + plugin;
        if (spec.tls().isPresent()) {
            return CheckResult.pass("binlog_login", inst, logsIn + ", its password sent over TLS");
        }
        ServerRsaKey key = spec.rsaKey();
        if (key.file().isPresent()) {
            return CheckResult.pass("binlog_login", inst, logsIn + ", without TLS its password encrypted with the RSA"
                    + " public key in " + key.file().get());
        }
        String when = sha256 ? "" : " when the server holds no cached hash of it (after a restart or FLUSH PRIVILEGES)";
        if (!key.retrieved()) {
            String text = "the task's source user logs in with " + plugin + ", which without TLS needs the server's RSA"
                    + " public key" + when + ", and security.allow-public-key-retrieval is false: add ssl-ca (TLS) or"
                    + " server-rsa-public-key-file to the source's security section";
            return sha256 ? CheckResult.fail("binlog_login", inst, text) : CheckResult.warn("binlog_login", inst, text);
        }
        if (!serverHasKey(f, sha256 ? "Rsa_public_key" : "Caching_sha2_password_rsa_public_key")) {
            String text = "the task's source user logs in with " + plugin + ", which without TLS needs the server's RSA"
                    + " public key" + when + ", and this server has no RSA key pair: add ssl-ca (TLS) to the source's"
                    + " security section, or give the server a key pair";
            return sha256 ? CheckResult.fail("binlog_login", inst, text) : CheckResult.warn("binlog_login", inst, text);
        }
        return CheckResult.pass("binlog_login", inst, logsIn + ", without TLS its password encrypted with the "
                + "server's RSA public key" + when + ", asked of the server (where the network is not trusted, "
                + "pin it with security.server-rsa-public-key-file or use TLS)");
    }

    /** Whether the server has the RSA key pair a status variable shows the public half of. */
    private static boolean serverHasKey(ServerFacts f, String status) {
        try (var st = f.connection.createStatement();
             var rs = st.executeQuery("SHOW GLOBAL STATUS LIKE '" + status + "'")) {
            return rs.next() && rs.getString(2) != null && rs.getString(2).contains("BEGIN PUBLIC KEY");
        } catch (SQLException e) {
            return true; // not readable: the login itself will tell
        }
    }

    /** The plugin of {@code SHOW CREATE USER}'s {@code IDENTIFIED WITH 'plugin'}, or null. */
    static String authPlugin(String createUser) {
        String u = createUser.toUpperCase(Locale.ROOT);
        int at = u.indexOf("IDENTIFIED WITH ");
        if (at < 0) {
            return null;
        }
        int open = createUser.indexOf('\'', at);
        int close = open < 0 ? -1 : createUser.indexOf('\'', open + 1);
        return close < 0 ? null : createUser.substring(open + 1, close).toLowerCase(Locale.ROOT);
    }

    private static CheckResult replicationPrivileges(ServerFacts f, String inst) {
        List<String> missing = new ArrayList<>();
        for (String p : List.of("REPLICATION SLAVE", "REPLICATION CLIENT")) {
            if (!f.hasGlobal(p)) {
                missing.add(p);
            }
        }
        if (missing.isEmpty()) {
            return CheckResult.pass("replication_privilege", inst, "REPLICATION SLAVE, REPLICATION CLIENT granted");
        }
        return CheckResult.fail("replication_privilege", inst, "missing " + String.join(", ", missing)
                + ": GRANT " + String.join(", ", missing) + " ON *.* TO the task's source user");
    }

    static List<TableName> tables(ServerFacts f, PrecheckInput.Source s) throws SQLException {
        return SchemaReader.listTables(f.connection, s.tableFilter());
    }
}
