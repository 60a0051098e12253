package io.jdm.common.jdbc;

import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The session variables jdm adds on a TiDB target, as DM does; none on any other server. A
 * variable the task's {@code target-database.session} sets already is left as configured.
 * <ul>
 * <li>{@code tidb_txn_mode = 'optimistic'} (TiDB 3.0+), DM's default for its writers: no lock is
 * taken per statement, which is cheaper for large batches, and nothing conflicts since causality
 * keeps every key on one writer and each writer has its own checkpoint row.
 * <li>{@code allow_auto_random_explicit_insert = 1} (TiDB 4.0.3+, as Lightning sets it): rows
 * carry their key values from the source, which TiDB refuses for an AUTO_RANDOM column otherwise.
 * </ul>
 */
public final class TidbSession {
    private TidbSession() {
    }

    /** What to add to {@code configured} for a server that says {@code version}. */
    public static Map<String, String> defaults(String version, Map<String, String> configured) {
        Map<String, String> out = new LinkedHashMap<>();
        if (Flavor.fromVersion(version) != Flavor.TIDB) {
            return out;
        }
        int[] v = tidbVersion(version);
        if (atLeast(v, 3, 0, 0) && !isSet(configured, "tidb_txn_mode")) {
            out.put("tidb_txn_mode", "optimistic");
        }
        if (atLeast(v, 4, 0, 3) && !isSet(configured, "allow_auto_random_explicit_insert")) {
            out.put("allow_auto_random_explicit_insert", "1");
        }
        return out;
    }

    /** The same for the server {@code c} is connected to. */
    public static Map<String, String> defaults(Connection c, Map<String, String> configured) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            return rs.next() ? defaults(rs.getString(1), configured) : Map.of();
        }
    }

    /** TiDB's own version (major, minor, patch) from {@code 8.0.11-TiDB-v7.5.1}; zeros where unreadable. */
    public static int[] tidbVersion(String version) {
        int at = version.indexOf("-TiDB-v");
        String[] parts = (at < 0 ? "" : version.substring(at + 7)).split("[.-]");
        int[] out = new int[3];
        for (int i = 0; i < 3 && i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                break;
            }
        }
        return out;
    }

    private static boolean atLeast(int[] v, int major, int minor, int patch) {
        return Integer.compare(v[0], major) > 0 || v[0] == major && (v[1] > minor || v[1] == minor && v[2] >= patch);
    }

    private static boolean isSet(Map<String, String> configured, String name) {
        return configured.keySet().stream().anyMatch(k -> k.toLowerCase(Locale.ROOT).equals(name));
    }
}
