package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.position.BinlogPosition;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written with {@code SET NAMES binary}, as Dumpling and mydumper write every file, of a table
 * with JSON columns beside a latin1 and a binary one. MySQL refuses a binary string for a JSON
 * column (error 3144), so the load gives the JSON columns' literals the {@code _utf8mb4}
 * introducer ({@link JsonIntroducers}) and LOAD DATA converts their fields; every other byte
 * arrives as the file has it. The files are written here from the source's bytes, each in one
 * dumper's way: Dumpling's ({@code '…'} strings, {@code x'…'} for binary), mydumper 0.10's
 * ({@code "…"} strings, raw bytes, a JSON value in {@code CONVERT(… USING UTF8MB4)}), and one with
 * the JSON values as hex literals and its columns named in another order. Loaded statement by
 * statement and with LOAD DATA, the target matches the source in SHOW CREATE TABLE and in the hex
 * of every column. On MariaDB, where JSON is LONGTEXT, the same files load as they always did.
 */
class JsonBinaryLoadIT {
    private static final String DB = "JsonBinaryLoadIT";
    private static final String SET_NAMES = "/*!40101 SET NAMES binary*/;\n";
    private static SqlServer source;
    private static SqlServer target;
    /** Each source table's rows as the dumpers read them: id, then each column's bytes (null for NULL). */
    private static final Map<String, List<byte[][]>> ROWS = new HashMap<>();
    @TempDir
    static Path tmp;

    @BeforeAll
    static void setUp() throws Exception {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        source.freshDatabase(DB);
        source.execute("USE `" + DB + "`",
                "CREATE TABLE `t` (`id` INT PRIMARY KEY, `j` JSON, `l` VARCHAR(40) CHARACTER SET latin1,"
                        + " `b` VARBINARY(40), `k` JSON) DEFAULT CHARSET = utf8mb4",
                "INSERT INTO `t` VALUES (1, '{\"text\": \"\u00e9 \u4e2d\u6587 \ud83d\ude00 \\\\\"q\\\\\" \\\\\\\\ \\' \\\\n\","
                        + " \"nested\": {\"a\": [1, {\"b\": null}], \"c\": {}}, \"big\": 18446744073709551615,"
                        + " \"neg\": -9223372036854775808, \"huge\": 123456789012345678901234567890,"
                        + " \"f\": 1.5e300}', 'caf\u00e9', 0x00FF275C0A22, '[]'),"
                        + " (2, '{}', NULL, X'', 'null'),"
                        + " (3, NULL, '', NULL, '\"\u00fc \\\\u00e9\"'),"
                        + " (4, '[1, 2.5, -1.25e-7, true, false, null, \"x\"]', 'x\ty\u00ff', 0xC328,"
                        + " '{\"deep\": {\"er\": {\"est\": [[[]]]}}}'),"
                        // latin1 and binary bytes that are UTF-8 too: only a JSON column's literal is introduced
                        + " (5, '{\"k\": \"v\"}', '\u00c3\u00a9', 0xC3A9, '{\"\u00e9\": \"\u00fc\"}')",
                "INSERT INTO `t` SELECT `id` + 10, `j`, `l`, `b`, `k` FROM `t` WHERE `id` < 10",
                "INSERT INTO `t` SELECT `id` + 20, `j`, `l`, `b`, `k` FROM `t` WHERE `id` < 10",
                "CREATE TABLE `u` (`id` INT PRIMARY KEY, `j` JSON, `s` VARCHAR(40), `b` VARBINARY(40), `k` JSON)"
                        + " DEFAULT CHARSET = utf8mb4",
                "INSERT INTO `u` SELECT `id`, `j`, CONVERT(`l` USING utf8mb4), `b`, `k` FROM `t` WHERE `id` < 10");
        for (String table : List.of("t", "u")) {
            ROWS.put(table, read(table));
        }
        assertEquals(15, ROWS.get("t").size());
    }

    @Test
    void statementByStatementEachDumpersWayLoadsTheSourcesBytes() throws Exception {
        Path dir = dump("statements", "t");
        data(dir, "t", 0, SET_NAMES, "INSERT INTO `t` VALUES\n", 1, JsonBinaryLoadIT::dumpling);
        data(dir, "t", 1, SET_NAMES, "INSERT INTO `t` VALUES\n", 11, JsonBinaryLoadIT::mydumper);
        data(dir, "t", 2, SET_NAMES, "INSERT INTO `t` (`k`,`id`,`b`,`l`,`j`) VALUES\n", 21, JsonBinaryLoadIT::hexJson);
        String was = localInfile(0);
        try {
            LoadResult r = new LoadUnit(HandDump.config(target, "json_statements", dir)).run();
            assertTrue(r.completed());
            assertEquals(15, r.rows());
        } finally {
            localInfile(Integer.parseInt(was));
        }
        assertSameAsSource("t");
    }

    @Test
    void loadDataCarriesDumplingsFilesToTheSourcesBytes() throws Exception {
        Path dir = dump("load_data", "t");
        for (int i = 0; i < 3; i++) {
            data(dir, "t", i, SET_NAMES, "INSERT INTO `t` VALUES\n", 1 + 10 * i, JsonBinaryLoadIT::dumpling);
        }
        loadsAsOneLoadData("json_load_data", dir, 15);
        assertSameAsSource("t");
    }

    /**
     * A UTF-8 file as jdm writes it, into a table whose text is all utf8mb4: LOAD DATA reads the rows
     * as bytes ({@link BulkLoader#readAs}), and the JSON columns' fields are converted the same way.
     */
    @Test
    void loadDataCarriesAUtf8FileOfAJsonTable() throws Exception {
        Path dir = dump("utf8", "u");
        data(dir, "u", 0, "/*!40101 SET NAMES utf8mb4*/;\n", "INSERT INTO `u` VALUES\n", 1, JsonBinaryLoadIT::jdm);
        loadsAsOneLoadData("json_utf8", dir, 5);
        assertSameAsSource("u");
    }

    private static void loadsAsOneLoadData(String task, Path dir, long rows) throws Exception {
        String was = localInfile(1);
        try {
            HandDump.loadsAsOneLoadData(target, task, dir, rows);
        } finally {
            localInfile(Integer.parseInt(was));
        }
    }

    /** The rows of {@code table}, each column's bytes as stored (HEX: what a binary session reads). */
    private static List<byte[][]> read(String table) throws Exception {
        List<String> columns = source.rows("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '"
                + DB + "' AND TABLE_NAME = '" + table + "' ORDER BY ORDINAL_POSITION");
        StringBuilder select = new StringBuilder("SELECT `id`");
        columns.subList(1, columns.size()).forEach(c -> select.append(", HEX(`").append(c).append("`)"));
        List<byte[][]> out = new ArrayList<>();
        try (Connection c = source.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(select + " FROM `" + DB + "`.`" + table + "` ORDER BY `id`")) {
            while (rs.next()) {
                byte[][] row = new byte[columns.size()][];
                row[0] = rs.getString(1).getBytes(StandardCharsets.US_ASCII);
                for (int i = 2; i <= columns.size(); i++) {
                    String hex = rs.getString(i);
                    row[i - 1] = hex == null ? null : HexFormat.of().parseHex(hex);
                }
                out.add(row);
            }
        }
        return out;
    }

    /** The dump directory of {@code DB}.{@code table} without data files, the target's database dropped. */
    private static Path dump(String name, String table) throws Exception {
        target.execute("DROP DATABASE IF EXISTS `" + DB + "`");
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir);
        try (Connection c = source.connect()) {
            write(dir, DumpFileNames.databaseSchema(DB), bytes(SET_NAMES, show(c, "DATABASE `" + DB + "`"), ";\n"));
            write(dir, DumpFileNames.tableSchema(DB, table), bytes(SET_NAMES, show(c, "TABLE `" + DB + "`.`" + table
                    + "`"), ";\n"));
        }
        new DumpMetadata(LocalDateTime.now(), LocalDateTime.now(), BinlogPosition.of("mysql-bin.000001", 4), null)
                .writeTo(dir);
        return dir;
    }

    /**
     * Data file {@code index} of {@code table}: {@code names}, {@code head}, then the source's rows
     * {@code firstId..firstId+4}, each as {@code row} writes it.
     */
    private static void data(Path dir, String table, int index, String names, String head, int firstId,
                             Function<byte[][], byte[]> row) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bytes(names, "/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n", head));
        String sep = "";
        for (byte[][] r : ROWS.get(table)) {
            int id = Integer.parseInt(new String(r[0], StandardCharsets.US_ASCII));
            if (id >= firstId && id < firstId + 5) {
                out.writeBytes(bytes(sep, row.apply(r)));
                sep = ",\n";
            }
        }
        out.writeBytes(bytes(";\n"));
        write(dir, DumpFileNames.dataFile(DB, table, index, ""), out.toByteArray());
    }

    /** Dumpling's row: strings (JSON too) in {@code '…'} with backslash escapes, binary as {@code x'…'}. */
    private static byte[] dumpling(byte[][] r) {
        return bytes("(", r[0], ",", quoted('\'', r[1]), ",", quoted('\'', r[2]), ",",
                r[3] == null ? "NULL" : "x'" + HexFormat.of().formatHex(r[3]) + "'", ",", quoted('\'', r[4]), ")");
    }

    /** mydumper 0.10's row: strings in {@code "…"}, binary as raw bytes, JSON in {@code CONVERT(… USING UTF8MB4)}. */
    private static byte[] mydumper(byte[][] r) {
        return bytes("(", r[0], ",", converted(r[1]), ",", quoted('"', r[2]), ",", quoted('"', r[3]), ",",
                converted(r[4]), ")");
    }

    /** jdm's row: strings (JSON too) in {@code '…'} with backslash escapes, binary as {@code 0x…}. */
    private static byte[] jdm(byte[][] r) {
        return bytes("(", r[0], ",", quoted('\'', r[1]), ",", quoted('\'', r[2]), ",",
                r[3] == null ? "NULL" : r[3].length == 0 ? "x''" : "0x" + HexFormat.of().withUpperCase().formatHex(r[3]),
                ",", quoted('\'', r[4]), ")");
    }

    /** Columns {@code k, id, b, l, j}: the JSON values as {@code X'…'} and {@code 0x…} hex literals. */
    private static byte[] hexJson(byte[][] r) {
        return bytes("(", r[4] == null ? "NULL" : "X'" + HexFormat.of().withUpperCase().formatHex(r[4]) + "'", ",",
                r[0], ",", r[3] == null ? "NULL" : "x'" + HexFormat.of().formatHex(r[3]) + "'", ",", quoted('\'', r[2]),
                ",", r[1] == null ? "NULL" : "0x" + HexFormat.of().withUpperCase().formatHex(r[1]), ")");
    }

    private static byte[] converted(byte[] v) {
        return v == null ? bytes("NULL") : bytes("CONVERT(", quoted('"', v), " USING UTF8MB4)");
    }

    /** {@code v} between {@code q}s, escaped as both dumpers escape (mysql_real_escape_string's set); NULL for null. */
    private static byte[] quoted(char q, byte[] v) {
        if (v == null) {
            return bytes("NULL");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(q);
        for (byte c : v) {
            String e = switch (c) {
                case 0 -> "\\0";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\\' -> "\\\\";
                case '\'' -> "\\'";
                case '"' -> "\\\"";
                case 26 -> "\\Z";
                default -> null;
            };
            if (e == null) {
                out.write(c);
            } else {
                out.writeBytes(e.getBytes(StandardCharsets.US_ASCII));
            }
        }
        out.write(q);
        return out.toByteArray();
    }

    private static void assertSameAsSource(String table) throws Exception {
        String quoted = "TABLE `" + DB + "`.`" + table + "`";
        try (Connection s = source.connect(); Connection t = target.connect()) {
            assertEquals(show(s, quoted), show(t, quoted));
        }
        assertEquals(source.hexRows(DB, table), target.hexRows(DB, table));
    }

    /** Sets the target's local_infile; returns what it was. */
    private static String localInfile(int on) throws Exception {
        String was = target.rows("SELECT @@GLOBAL.local_infile").get(0);
        target.execute("SET GLOBAL local_infile = " + on);
        return was;
    }

    private static String show(Connection c, String what) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW CREATE " + what)) {
            assertTrue(rs.next());
            return rs.getString(2);
        }
    }

    private static void write(Path dir, String name, byte[] content) throws Exception {
        Files.write(dir.resolve(name), content);
    }

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof byte[] b ? b : ((String) p).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
