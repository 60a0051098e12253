package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.OnDuplicate;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.TableName;
import io.jdm.common.sql.TypedColumn;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LOAD DATA path against the embedded target: awkward values load byte for byte (compared as
 * HEX() text) from a dump in jdm's own format (UTF-8 session, hex bytes) and from one with
 * {@code SET NAMES binary}, and the metrics prove they went by LOAD DATA; statements it cannot
 * express or that raise a warning go by INSERT, which fails, converts or skips as before.
 */
class LoadDataIT {
    private static final String DB = "LoadDataIT_src";
    private static final String AWKWARD = "awkward";
    private static final String LATIN = "latin";
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;
    /** jdm's format: SET NAMES utf8mb4, values by the dump's own encoder. */
    private static Path jdmDump;
    /** SET NAMES binary, values by the server's QUOTE/HEX (the Dumpling and mydumper session). */
    private static Path binaryDump;
    private static int jdmStatements;

    @BeforeAll
    static void fixture() throws Exception {
        source = TestServers.shared().source();
        target = TestServers.shared().target();
        source.freshDatabase(DB);
        String q = Identifiers.quote(DB);
        StringBuilder allBytes = new StringBuilder();
        for (int b = 0; b < 256; b++) {
            allBytes.append(String.format("%02X", b));
        }
        source.execute("SET SESSION sql_mode = 'NO_AUTO_VALUE_ON_ZERO'",
                "CREATE TABLE " + q + ".awkward (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, s VARCHAR(100), t TEXT, "
                        + "bl BLOB, bn BINARY(4), vb VARBINARY(16), d DECIMAL(65,30), dbl DOUBLE, f FLOAT, "
                        + "big BIGINT UNSIGNED, neg BIGINT, dt DATETIME(6), ts TIMESTAMP(6) NULL DEFAULT NULL, "
                        + "yr YEAR, bt BIT(64), b1 BIT(1), j JSON, e ENUM('a','b,c','\"q\"',''), st SET('x','y z'), "
                        + "gen BIGINT AS (id * 2) VIRTUAL) DEFAULT CHARSET = utf8mb4",
                "INSERT INTO " + q + ".awkward (id, s, t, bl, bn, vb, d, dbl, f, big, neg, dt, ts, yr, bt, b1, j, e, st) VALUES "
                        + "(0, 'zero id kept', NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL, NULL, NULL, b'0', b'0', "
                        + "NULL, NULL, NULL),"
                        + "(1, 'it''s \"q\" \\\\ back\\\\slash, comma; semi', 'nl\\n cr\\r tab\\t nul\\0 ctrlz\\Z end', "
                        + "X'" + allBytes + "', X'', X'00', "
                        + "99999999999999999999999999999999999.999999999999999999999999999999, 1.7976931348623157e308, "
                        + "3.40282e38, 18446744073709551615, -9223372036854775808, '9999-12-31 23:59:59.999999', "
                        + "'2038-01-19 03:14:07.999999', 2155, b'1111111111111111111111111111111111111111111111111111111111111111', "
                        + "b'1', '{\"k\": \"v\\\\n\\\\\"q\\\\\"\", \"n\": [1, 2.5, null]}', 'b,c', 'x,y z'),"
                        + "(2, 'NULL', '\\\\N', X'5C4E', X'5C', X'0D0A1A', "
                        + "-99999999999999999999999999999999999.999999999999999999999999999999, 4.9e-324, -1.17549e-38, "
                        + "1, -1, '0000-00-00 00:00:00', NULL, 1901, b'0', b'0', '[]', '\"q\"', ''),"
                        + "(3, '', '', X'', X'FFFFFFFF', X'', 0.000000000000000000000000000001, -0.5, 1.5, "
                        + "0, 0, '1970-01-01 00:00:00.000001', '1970-01-01 00:00:01', 2000, b'1010', b'1', 'null', "
                        + "'a', 'y z'),"
                        + "(4, '\uD83D\uDE00 emoji é ü ß 中文', '\uD83D\uDE00\\\\N\\\\0', NULL, NULL, NULL, NULL, NULL, NULL, "
                        + "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
                "INSERT INTO " + q + ".awkward (s, bl) SELECT CONCAT('row ', seq, ' \\\\ \"'), UNHEX(HEX(seq)) FROM "
                        + q + ".seq_1_to_300",
                "CREATE TABLE " + q + ".latin (id INT PRIMARY KEY, l VARCHAR(40) CHARACTER SET latin1, "
                        + "u VARCHAR(40), bl BLOB) DEFAULT CHARSET = utf8mb4",
                "INSERT INTO " + q + ".latin VALUES (1, 'caf\u00e9 \u00ff', '\u00e9', X'00FF'), (2, 'ascii', "
                        + "'\uD83D\uDE00', X'C3A9'), (3, NULL, NULL, NULL)",
                "INSERT INTO " + q + ".latin VALUES (4, 'only text \u00e9', 'x', NULL)");
        binaryDump = tmp.resolve("binary");
        jdmDump = tmp.resolve("jdm");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, DB, binaryDump, 50, 100_000, t -> "");
            FixtureDumper.dump(c, DB, jdmDump, 50, 100_000, t -> "");
            jdmStatements = writeJdmData(c, AWKWARD, 50) + writeJdmData(c, LATIN, 2);
        }
    }

    /** Rewrites the table's data file as jdm's dump writes it; returns how many statements it holds. */
    private static int writeJdmData(Connection c, String table, int rowsPerStatement) throws Exception {
        List<TypedColumn> cols = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE FROM "
                + "information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND EXTRA NOT LIKE '%GENERATED%' "
                + "ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, DB);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    cols.add(new Col(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        StringBuilder head = new StringBuilder("INSERT INTO ").append(Identifiers.quote(table)).append(" (");
        for (int i = 0; i < cols.size(); i++) {
            head.append(i > 0 ? "," : "").append(Identifiers.quote(cols.get(i).name()));
        }
        head.append(") VALUES\n");
        StringBuilder out = new StringBuilder("/*!40101 SET NAMES utf8mb4*/;\n/*!40014 SET FOREIGN_KEY_CHECKS=0*/;\n");
        int statements = 0;
        int inStatement = 0;
        try (Statement st = c.createStatement()) {
            st.execute("SET time_zone = '+00:00'");
            try (ResultSet rs = st.executeQuery("SELECT " + ResultSetValues.selectList(cols) + " FROM "
                    + new TableName(DB, table).quoted() + " ORDER BY 1")) {
                while (rs.next()) {
                    if (inStatement == rowsPerStatement) {
                        out.append(";\n");
                        inStatement = 0;
                    }
                    if (inStatement == 0) {
                        out.append(head);
                        statements++;
                    } else {
                        out.append(",\n");
                    }
                    out.append('(');
                    for (int i = 0; i < cols.size(); i++) {
                        if (i > 0) {
                            out.append(',');
                        }
                        ResultSetValues.appendLiteral(out, rs, i + 1, cols.get(i));
                    }
                    out.append(')');
                    inStatement++;
                }
            }
        }
        out.append(";\n");
        Files.write(jdmDump.resolve(DumpFileNames.dataFile(DB, table, 1, "")), out.toString().getBytes(StandardCharsets.UTF_8));
        return statements;
    }

    private record Col(String name, String dataType, String columnType) implements TypedColumn {
    }

    private static ConnectionSpec targetSpec() {
        return TestData.spec(target);
    }

    private static void resetTarget(String task, String... dbs) {
        TestData.resetTarget(target, task, dbs);
    }

    /** Every row of the table as HEX() text of each column, numbers as their text, in primary-key order. */
    private static List<String> hexRows(SqlServer server, String db, String table) throws Exception {
        List<String> exprs = new ArrayList<>();
        try (Connection c = server.connect(); PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE "
                + "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String col = Identifiers.quote(rs.getString(1));
                    String hex = switch (rs.getString(2)) {
                        case "float", "double" -> "HEX(CAST(" + col + " + 0e0 AS CHAR))";
                        case "tinyint", "smallint", "mediumint", "int", "bigint", "decimal", "bit" ->
                                "HEX(CAST(" + col + " + 0 AS CHAR))";
                        default -> "HEX(" + col + ")";
                    };
                    exprs.add("IFNULL(" + hex + ", 'NULL')");
                }
            }
        }
        return server.rows("SELECT CONCAT_WS('|', " + String.join(", ", exprs) + ") FROM "
                + new TableName(db, table).quoted() + " ORDER BY 1");
    }

    private static void assertSameAsSource(String table) throws Exception {
        List<String> want = hexRows(source, DB, table);
        assertEquals(want, hexRows(target, DB, table), table);
        try (Connection s = source.connect(); Connection t = target.connect()) {
            TestData.assertSameRows(s, new TableName(DB, table), t, new TableName(DB, table));
        }
    }

    @Test
    void awkwardValuesOfAJdmDumpLoadByLoadDataByteForByte() throws Exception {
        resetTarget("ld_jdm", DB);
        LoadUnit unit = new LoadUnit(LoadConfig.of("ld_jdm", "src1", targetSpec(), jdmDump).withPoolSize(2)
                .withTransactionBytes(4096));
        LoadResult r = unit.run();
        assertTrue(r.completed());
        assertSameAsSource(AWKWARD);
        assertSameAsSource(LATIN);
        // the latin table's second statement holds é for the latin1 column beside bytes: it goes by INSERT
        assertEquals(jdmStatements - 1, unit.metrics().loadDataStatements(), unit.metrics().summaryLine());
        assertEquals(0, unit.metrics().loadDataUndone(), unit.metrics().summaryLine());
    }

    @Test
    void awkwardValuesOfABinarySessionDumpLoadByLoadDataByteForByte() throws Exception {
        resetTarget("ld_binary", DB);
        LoadUnit unit = new LoadUnit(LoadConfig.of("ld_binary", "src1", targetSpec(), binaryDump).withPoolSize(1)
                .withTableFilter((db, t) -> t.equals(AWKWARD)));
        LoadResult r = unit.run();
        assertTrue(r.completed());
        assertSameAsSource(AWKWARD);
        assertEquals(unit.metrics().statements(), unit.metrics().loadDataStatements(), unit.metrics().summaryLine());
        assertTrue(unit.metrics().loadDataStatements() >= 7, unit.metrics().summaryLine());
    }

    /** A dump of one table {@code t} in {@code db}: its schema and one data file holding {@code data}. */
    private static Path handWritten(String name, String db, String schema, String data) throws Exception {
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(DumpFileNames.databaseSchema(db)), "CREATE DATABASE `" + db + "`;\n");
        Files.writeString(dir.resolve(DumpFileNames.tableSchema(db, "t")), schema + ";\n");
        Files.writeString(dir.resolve(DumpFileNames.dataFile(db, "t", 1, "")), data);
        new DumpMetadata(LocalDateTime.now(), LocalDateTime.now(), BinlogPosition.of("mysql-bin.000001", 4), null)
                .writeTo(dir);
        return dir;
    }

    private static String rows(int from, int to) {
        StringBuilder sb = new StringBuilder("INSERT INTO `t` VALUES ");
        for (int id = from; id <= to; id++) {
            sb.append(id > from ? "," : "").append('(').append(id).append(",'v").append(id).append("')");
        }
        return sb.append(";\n").toString();
    }

    @Test
    void aDuplicateKeyWithOnDuplicateErrorStillFailsTheLoad() throws Exception {
        String db = "LoadDataIT_dup";
        String schema = "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))";
        Path dir = handWritten("dup", db, schema, rows(1, 10) + rows(11, 20));
        for (long txnBytes : new long[] {1, LoadConfig.DEFAULT_TRANSACTION_BYTES}) {
            String task = "ld_dup_" + txnBytes;
            resetTarget(task, db);
            target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + "." + schema.substring(13),
                    "INSERT INTO " + db + ".t VALUES (15, 'already here')");
            LoadUnit unit = new LoadUnit(LoadConfig.of(task, "src1", targetSpec(), dir).withPoolSize(1)
                    .withOnDuplicate(OnDuplicate.ERROR).withTransactionBytes(txnBytes));
            FatalException e = assertThrows(FatalException.class, unit::run);
            assertTrue(e.getMessage().contains("Duplicate entry '15'") && e.getMessage().contains("on-duplicate"),
                    e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            // one statement a transaction: the first committed by LOAD DATA; one transaction: nothing committed
            List<String> want = new ArrayList<>();
            for (int id = 1; txnBytes == 1 && id <= 10; id++) {
                want.add(id + "|v" + id);
            }
            want.add(txnBytes == 1 ? 10 : 0, "15|already here");
            assertEquals(want, target.rows("SELECT id, v FROM " + db + ".t ORDER BY id"), "txn bytes " + txnBytes);
            assertEquals(txnBytes == 1 ? 1 : 0, unit.metrics().loadDataStatements());
        }
    }

    @Test
    void aValueTheTargetWouldTruncateFailsTheLoadAsAnInsertDoes() throws Exception {
        String db = "LoadDataIT_trunc";
        Path dir = handWritten("trunc", db, "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO `t` VALUES (1,'fits'),(2,'far too long for it'),(3,'ok');\n");
        resetTarget("ld_trunc", db);
        target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(5))");
        FatalException e = assertThrows(FatalException.class,
                () -> new LoadUnit(LoadConfig.of("ld_trunc", "src1", targetSpec(), dir).withPoolSize(1)).run());
        assertTrue(e.getMessage().contains("Data too long for column 'v'"), e.getMessage());
        assertEquals(List.of(), target.rows("SELECT id, v FROM " + db + ".t"), "nothing truncated was loaded");
    }

    /**
     * In one transaction: rows LOAD DATA takes; a hex literal into an INT (a number to an INSERT, text
     * to LOAD DATA) and a function, which go by INSERT untried; an ENUM's error value, which LOAD DATA
     * stores with a warning: undone to the savepoint, the rows before it kept, then written back by the
     * INSERT path's ENUM handling.
     */
    @Test
    void statementsItCannotExpressOrThatWarnGoByInsertInTheSameTransaction() throws Exception {
        String db = "LoadDataIT_mixed";
        String schema = "CREATE TABLE `t` (id INT PRIMARY KEY, e ENUM('a','b'), n INT, s VARCHAR(10))";
        Path dir = handWritten("mixed", db, schema, "INSERT INTO `t` VALUES (1,'a',1,'x'),(2,'b',2,'y');\n"
                + "INSERT INTO `t` VALUES (3,'a',0x41,'z');\n"
                + "INSERT INTO `t` VALUES (4,'',4,'w');\n"
                + "INSERT INTO `t` (`id`,`s`) VALUES (5,CONCAT('a','b'));\n");
        resetTarget("ld_mixed", db);
        LoadUnit unit = new LoadUnit(LoadConfig.of("ld_mixed", "src1", targetSpec(), dir).withPoolSize(1));
        LoadResult r = unit.run();
        assertTrue(r.completed());
        assertEquals(List.of("1|1|1|x", "2|2|2|y", "3|1|65|z", "4|0|4|w", "5|||ab"),
                target.rows("SELECT id, e + 0, n, s FROM " + db + ".t ORDER BY id"));
        assertEquals(4, unit.metrics().statements());
        assertEquals(1, unit.metrics().loadDataStatements(), unit.metrics().summaryLine());
        assertEquals(1, unit.metrics().loadDataUndone(), unit.metrics().summaryLine());
    }

    @Test
    void ignoreAndReplaceGoByLoadDataAndDoWhatAnInsertDoes() throws Exception {
        String db = "LoadDataIT_modes";
        String schema = "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))";
        StringBuilder data = new StringBuilder();
        for (int from = 1; from <= 100; from += 10) {
            data.append(rows(from, from + 9));
        }
        Path dir = handWritten("modes", db, schema, data.toString());
        for (OnDuplicate mode : List.of(OnDuplicate.IGNORE, OnDuplicate.REPLACE)) {
            String task = "ld_mode_" + mode.name().toLowerCase();
            resetTarget(task, db);
            target.execute("CREATE DATABASE " + db, "CREATE TABLE " + db + "." + schema.substring(13),
                    "INSERT INTO " + db + ".t VALUES (15, 'already here'), (57, 'already here')");
            LoadUnit unit = new LoadUnit(LoadConfig.of(task, "src1", targetSpec(), dir).withPoolSize(1)
                    .withOnDuplicate(mode));
            assertTrue(unit.run().completed());
            String kept = mode == OnDuplicate.IGNORE ? "already here" : "v";
            List<String> want = new ArrayList<>();
            for (int id = 1; id <= 100; id++) {
                want.add(id + "|" + (id == 15 || id == 57 ? kept.equals("v") ? "v" + id : kept : "v" + id));
            }
            assertEquals(want, target.rows("SELECT id, v FROM " + db + ".t ORDER BY id"), mode.name());
            assertEquals(10, unit.metrics().loadDataStatements(), unit.metrics().summaryLine());
            assertEquals(0, unit.metrics().loadDataUndone(), unit.metrics().summaryLine());
        }
    }

    @Test
    void aTargetThatRefusesLocalInfileIsLoadedByInsert() throws Exception {
        String db = "LoadDataIT_refused";
        Path dir = handWritten("refused", db, "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))",
                rows(1, 10) + rows(11, 20) + rows(21, 30));
        resetTarget("ld_refused", db);
        target.execute("SET GLOBAL local_infile = 0");
        try {
            LoadUnit unit = new LoadUnit(LoadConfig.of("ld_refused", "src1", targetSpec(), dir).withPoolSize(2));
            assertTrue(unit.run().completed());
            assertEquals(30, TestData.count(target.connect(), "SELECT COUNT(*) FROM " + db + ".t WHERE v = CONCAT('v', id)"));
            assertEquals(0, unit.metrics().loadDataStatements());
            assertEquals(3, unit.metrics().statements());
        } finally {
            target.execute("SET GLOBAL local_infile = 1");
        }
    }
}
