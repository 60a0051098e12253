package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.Flavor;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The MariaDB sql_mode bit names agree with a MariaDB server: SET sql_mode takes the bit set as a number. */
class SqlModeBitsIT {
    @Test
    void everyMariadbBitHasTheServersName() throws Exception {
        SqlServer src = TestServers.shared().source();
        try (Connection c = src.connect(); Statement st = c.createStatement()) {
            for (int bit = 0; bit < 35; bit++) {
                st.execute("SET SESSION sql_mode = " + (1L << bit));
                try (ResultSet rs = st.executeQuery("SELECT @@SESSION.sql_mode")) {
                    rs.next();
                    String server = rs.getString(1);
                    String ours = SqlModeBits.names(1L << bit, Flavor.MARIADB);
                    assertTrue(Arrays.asList(server.split(",")).contains(ours),
                            "bit " + bit + ": server says " + server + ", the table " + ours);
                }
            }
        }
    }
}
