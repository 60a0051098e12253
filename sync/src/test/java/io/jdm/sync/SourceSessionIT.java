package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Statements replayed in the session they ran in on the source, and rows decoded with the
 * source's charsets, whatever the target's defaults (each test sets the target server's default
 * collation it is about, and puts it back). Source and target are compared as SHOW CREATE TABLE
 * text and values as hex.
 */
class SourceSessionIT {
    private final ServerPair pair = TestServers.shared();
    private final SqlServer src = pair.source();
    private final SqlServer tgt = pair.target();

    private SyncUnit start(String task, long serverId, UnaryOperator<TableName> router, String... dbs)
            throws Exception {
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_" + task);
        List<String> selected = List.of(dbs);
        SyncUnit unit = new SyncUnit(SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(2)
                .metaSchema("jdm_meta_" + task).serverId(serverId).start(sourcePosition(src)).router(router)
                .tableFilter((d, t) -> selected.contains(d)).build());
        unit.start();
        return unit;
    }

    private void awaitCaughtUp(SyncUnit unit) throws Exception {
        assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(90)),
                () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
    }

    /** Sets the target server's default collation (what a bare CREATE DATABASE gets); returns the old one. */
    private String targetServerCollation(String collation) throws SQLException {
        try (Connection c = tgt.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@GLOBAL.collation_server")) {
            rs.next();
            String old = rs.getString(1);
            st.execute("SET GLOBAL collation_server = '" + collation + "'");
            return old;
        }
    }

    private static void stop(SyncUnit unit) {
        unit.stop();
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
    }

    @Test
    void utf8mb4DatabaseCreatedDuringSyncKeepsItsCharsetOnALatin1Target() throws Exception {
        String db = "sessionit_u8";
        src.execute("DROP DATABASE IF EXISTS " + db);
        tgt.execute("DROP DATABASE IF EXISTS " + db);
        String old = targetServerCollation("latin1_swedish_ci");
        SyncUnit unit = start("sessu8", 7401, t -> t, db);
        try {
            src.execute("CREATE DATABASE " + db + " CHARACTER SET utf8mb4",
                    "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, s VARCHAR(20))",
                    "INSERT INTO " + db + ".t VALUES (1, 'café ü 値 😀')");
            awaitCaughtUp(unit);
            assertEquals(showCreate(src, db, "t"), showCreate(tgt, db, "t"));
            assertEquals(List.of("1:" + hex("café ü 値 😀", "UTF-8")), hexRows(tgt, db + ".t", "s"));
            assertEquals(hexRows(src, db + ".t", "s"), hexRows(tgt, db + ".t", "s"));
        } finally {
            targetServerCollation(old);
            stop(unit);
        }
    }

    /**
     * A utf8mb4 database that existed before the start position and is missing on a latin1-default
     * target: the target database sync creates for a table takes the source database's defaults.
     */
    @Test
    void aTargetDatabaseCreatedForATableTakesTheSourceDatabasesDefaults() throws Exception {
        String db = "sessionit_missingdb";
        src.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
        tgt.execute("DROP DATABASE IF EXISTS " + db);
        String old = targetServerCollation("latin1_swedish_ci");
        SyncUnit unit = start("sessmissingdb", 7410, t -> t, db);
        try {
            src.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, s VARCHAR(20))",
                    "INSERT INTO " + db + ".t VALUES (1, 'Melquíades 値 😀')");
            awaitCaughtUp(unit);
            assertEquals(showCreate(src, db, "t"), showCreate(tgt, db, "t"));
            assertEquals(hexRows(src, db + ".t", "s"), hexRows(tgt, db + ".t", "s"));
        } finally {
            targetServerCollation(old);
            stop(unit);
        }
    }

    /**
     * A latin1 database whose target tables default to utf8mb4: one table already on both sides
     * (the tracker copies it from the target, utf8mb4, and must notice it is latin1 on the source),
     * one created during sync. Values compared as utf8mb4 text, since the charsets differ on purpose.
     */
    @Test
    void latin1DatabaseOnATargetWhoseTablesDefaultToUtf8mb4() throws Exception {
        String db = "sessionit_l1";
        src.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET latin1",
                "CREATE TABLE " + db + ".pre (id INT PRIMARY KEY, s VARCHAR(20), c CHAR(5))");
        tgt.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4",
                "CREATE TABLE " + db + ".pre (id INT PRIMARY KEY, s VARCHAR(20), c CHAR(5))");
        String old = targetServerCollation("utf8mb4_general_ci");
        SyncUnit unit = start("sessl1", 7402, t -> t, db);
        try {
            src.execute("INSERT INTO " + db + ".pre VALUES (1, 'café ü', 'déjà')",
                    "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, s VARCHAR(20))",
                    "INSERT INTO " + db + ".t VALUES (1, 'naïve ÿ')");
            awaitCaughtUp(unit);
            assertEquals(List.of("1:" + hex("naïve ÿ", "UTF-8")), utf8HexRows(tgt, db + ".t", "s"));
            assertEquals(List.of("1:" + hex("café ü", "UTF-8")), utf8HexRows(tgt, db + ".pre", "s"));
            assertEquals(utf8HexRows(src, db + ".pre", "c"), utf8HexRows(tgt, db + ".pre", "c"));
        } finally {
            targetServerCollation(old);
            stop(unit);
        }
    }

    /**
     * ALTER DATABASE … CHARACTER SET during sync: a table created after it without a charset takes
     * the new default on the source, and its rows are decoded with it.
     */
    @Test
    void aTableCreatedAfterAlterDatabaseTakesTheNewDefault() throws Exception {
        String db = "sessionit_alterdb";
        src.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET latin1",
                "CREATE TABLE " + db + ".first (id INT PRIMARY KEY)");
        tgt.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4",
                "CREATE TABLE " + db + ".first (id INT PRIMARY KEY)");
        SyncUnit unit = start("sessalterdb", 7408, t -> t, db);
        try {
            src.execute("INSERT INTO " + db + ".first VALUES (1)"); // the tracker has met the database
            awaitCaughtUp(unit);
            src.execute("ALTER DATABASE " + db + " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci",
                    "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, s TEXT)", // no length for a check to see
                    "INSERT INTO " + db + ".t VALUES (1, 'Macondo 値 😀')");
            awaitCaughtUp(unit);
            assertEquals(List.of("1:" + hex("Macondo 値 😀", "UTF-8")), hexRows(tgt, db + ".t", "s"));
        } finally {
            stop(unit);
        }
    }

    /** A latin1 shard and a utf8mb4 shard merged into one utf8mb4 table on the target. */
    @Test
    void latin1AndUtf8mb4ShardsMergeIntoOneTable() throws Exception {
        String s1 = "sessionit_shard_l1";
        String s2 = "sessionit_shard_u8";
        String all = "sessionit_merged";
        src.execute("DROP DATABASE IF EXISTS " + s1, "DROP DATABASE IF EXISTS " + s2,
                "CREATE DATABASE " + s1 + " CHARACTER SET latin1", "CREATE DATABASE " + s2 + " CHARACTER SET utf8mb4",
                "CREATE TABLE " + s1 + ".t (id INT PRIMARY KEY, name VARCHAR(40))",
                "CREATE TABLE " + s2 + ".t (id INT PRIMARY KEY, name VARCHAR(40))");
        tgt.execute("DROP DATABASE IF EXISTS " + all, "CREATE DATABASE " + all + " CHARACTER SET utf8mb4",
                "CREATE TABLE " + all + ".t (id INT PRIMARY KEY, name VARCHAR(40))");
        UnaryOperator<TableName> router = t -> t.schema().equals(s1) || t.schema().equals(s2)
                ? new TableName(all, t.table()) : t;
        SyncUnit unit = start("sessmerge", 7403, router, s1, s2);
        try {
            src.execute("INSERT INTO " + s2 + ".t VALUES (2, 'Úrsula 値')",
                    "INSERT INTO " + s1 + ".t VALUES (1, 'Aureliano José')");
            awaitCaughtUp(unit);
            assertEquals(List.of("1:" + hex("Aureliano José", "UTF-8"), "2:" + hex("Úrsula 値", "UTF-8")),
                    utf8HexRows(tgt, all + ".t", "name"));
        } finally {
            stop(unit);
        }
    }

    /**
     * TEXT columns have no length in the TABLE_MAP: with binlog_row_metadata=FULL the source logs
     * each text column's collation, and a latin1 shard copied from a utf8mb4 target is caught by it.
     */
    @Test
    void textOfALatin1ShardMergedIntoAUtf8mb4TableWithFullRowMetadata() throws Exception {
        assumeFalse(src.rows("SELECT VERSION()").get(0).startsWith("5.7"), "binlog_row_metadata is MySQL 8.0.1+ and MariaDB's");
        String s1 = "sessionit_text_l1";
        String all = "sessionit_text_merged";
        src.execute("DROP DATABASE IF EXISTS " + s1, "CREATE DATABASE " + s1 + " CHARACTER SET latin1",
                "CREATE TABLE " + s1 + ".t (id INT PRIMARY KEY, body TEXT, tag VARCHAR(10) CHARACTER SET utf8mb4)");
        tgt.execute("DROP DATABASE IF EXISTS " + all, "CREATE DATABASE " + all + " CHARACTER SET utf8mb4",
                "CREATE TABLE " + all + ".t (id INT PRIMARY KEY, body TEXT, tag VARCHAR(10))");
        String old;
        try (Connection c = src.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@GLOBAL.binlog_row_metadata")) {
            rs.next();
            old = rs.getString(1);
            st.execute("SET GLOBAL binlog_row_metadata = FULL");
        }
        SyncUnit unit = start("sesstext", 7407, t -> t.schema().equals(s1) ? new TableName(all, t.table()) : t, s1);
        try {
            src.execute("INSERT INTO " + s1 + ".t VALUES (1, 'Remedios la bella, Amaranta Úrsula', 'ok')");
            awaitCaughtUp(unit);
            assertEquals(List.of("1:" + hex("Remedios la bella, Amaranta Úrsula", "UTF-8")),
                    utf8HexRows(tgt, all + ".t", "body"));
        } finally {
            src.execute("SET GLOBAL binlog_row_metadata = " + old);
            stop(unit);
        }
    }

    /** DDL and rows sent by a latin1 client: ENUM labels and a default with accents. */
    @Test
    void ddlOfALatin1ClientKeepsItsAccents() throws Exception {
        String db = "sessionit_latin1client";
        src.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
        tgt.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
        SyncUnit unit = start("sesslatin1", 7404, t -> t, db);
        try (Connection latin1 = latin1Client(); Statement st = latin1.createStatement()) {
            st.execute("CREATE TABLE " + db + ".e (id INT PRIMARY KEY, e ENUM('café','naïve'), "
                    + "f VARCHAR(10) DEFAULT 'déjà')");
            st.execute("INSERT INTO " + db + ".e (id, e) VALUES (1, 'naïve'), (2, 'café')");
            awaitCaughtUp(unit);
            assertEquals(showCreate(src, db, "e"), showCreate(tgt, db, "e"));
            assertTrue(showCreate(tgt, db, "e").contains("enum('café','naïve')"), showCreate(tgt, db, "e"));
            assertEquals(hexRows(src, db + ".e", "CONCAT_WS(',', e, f)"),
                    hexRows(tgt, db + ".e", "CONCAT_WS(',', e, f)"));
        } finally {
            stop(unit);
        }
    }

    /** A default written under NO_BACKSLASH_ESCAPES keeps its backslashes. */
    @Test
    void ddlUnderNoBackslashEscapesKeepsItsBackslashes() throws Exception {
        String db = "sessionit_nobackslash";
        src.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
        tgt.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
        SyncUnit unit = start("sessbackslash", 7405, t -> t, db);
        try (Connection c = src.connect(); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')");
            st.execute("CREATE TABLE " + db + ".p (id INT PRIMARY KEY, "
                    + "path VARCHAR(40) DEFAULT 'C:\\new\\table')");
            st.execute("INSERT INTO " + db + ".p (id) VALUES (1)");
            awaitCaughtUp(unit);
            assertEquals(showCreate(src, db, "p"), showCreate(tgt, db, "p"));
            assertEquals(List.of("1:" + hex("C:\\new\\table", "UTF-8")), hexRows(src, db + ".p", "path"));
            assertEquals(hexRows(src, db + ".p", "path"), hexRows(tgt, db + ".p", "path"));
        } finally {
            stop(unit);
        }
    }

    /**
     * An ALTER that fills existing rows with CURRENT_TIMESTAMP, run at a fixed timestamp in another
     * time zone: the target's rows get the source's values, not the target's clock.
     */
    @Test
    void ddlFillsRowsAtTheSourceStatementsTimeAndZone() throws Exception {
        String db = "sessionit_timezone";
        for (SqlServer s : List.of(src, tgt)) {
            s.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4",
                    "CREATE TABLE " + db + ".z (id INT PRIMARY KEY)", "INSERT INTO " + db + ".z VALUES (1), (2)");
        }
        SyncUnit unit = start("sesstz", 7406, t -> t, db);
        try (Connection c = src.connect(); Statement st = c.createStatement()) {
            st.execute("SET SESSION time_zone = '+05:00', timestamp = 1700000000");
            st.execute("ALTER TABLE " + db + ".z ADD x DATETIME DEFAULT CURRENT_TIMESTAMP");
            awaitCaughtUp(unit);
            assertEquals(showCreate(src, db, "z"), showCreate(tgt, db, "z"));
            String filled = hex("2023-11-15 03:13:20", "UTF-8");
            assertEquals(List.of("1:" + filled, "2:" + filled), hexRows(src, db + ".z", "x"),
                    "the source filled x at its statement's time in +05:00");
            assertEquals(hexRows(src, db + ".z", "x"), hexRows(tgt, db + ".z", "x"));
        } finally {
            stop(unit);
        }
    }

    /**
     * A latin1 client's _binary'…' literal with a non-ASCII byte cannot be sent as UTF-8 text with
     * the same bytes: the task stops with one line instead of storing other bytes.
     */
    @Test
    void anIntroducedLiteralOfALatin1ClientStopsTheTask() throws Exception {
        String db = "sessionit_introducer";
        src.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
        tgt.execute("DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
        SyncUnit unit = start("sessintro", 7409, t -> t, db);
        try (Connection latin1 = latin1Client(); Statement st = latin1.createStatement()) {
            st.execute("CREATE TABLE " + db + ".b (id INT PRIMARY KEY, v VARBINARY(4) DEFAULT _binary'é')");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (unit.failure().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(unit.failure().isPresent(), "the unit should have stopped");
            String msg = unit.failure().get().getMessage();
            assertTrue(msg.contains("charset introducer (_binary'é'") && !msg.contains("\n"), msg);
            assertEquals(0, tableCount(db), "nothing was applied differently");
        } finally {
            unit.stop();
        }
    }

    private int tableCount(String db) throws SQLException {
        try (Connection c = tgt.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '" + db + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** A client that sends latin1 bytes: the driver's latin1 (Cp1252) encoding, SET NAMES latin1. */
    private Connection latin1Client() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", src.user());
        p.setProperty("password", src.password());
        Connection c = DriverManager.getConnection("jdbc:mysql://" + src.host() + ":" + src.port()
                + "/?characterEncoding=Cp1252&allowPublicKeyRetrieval=true&useSSL=false", p);
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@character_set_client")) {
            rs.next();
            assertEquals("latin1", rs.getString(1));
        }
        return c;
    }

    private static String showCreate(SqlServer s, String db, String table) throws SQLException {
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW CREATE TABLE `" + db + "`.`" + table + "`")) {
            assertTrue(rs.next());
            return rs.getString(2);
        }
    }

    /** id:HEX(expr) per row, ordered by id. */
    private static List<String> hexRows(SqlServer s, String table, String expr) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = s.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, HEX(" + expr + ") FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + ":" + rs.getString(2));
            }
        }
        assertFalse(out.isEmpty(), "no rows in " + table);
        return out;
    }

    private static List<String> utf8HexRows(SqlServer s, String table, String col) throws SQLException {
        return hexRows(s, table, "CONVERT(" + col + " USING utf8mb4)");
    }

    private static String hex(String text, String charset) {
        return java.util.HexFormat.of().withUpperCase().formatHex(text.getBytes(java.nio.charset.Charset
                .forName(charset)));
    }
}
