package io.jdm.sync.ring;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.SqlModes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Puts a target connection into a {@link SourceSession} for one statement and back into its own
 * session afterwards: each variable's value is read before and set back after, except timestamp,
 * which goes back to the clock. One SET per variable, so a value the target refuses is named.
 */
public final class SessionSwitch implements AutoCloseable {
    /** MySQL 8's variable; a target without it has no such default to follow. */
    private static final String UTF8MB4_DEFAULT = "default_collation_for_utf8mb4";
    private static final String COLLATIONS = "character_set_collations";
    private static final Set<String> ONLY_WHERE_KNOWN = Set.of(UTF8MB4_DEFAULT);
    private static final int UNKNOWN_SYSTEM_VARIABLE = 1193;

    private final Connection c;
    private final Map<String, String> saved;

    private SessionSwitch(Connection c, Map<String, String> saved) {
        this.c = c;
        this.saved = saved;
    }

    /**
     * Sets {@code s} on {@code c}. A value the target refuses stops the task (FatalException naming
     * it); a lost connection is thrown as it came (SQLException), for the caller's retry.
     */
    public static SessionSwitch enter(Connection c, SourceSession s, String where) throws SQLException {
        Map<String, String> vars = charsetsLast(utf8mb4DefaultForTarget(c, s.variables()));
        Map<String, String> own = new LinkedHashMap<>();
        try (Statement st = c.createStatement()) {
            for (String name : vars.keySet()) {
                if (name.equals("timestamp")) {
                    own.put(name, "DEFAULT"); // back to the clock
                    continue;
                }
                try (ResultSet rs = st.executeQuery("SELECT @@SESSION." + name)) {
                    rs.next();
                    String v = rs.getString(1);
                    own.put(name, v == null ? "DEFAULT" : v.matches("-?[0-9]+|ON|OFF") ? v : Identifiers.literal(v));
                } catch (SQLException e) {
                    if (e.getErrorCode() != UNKNOWN_SYSTEM_VARIABLE || !(ONLY_WHERE_KNOWN.contains(name)
                            || name.equals(COLLATIONS) && !s.variables().containsKey(COLLATIONS))) {
                        throw e;
                    }
                }
            }
        }
        // only what differs is set (and put back): a target that refuses to set a variable it already
        // has at the source's value (read-only on TiDB, global-only on an older server) is not stopped
        Map<String, String> saved = new LinkedHashMap<>();
        SessionSwitch sw = new SessionSwitch(c, saved);
        try (Statement st = c.createStatement()) {
            for (Map.Entry<String, String> e : vars.entrySet()) {
                String mine = own.get(e.getKey());
                if (mine == null || (!e.getKey().equals("timestamp") && same(mine, e.getValue()))) {
                    continue;
                }
                saved.put(e.getKey(), mine);
                try {
                    set(st, e.getKey(), e.getValue());
                } catch (SQLException ex) {
                    if (ErrorClassifier.isRetriable(ex)) {
                        throw ex;
                    }
                    saved.remove(e.getKey());
                    sw.close();
                    throw new FatalException("sync: the target refuses the source session's " + e.getKey() + " = "
                            + e.getValue() + " for the statement at " + where + ": " + ErrorClassifier.oneLine(ex)
                            + "; a statement cannot be replayed without the session it ran in: make the target "
                            + "accept it, or skip the statement with a filter rule, and restart the task", ex);
                }
            }
        }
        return sw;
    }

    /**
     * MySQL 8 logs which collation a bare utf8mb4 gets ({@code default_collation_for_utf8mb4},
     * utf8mb4_0900_ai_ci unless changed), a MariaDB target has no such variable: there the same
     * default is {@code character_set_collations = 'utf8mb4=…'} (11.2+, which knows the 0900 names),
     * so that a replayed {@code CREATE TABLE … CHARSET=utf8mb4} gets the source's collation, not
     * MariaDB's PAD SPACE utf8mb4_general_ci. An older target has neither and keeps its own default.
     */
    private static Map<String, String> utf8mb4DefaultForTarget(Connection c, Map<String, String> vars)
            throws SQLException {
        String collation = vars.get(UTF8MB4_DEFAULT);
        if (collation == null || vars.containsKey(COLLATIONS)) {
            return vars;
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@SESSION." + UTF8MB4_DEFAULT)) {
            return vars;
        } catch (SQLException e) {
            if (e.getErrorCode() != UNKNOWN_SYSTEM_VARIABLE) {
                throw e;
            }
        }
        Map<String, String> out = new LinkedHashMap<>(vars);
        out.remove(UTF8MB4_DEFAULT);
        String name = collation.substring(1, collation.length() - 1); // a quoted literal
        out.put(COLLATIONS, Identifiers.literal("utf8mb4=" + name));
        return out;
    }

    /**
     * The character set variables after the others: MySQL (8.0, 5.7) refuses {@code lc_time_names =
     * 'fr_FR'} in a session whose {@code character_set_client} is latin1 and whose sql_mode is strict.
     */
    private static Map<String, String> charsetsLast(Map<String, String> vars) {
        Map<String, String> ordered = new LinkedHashMap<>();
        vars.forEach((k, v) -> {
            if (!isCharset(k)) {
                ordered.put(k, v);
            }
        });
        vars.forEach((k, v) -> {
            if (isCharset(k)) {
                ordered.put(k, v);
            }
        });
        return ordered;
    }

    private static boolean isCharset(String name) {
        return name.startsWith("character_set_") || name.startsWith("collation_");
    }

    /**
     * One SET; a sql_mode the target refuses is set without the modes inert in replay, if it has
     * any ({@link SqlModes#set}).
     */
    private static void set(Statement st, String name, String value) throws SQLException {
        if (name.equals("sql_mode") && value.length() >= 2 && value.startsWith("'")) {
            // SourceSession quotes the mode names, which hold no quote or backslash
            SqlModes.set(st, value.substring(1, value.length() - 1));
        } else {
            st.execute("SET SESSION " + name + " = " + value);
        }
    }

    /** Two SQL values of a variable: ON/OFF and 1/0 are the same, text case-insensitively. */
    private static boolean same(String a, String b) {
        return bool(a).equalsIgnoreCase(bool(b));
    }

    private static String bool(String v) {
        return v.equals("ON") ? "1" : v.equals("OFF") ? "0" : v;
    }

    /** Back to the connection's own session. */
    @Override
    public void close() throws SQLException {
        if (saved.isEmpty()) {
            return;
        }
        try (Statement st = c.createStatement()) {
            StringBuilder sb = new StringBuilder("SET SESSION ");
            boolean first = true;
            for (Map.Entry<String, String> e : saved.entrySet()) {
                sb.append(first ? "" : ", ").append(e.getKey()).append(" = ").append(e.getValue());
                first = false;
            }
            st.execute(sb.toString());
        }
    }
}
