package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dump in Dumpling's layout, written file by file as Dumpling writes it from the source's SHOW
 * CREATE text: {@code %XX}-escaped names, {@code SET NAMES binary}, a view's placeholder table and
 * view file, and a triggers file the load does not apply. Loaded by jdm, the target matches the
 * source in SHOW CREATE text and in every byte.
 */
class DumplingLayoutIT {
    private static final String DB = "DumplingLayoutIT";
    private static final String SET_NAMES = "/*!40101 SET NAMES binary*/;\n";
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path dir;

    @BeforeAll
    static void setUp() throws Exception {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        source.freshDatabase(DB);
        source.execute("USE `" + DB + "`",
                "CREATE TABLE `订单` (id INT PRIMARY KEY, name VARCHAR(20) COMMENT '名称', b VARBINARY(4))"
                        + " COMMENT '订单表'",
                "INSERT INTO `订单` VALUES (1, '订单一', 0xFF00), (2, '😀', NULL)",
                "CREATE TABLE `a/b.c` (`列 1` INT PRIMARY KEY)",
                "INSERT INTO `a/b.c` VALUES (7), (8)",
                "CREATE VIEW `v 订单` AS SELECT id, name FROM `订单` WHERE id < 2",
                "CREATE TRIGGER tr BEFORE INSERT ON `订单` FOR EACH ROW SET NEW.name = NEW.name");
        try (Connection c = source.connect()) {
            String[] view = showView(c);
            write("DumplingLayoutIT-schema-create.sql", SET_NAMES + show(c, "DATABASE", "`" + DB + "`") + ";\n");
            write("DumplingLayoutIT.订单-schema.sql", SET_NAMES + show(c, "TABLE", "`订单`") + ";\n");
            write("DumplingLayoutIT.a%2Fb%2Ec-schema.sql", SET_NAMES + show(c, "TABLE", "`a/b.c`") + ";\n");
            write("DumplingLayoutIT.订单.000000000.sql", SET_NAMES
                    + "INSERT INTO `订单` VALUES\n(1,'订单一',x'ff00'),\n(2,'😀',NULL);\n");
            write("DumplingLayoutIT.a%2Fb%2Ec.000000000.sql", SET_NAMES + "INSERT INTO `a/b.c` VALUES\n(7),\n(8);\n");
            write("DumplingLayoutIT.v 订单-schema.sql", SET_NAMES + "CREATE TABLE `v 订单`(\n`id` int,\n`name` int\n"
                    + ")ENGINE=MyISAM;\n");
            write("DumplingLayoutIT.v 订单-schema-view.sql", SET_NAMES + "DROP TABLE IF EXISTS `v 订单`;\n"
                    + "DROP VIEW IF EXISTS `v 订单`;\n"
                    + "SET @PREV_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT;\n"
                    + "SET @PREV_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS;\n"
                    + "SET @PREV_COLLATION_CONNECTION=@@COLLATION_CONNECTION;\n"
                    + "SET character_set_client = " + view[1] + ";\n"
                    + "SET character_set_results = " + view[1] + ";\n"
                    + "SET collation_connection = " + view[2] + ";\n"
                    + view[0] + ";\n"
                    + "SET character_set_client = @PREV_CHARACTER_SET_CLIENT;\n"
                    + "SET character_set_results = @PREV_CHARACTER_SET_RESULTS;\n"
                    + "SET collation_connection = @PREV_COLLATION_CONNECTION;\n");
            write("DumplingLayoutIT.订单-schema-triggers.sql", SET_NAMES + "CREATE TRIGGER tr BEFORE INSERT ON `订单` "
                    + "FOR EACH ROW SET NEW.name = NEW.name;\n");
        }
        write("metadata", "Started dump at: 2026-12-02 10:00:00\nSHOW MASTER STATUS:\n\tLog: mysql-bin.000002\n"
                + "\tPos: 4\n\tGTID:\n\nFinished dump at: 2026-12-02 10:00:01\n");
    }

    private static void write(String name, String text) throws Exception {
        Files.write(dir.resolve(name), text.getBytes(StandardCharsets.UTF_8));
    }

    /** SHOW CREATE's statement, from inside the database as Dumpling reads it. */
    private static String show(Connection c, String kind, String quoted) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("USE `" + DB + "`");
            try (ResultSet rs = st.executeQuery("SHOW CREATE " + kind + " " + quoted)) {
                assertTrue(rs.next());
                return rs.getString(2);
            }
        }
    }

    /** SHOW CREATE VIEW without the DEFINER (the load drops it), character_set_client, collation_connection. */
    private static String[] showView(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("USE `" + DB + "`");
            try (ResultSet rs = st.executeQuery("SHOW CREATE VIEW `v 订单`")) {
                assertTrue(rs.next());
                return new String[] {rs.getString(2).replaceFirst(" DEFINER=`[^`]*`@`[^`]*`", ""), rs.getString(3),
                        rs.getString(4)};
            }
        }
    }

    @Test
    void jdmLoadsDumplingsLayoutToTheSourcesSchemaAndBytes() throws Exception {
        target.execute("DROP DATABASE IF EXISTS `" + DB + "`", "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta.dumpling_layout_loader_checkpoint");
        LoadConfig config = LoadConfig.of("dumpling_layout", "src1",
                ConnectionSpec.of(target.host(), target.port(), "root", ""), dir).withPoolSize(2);
        LoadResult r = new LoadUnit(config).run();
        assertEquals(2, r.files());
        assertEquals(4, r.rows());
        assertEquals("mysql-bin.000002", r.position().file());

        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : new String[] {"`订单`", "`a/b.c`"}) {
                assertEquals(show(s, "TABLE", table), show(t, "TABLE", table));
            }
            assertEquals(List.of(showView(s)), List.of(showView(t)));
            TestData.assertSameRows(s, new TableName(DB, "订单"), t, new TableName(DB, "订单"));
            TestData.assertSameRows(s, new TableName(DB, "a/b.c"), t, new TableName(DB, "a/b.c"));
            TestData.assertSameRows(s, new TableName(DB, "v 订单"), t, new TableName(DB, "v 订单"));
            assertEquals(0, TestData.count(t, "SELECT COUNT(*) FROM information_schema.TRIGGERS "
                    + "WHERE TRIGGER_SCHEMA = '" + DB + "'"), "the triggers file is skipped, with a warning");
        }
        new LoadUnit(config).run(); // a rerun replays the view file over the existing view
        try (Connection s = source.connect(); Connection t = target.connect()) {
            assertEquals(List.of(showView(s)), List.of(showView(t)));
            TestData.assertSameRows(s, new TableName(DB, "v 订单"), t, new TableName(DB, "v 订单"));
        }
    }
}
