package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.Flavor;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The sql_mode bit names agree with the source server, whichever flavour it is: SET sql_mode takes
 * the bit set as a number and the server answers with the names. A bit the server calls {@code
 * NOT_USED} (or, 5.7, shows as an empty name) is one the table must have no name for (a QUERY event never carries it).
 */
class SqlModeBitsIT {
    @Test
    void everyBitHasTheServersName() throws Exception {
        SqlServer src = TestServers.shared().source();
        try (Connection c = src.connect(); Statement st = c.createStatement()) {
            Flavor flavor = Flavor.detect(c);
            int named = 0;
            for (int bit = 0; bit < 40; bit++) {
                long bits = 1L << bit;
                String server = serverNames(st, bits);
                if (server == null) {
                    continue; // a bit MySQL 8.0 retired: the table keeps 5.7's name, an 8.0 event never has it
                }
                if (server.equals("NOT_USED") || server.replace(",", "").isBlank()) { // 5.7 shows it as ","
                    assertThrows(IllegalArgumentException.class, () -> SqlModeBits.names(bits, flavor),
                            "bit " + bit + " is not a mode of this server, yet the table names it");
                    continue;
                }
                String ours = SqlModeBits.names(bits, flavor);
                assertTrue(Arrays.asList(server.split(",")).contains(ours),
                        "bit " + bit + ": server says " + server + ", the table " + ours);
                named++;
            }
            assertTrue(named >= 20, "the server named only " + named + " bits");
        }
    }

    /** The server's names for a bit set, or null when it refuses the value. */
    private static String serverNames(Statement st, long bits) throws SQLException {
        try {
            st.execute("SET SESSION sql_mode = " + bits);
        } catch (SQLException e) {
            return null;
        }
        try (ResultSet rs = st.executeQuery("SELECT @@SESSION.sql_mode")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
