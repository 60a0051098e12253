package io.jdm.common.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The session every jdm connection gets: UTC, utf8mb4 results, the task's session variables. */
class ConnectionSpecIT {

    @Test
    void sessionIsUtcAndReturnsUtf8EvenForLatin1Columns() throws Exception {
        SqlServer s = TestServers.shared().source();
        s.freshDatabase("conn_spec_it");
        s.execute("CREATE TABLE conn_spec_it.l1 (v VARCHAR(10) CHARACTER SET latin1)",
                "INSERT INTO conn_spec_it.l1 VALUES ('café')");
        ConnectionSpec spec = ConnectionSpec.of(s.host(), s.port(), s.user(), s.password())
                .withSession(Map.of("sql_mode", "NO_ENGINE_SUBSTITUTION"));
        try (Connection c = DataSources.connect(spec); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT @@session.time_zone, @@character_set_results, @@sql_mode")) {
                rs.next();
                assertEquals("+00:00", rs.getString(1));
                assertTrue(rs.getString(2).startsWith("utf8"), rs.getString(2));
                assertEquals("NO_ENGINE_SUBSTITUTION", rs.getString(3));
            }
            try (ResultSet rs = st.executeQuery("SELECT v FROM conn_spec_it.l1")) {
                rs.next();
                assertEquals("café", new String(rs.getBytes(1), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void toStringNeverShowsThePassword() {
        ConnectionSpec spec = ConnectionSpec.of("h", 3306, "u", "hunter2");
        assertFalse(spec.toString().contains("hunter2"));
        assertFalse(spec.jdbcUrl().contains("hunter2"));
    }
}
