package io.jdm.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jdm's dump read by myloader: a table named {@code 订单}, one whose name holds {@code /} and
 * {@code .}, and a view round-trip to the same SHOW CREATE text and the same bytes.
 */
class DumpLayoutIT {
    private static final String DB = "DumpLayoutIT";
    private static final String TARGET_DB = "DumpLayoutIT";
    private static final List<String> TABLES = List.of("订单", "a/b.c");
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path tmp;

    @BeforeAll
    static void setUp() {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        source.freshDatabase(DB);
        source.execute("USE `DumpLayoutIT`",
                "CREATE TABLE `订单` (id INT PRIMARY KEY, name VARCHAR(20) CHARACTER SET utf8mb4 COMMENT '名称',"
                        + " l VARCHAR(10) CHARACTER SET latin1 DEFAULT 'é', b VARBINARY(4)) COMMENT '订单表'",
                "INSERT INTO `订单` VALUES (1, '订单一', 'é', 0xFF00), (2, '😀', DEFAULT, NULL), (3, '', 'x', X'')",
                "CREATE TABLE `a/b.c` (`列 1` INT PRIMARY KEY)",
                "INSERT INTO `a/b.c` VALUES (7), (8)",
                "CREATE VIEW `v 订单` AS SELECT id, name FROM `订单` WHERE id < 3");
    }

    @Test
    void myloaderReadsJdmsDumpOfUnicodeNamesAndAView() throws Exception {
        Path dir = tmp.resolve("dump");
        new DumpUnit(DumpConfig.defaults("layout", DumpTestSupport.spec(source), dir)
                .withTableFilter((db, tbl) -> db.equals(DB))).run();
        List<String> names = DumpTestSupport.fileNames(dir);
        assertTrue(names.contains("DumpLayoutIT.订单.000000001.sql"), names.toString());
        assertTrue(names.contains("DumpLayoutIT.a%2Fb%2Ec.000000001.sql"), names.toString());
        assertTrue(names.contains("DumpLayoutIT.v 订单-schema.sql"), names.toString());
        assertTrue(names.contains("DumpLayoutIT.v 订单-schema-view.sql"), names.toString());

        assumeTrue(Files.isExecutable(Path.of("/usr/bin/myloader")), "myloader is not installed (Debian: mydumper)");
        target.execute("DROP DATABASE IF EXISTS `" + TARGET_DB + "`");
        Process p = new ProcessBuilder("myloader", "-h", target.host(), "-P", String.valueOf(target.port()),
                "-u", target.user(), "-d", dir.toString()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "myloader did not finish");
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.exitValue(), out);

        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : TABLES) {
                assertEquals(showCreate(s, "TABLE", new TableName(DB, table)),
                        showCreate(t, "TABLE", new TableName(TARGET_DB, table)), table);
                assertEquals(hexRows(s, new TableName(DB, table)), hexRows(t, new TableName(TARGET_DB, table)), table);
            }
            assertEquals(showCreate(s, "VIEW", new TableName(DB, "v 订单")),
                    showCreate(t, "VIEW", new TableName(TARGET_DB, "v 订单")));
            assertEquals(hexRows(s, new TableName(DB, "v 订单")), hexRows(t, new TableName(TARGET_DB, "v 订单")));
        }
    }

    @Test
    void aSchemaFileReplaysExactlyThroughAClientWithAnotherDefaultCharset() throws Exception {
        Path dir = tmp.resolve("charset");
        new DumpUnit(DumpConfig.defaults("layout", DumpTestSupport.spec(source), dir)
                .withTableFilter((db, tbl) -> db.equals(DB) && tbl.equals("订单"))).run();
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/mariadb")), "the mariadb client is not installed");
        String scratch = "DumpLayoutIT_latin1";
        target.execute("DROP DATABASE IF EXISTS " + scratch, "CREATE DATABASE " + scratch);
        Process p = new ProcessBuilder("mariadb", "--default-character-set=latin1", "-h", target.host(), "-P",
                String.valueOf(target.port()), "-u", target.user(), scratch)
                .redirectInput(dir.resolve("DumpLayoutIT.订单-schema.sql").toFile()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mariadb did not finish");
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes()));
        try (Connection s = source.connect(); Connection t = target.connect()) {
            assertEquals(showCreate(s, "TABLE", new TableName(DB, "订单")),
                    showCreate(t, "TABLE", new TableName(scratch, "订单")));
        }
    }

    /** SHOW CREATE's text and, for a view, its character_set_client and collation_connection. */
    static String showCreate(Connection c, String kind, TableName t) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("USE `" + t.schema() + "`");
            try (ResultSet rs = st.executeQuery("SHOW CREATE " + kind + " " + t.quoted())) {
                assertTrue(rs.next());
                StringBuilder sb = new StringBuilder(rs.getString(2));
                for (int i = 3; i <= rs.getMetaData().getColumnCount(); i++) {
                    sb.append(" | ").append(rs.getString(i));
                }
                return sb.toString();
            }
        }
    }

    /** Every row, every column as HEX(), ordered by the first column. */
    static List<String> hexRows(Connection c, TableName t) throws SQLException {
        List<String> cols = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + t.quoted()
                + " LIMIT 0")) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                cols.add("COALESCE(HEX(`" + rs.getMetaData().getColumnName(i).replace("`", "``") + "`), 'NULL')");
            }
        }
        List<String> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT CONCAT_WS(',', "
                + String.join(", ", cols) + ") FROM " + t.quoted() + " ORDER BY 1")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        assertTrue(!rows.isEmpty(), "no rows in " + t);
        return rows;
    }
}
