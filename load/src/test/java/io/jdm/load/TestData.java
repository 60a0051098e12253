package io.jdm.load;

import io.jdm.embedded.Seq;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** Source tables for the load tests, and the row-by-row comparison of a source and a target table. */
final class TestData {
    static final String ODD_TABLE = "we`ird;tbl.name";

    private TestData() {
    }

    /**
     * Creates in {@code db}: {@code types} (every common MySQL type, awkward strings and bytes),
     * an oddly named table, and {@code sbtest1} with {@code sbRows} sysbench-shaped rows.
     */
    static void create(SqlServer source, String db, int sbRows) {
        source.freshDatabase(db);
        String q = Identifiers.quote(db);
        source.execute(
                "CREATE TABLE " + q + ".`types` (id BIGINT PRIMARY KEY, i INT, u BIGINT UNSIGNED, d DECIMAL(30,6), "
                        + "dbl DOUBLE, s VARCHAR(200), txt TEXT, b VARBINARY(64), bl BLOB, dt DATETIME(6), "
                        + "ts TIMESTAMP(3) NULL DEFAULT NULL, dte DATE, tm TIME(2), yr YEAR, e ENUM('a','b;c'), "
                        + "st SET('x','y','z'), j JSON, bt BIT(10), g POINT NULL, KEY k_i (i)) "
                        + "DEFAULT CHARSET=utf8mb4",
                "INSERT INTO " + q + ".`types` VALUES "
                        + "(1, -2147483648, 18446744073709551615, -12345678901234.123456, 1.5, "
                        + "'it''s; a \\\\ back\\\\slash -- not a comment /* nor this */ # nor', "
                        + "'line1\\nline2\\r\\n\\ttab', X'00FF3B27225C0D0A1A', X'', '2024-01-02 03:04:05.123456', "
                        + "'2038-01-19 03:14:07.999', '0001-01-01', '-838:59:59.00', 2155, 'b;c', 'x,z', "
                        + "'{\"k\": [1, \"v;\"]}', b'1010101010', ST_GeomFromText('POINT(1 2)')),"
                        + "(2, NULL, 0, 0, -0.25, '😀 emoji é ü ß 中文', '', NULL, X'DEADBEEF', NULL, NULL, NULL, "
                        + "NULL, NULL, NULL, '', NULL, NULL, NULL),"
                        + "(3, 7, 42, 1.000001, 1e300, ';', ';;', X'3B', NULL, '1970-01-01 00:00:01', "
                        + "'1970-01-01 00:00:01', '9999-12-31', '00:00:00', 1901, 'a', 'x,y,z', '[]', b'0', NULL)",
                "INSERT INTO " + q + ".`types` (id, i, s) SELECT seq + 10, seq, CONCAT('row ''', seq, ''' ;') "
                        + "FROM " + Seq.upTo(500),
                "CREATE TABLE " + q + "." + Identifiers.quote(ODD_TABLE) + " (`co``l` INT PRIMARY KEY, `v;` VARCHAR(20))",
                "INSERT INTO " + q + "." + Identifiers.quote(ODD_TABLE) + " VALUES (1, 'a'), (2, 'b''c'), (3, NULL)",
                "CREATE TABLE " + q + ".`sbtest1` (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, "
                        + "c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), "
                        + "KEY k_1 (k)) DEFAULT CHARSET=utf8mb4",
                "INSERT INTO " + q + ".`sbtest1` (k, c, pad) SELECT FLOOR(RAND(seq) * 100000), "
                        + "SUBSTRING(REPEAT(CONCAT(MD5(seq), '-'), 4), 1, 119), SUBSTRING(REPEAT(SHA1(seq), 2), 1, 59) "
                        + "FROM " + Seq.upTo(sbRows));
    }

    /** Asserts the two tables hold the same rows, compared value by value in primary-key order. */
    static void assertSameRows(Connection src, TableName s, Connection tgt, TableName t) throws SQLException {
        List<Object[]> a = rows(src, s);
        List<Object[]> b = rows(tgt, t);
        assertEquals(a.size(), b.size(), "row count of " + t + " vs " + s);
        for (int i = 0; i < a.size(); i++) {
            for (int c = 0; c < a.get(i).length; c++) {
                if (!Objects.deepEquals(a.get(i)[c], b.get(i)[c])) {
                    fail("row " + i + " column " + (c + 1) + " of " + t + " differs from " + s + ": "
                            + show(a.get(i)[c]) + " vs " + show(b.get(i)[c]));
                }
            }
        }
    }

    /** 40 INSERT statements of 10 rows each, {@code (id,'v<id>')} for ids 1..400, one per line. */
    static String fortyStatements() {
        StringBuilder data = new StringBuilder();
        for (int statement = 0; statement < 40; statement++) {
            data.append("INSERT INTO `t` VALUES ");
            for (int row = 1; row <= 10; row++) {
                int id = statement * 10 + row;
                data.append(row > 1 ? "," : "").append('(').append(id).append(",'v").append(id).append("')");
            }
            data.append(";\n");
        }
        return data.toString();
    }

    /** What {@link #fortyStatements()} loads: {@code id|v<id>} for ids 1..400, as {@code SqlServer.rows} gives it. */
    static List<String> fortyStatementsRows() {
        List<String> want = new ArrayList<>();
        for (int id = 1; id <= 400; id++) {
            want.add(id + "|v" + id);
        }
        return want;
    }

    /** CHECKSUM TABLE of a table (same server version on both sides, so the values compare). */
    static long checksum(Connection c, TableName t) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("CHECKSUM TABLE " + t.quoted())) {
            rs.next();
            return rs.getLong(2);
        }
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<Object[]> rows(Connection c, TableName t) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + t.quoted()
                + " ORDER BY 1")) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getBytes(i + 1); // the stored bytes, type by type, as the server sends them
                }
                out.add(row);
            }
        }
        return out;
    }

    private static String show(Object v) {
        return v instanceof byte[] b ? java.util.HexFormat.of().formatHex(b) : String.valueOf(v);
    }
}
