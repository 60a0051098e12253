package io.jdm.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Real MySQL servers from the Maven test jars start as a GTID source and a plain target, and restart. */
class EmbeddedMySqlIT {

    @ParameterizedTest
    @EnumSource(value = ServerFlavor.class, names = {"MYSQL8", "MYSQL57"})
    void aSourceLogsRowsWithGtidsAndATargetLogsNothing(ServerFlavor flavor) throws Exception {
        try (SqlServer source = flavor.start("emb-" + flavor.key() + "-src", ServerProfile.SOURCE);
             SqlServer target = flavor.start("emb-" + flavor.key() + "-tgt", ServerProfile.TARGET)) {
            String version = flavor == ServerFlavor.MYSQL8 ? "8.0.31" : "5.7.22";
            assertTrue(one(source, "SELECT VERSION()").startsWith(version), one(source, "SELECT VERSION()"));
            assertEquals("1|ROW|FULL|ON|127.0.0.1", one(source,
                    "SELECT @@log_bin, @@binlog_format, @@binlog_row_image, @@gtid_mode, @@bind_address"));
            assertEquals("0", one(target, "SELECT @@log_bin"));
            assertNotEquals(one(source, "SELECT @@server_uuid"), one(target, "SELECT @@server_uuid"),
                    "each instance has its own server UUID");
            source.freshDatabase("emb_my");
            source.execute("CREATE TABLE emb_my.t (id INT PRIMARY KEY)", "INSERT INTO emb_my.t VALUES (1)");
            String uuid = one(source, "SELECT @@server_uuid");
            assertTrue(one(source, "SELECT @@global.gtid_executed").startsWith(uuid + ":1-"),
                    one(source, "SELECT @@global.gtid_executed"));

            source.stopServer();
            source.restart();
            assertEquals(List.of("1"), source.rows("SELECT id FROM emb_my.t"));
            ((EmbeddedMySql) source).kill();
            source.restart();
            assertEquals(List.of("1"), source.rows("SELECT id FROM emb_my.t"));
        }
    }

    private static String one(SqlServer server, String sql) throws Exception {
        return server.rows(sql).get(0);
    }
}
