package io.jdm.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class EmbeddedMariaDbIT {

    @Test
    void sourceHasRowBinlogWithFullImageAndGtid() throws Exception {
        ServerPair pair = TestServers.shared();
        try (Connection c = pair.source().connect(); Statement st = c.createStatement()) {
            assertEquals("1", variable(st, "log_bin"));
            assertEquals("ROW", variable(st, "binlog_format"));
            assertEquals("FULL", variable(st, "binlog_row_image"));
            assertEquals("127.0.0.1", variable(st, "bind_address"));
            st.execute("CREATE DATABASE IF NOT EXISTS emb_it");
            st.execute("CREATE TABLE IF NOT EXISTS emb_it.t (id INT PRIMARY KEY)");
            st.execute("INSERT INTO emb_it.t VALUES (1)");
            try (ResultSet rs = st.executeQuery("SELECT @@gtid_binlog_pos")) {
                rs.next();
                assertTrue(rs.getString(1).startsWith("0-1-"), "GTID position: " + rs.getString(1));
            }
        }
    }

    @Test
    void targetHasNoBinlogAndRestartsOnItsPort() throws Exception {
        ServerPair pair = TestServers.shared();
        EmbeddedMariaDb target = (EmbeddedMariaDb) pair.target();
        target.freshDatabase("emb_restart");
        target.execute("CREATE TABLE emb_restart.t (id INT PRIMARY KEY)", "INSERT INTO emb_restart.t VALUES (7)");
        target.stopServer();
        target.restart();
        try (Connection c = target.connect(); Statement st = c.createStatement()) {
            assertEquals("0", variable(st, "log_bin"));
            try (ResultSet rs = st.executeQuery("SELECT id FROM emb_restart.t")) {
                rs.next();
                assertEquals(7, rs.getInt(1));
            }
        }
    }

    private static String variable(Statement st, String name) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT @@" + name)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
