package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.DataSources;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.ring.SessionSwitch;
import io.jdm.sync.ring.SourceSession;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** A target connection in a source statement's session, and back in its own afterwards. */
class SessionSwitchIT {
    private static final String VARS = "SELECT CONCAT_WS('|', @@sql_mode, @@character_set_client, "
            + "@@collation_connection, @@collation_server, @@time_zone, @@auto_increment_increment, "
            + "@@auto_increment_offset, @@foreign_key_checks, @@unique_checks, @@lc_time_names)";

    private final SqlServer tgt = TestServers.shared().target();
    /** MariaDB shows a boolean session variable as OFF, MySQL as 0. */
    private final String off = tgt.flavor().equals("mariadb") ? "OFF" : "0";
    /** A sql_mode flag the other family has and the target's refuses. */
    private final String foreignMode = tgt.flavor().equals("mariadb") ? "TIME_TRUNCATE_FRACTIONAL"
            : "EMPTY_STRING_IS_NULL";

    private static SourceSession session(String sqlMode) {
        return new SourceSession(sqlMode, "latin1", "latin1_swedish_ci", "latin1_german1_ci", "+05:00",
                "1700000000.250000", 3, 2, false, false, null, "fr_FR", null, null);
    }

    private static Connection writer(SqlServer s) throws SQLException {
        Connection c = DataSources.connect(spec(s));
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00'");
        }
        return c;
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void theSourceSessionHoldsUntilCloseThenTheConnectionsOwnIsBack() throws Exception {
        try (Connection c = writer(tgt)) {
            String own = one(c, VARS);
            try (SessionSwitch sw = SessionSwitch.enter(c, session("ANSI_QUOTES,NO_BACKSLASH_ESCAPES"), "here")) {
                assertEquals("ANSI_QUOTES,NO_BACKSLASH_ESCAPES|utf8mb4|latin1_swedish_ci|latin1_german1_ci|+05:00"
                        + "|3|2|" + off + "|" + off + "|fr_FR", one(c, VARS));
                assertEquals("2023-11-15 03:13:20.250000", one(c, "SELECT NOW(6)"));
            }
            assertEquals(own, one(c, VARS));
            long now = System.currentTimeMillis() / 1000;
            long clock = Long.parseLong(one(c, "SELECT UNIX_TIMESTAMP()"));
            assertTrue(Math.abs(clock - now) < 60, "the timestamp follows the clock again: " + clock);
        }
    }

    @Test
    void aSettingTheTargetRefusesStopsWithOneLineNamingIt() throws Exception {
        try (Connection c = writer(tgt)) {
            String own = one(c, VARS);
            FatalException e = assertThrows(FatalException.class,
                    () -> SessionSwitch.enter(c, session(foreignMode), "mysql-bin.000009:77"));
            assertTrue(e.getMessage().contains("sql_mode = '" + foreignMode + "'")
                    && e.getMessage().contains("mysql-bin.000009:77"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertEquals(own, one(c, VARS), "the connection's own session is back");
        }
    }

    /** A 5.7 source's default NO_AUTO_CREATE_USER on a target that removed it (8.0): set without it. */
    @Test
    void aModeTheTargetNoLongerKnowsAndThatActsOnNothingReplayedIsLeftOut() throws Exception {
        boolean removed = tgt.rows("SELECT VERSION()").get(0).startsWith("8.");
        try (Connection c = writer(tgt)) {
            String own = one(c, VARS);
            SourceSession fiveSeven = new SourceSession("STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER", "utf8mb4",
                    "utf8mb4_general_ci", "utf8mb4_general_ci", "+00:00", "1700000000.250000", 1, 1, true, true, null,
                    "en_US", null, null);
            try (SessionSwitch sw = SessionSwitch.enter(c, fiveSeven, "here")) {
                assertEquals(removed ? "STRICT_TRANS_TABLES" : "STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER",
                        one(c, "SELECT @@SESSION.sql_mode"));
            }
            assertEquals(own, one(c, VARS), "the connection's own session is back");
        }
    }
}
