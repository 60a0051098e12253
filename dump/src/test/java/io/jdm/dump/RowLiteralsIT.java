package io.jdm.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.SqlBytes;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.embedded.TypeMatrix;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dump's fast path over every type: {@link RowLiterals} writes the literals of
 * {@link ResultSetValues#appendLiteral}, and a direct {@link PacketRows} the same ones again.
 */
class RowLiteralsIT {
    private static final String DB = "RowLiteralsIT";
    private static final TableName TABLE = new TableName(DB, "types");
    private static SqlServer source;

    @BeforeAll
    static void setUp() {
        source = TestServers.shared().source();
        source.freshDatabase(DB);
        source.execute(TypeMatrix.createTable(TABLE.quoted()));
        source.execute(TypeMatrix.inserts(TABLE.quoted()).toArray(String[]::new));
    }

    /**
     * The dump's byte path writes exactly the bytes of the text path, both when the session delivers
     * all text as utf8mb4 (ConnectionSpec's URL) and when character_set_results is NULL, so latin1
     * columns arrive as latin1 bytes and must be decoded first.
     */
    @Test
    void rowLiteralsWriteTheBytesOfAppendLiteral() throws Exception {
        String url = ConnectionSpec.of(source.host(), source.port(), source.user(), source.password()).jdbcUrl();
        for (String u : List.of(url, url.replace("&characterSetResults=UTF-8", ""))) {
            try (Connection c = java.sql.DriverManager.getConnection(u, source.user(), source.password());
                 Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                List<Column> cols = SchemaReader.read(c, TABLE).writableColumns();
                st.setFetchSize(Integer.MIN_VALUE);
                int rows = 0;
                try (ResultSet rs = st.executeQuery("SELECT " + ResultSetValues.selectList(cols) + " FROM "
                        + TABLE.quoted() + " ORDER BY id")) {
                    RowLiterals literals = new RowLiterals(rs, cols);
                    while (rs.next()) {
                        StringBuilder sb = new StringBuilder();
                        for (int i = 0; i < cols.size(); i++) {
                            sb.append(i == 0 ? "" : ",");
                            ResultSetValues.appendLiteral(sb, rs, i + 1, cols.get(i));
                        }
                        SqlBytes out = new SqlBytes(16);
                        literals.append(out, rs);
                        assertEquals(sb.toString(), out.toString(), "row " + (rows + 1) + " via " + u);
                        rows++;
                    }
                }
                assertNotEquals(0, rows);
            }
        }
    }

    /**
     * A direct {@link PacketRows} must write exactly what the result set path writes. Each column is read on its
     * own, both ways; the columns the direct path takes must include every numeric, temporal,
     * character and binary kind of the matrix (ENUM and SET too), and it must refuse the rest.
     */
    @Test
    void directRowsWriteTheSameLiteralsAsTheResultSetPath() throws Exception {
        String url = ConnectionSpec.of(source.host(), source.port(), source.user(), source.password()).jdbcUrl();
        List<String> direct = new ArrayList<>();
        List<String> generic = new ArrayList<>();
        try (Connection c = java.sql.DriverManager.getConnection(url, source.user(), source.password())) {
            for (Column col : SchemaReader.read(c, TABLE).writableColumns()) {
                List<Column> one = List.of(col);
                String sql = "SELECT " + ResultSetValues.selectList(one) + " FROM " + TABLE.quoted() + " ORDER BY id";
                List<String> viaResultSet = viaResultSet(c, sql, one);
                try (Statement st = streaming(c); ResultSet rs = st.executeQuery(sql)) {
                    PacketRows rows = new RowLiterals(rs, one).rows(rs);
                    if (!rows.direct()) {
                        generic.add(col.dataType());
                        continue;
                    }
                    direct.add(col.dataType());
                    List<String> viaDirect = new ArrayList<>();
                    while (rows.next()) {
                        SqlBytes out = new SqlBytes(16);
                        rows.append(out);
                        viaDirect.add(out.toString());
                    }
                    assertEquals(viaResultSet, viaDirect, "column " + col.name() + " " + col.dataType());
                }
            }
        }
        for (String type : List.of("tinyint", "int", "bigint", "decimal", "float", "double", "date", "datetime",
                "timestamp", "time", "year", "char", "varchar", "text", "binary", "varbinary", "blob", "enum", "set")) {
            assertTrue(direct.contains(type), type + " read directly; direct " + direct + ", generic " + generic);
        }
        for (String type : List.of("bit", "geometry")) {
            assertTrue(generic.contains(type), type + " read through the result set; direct " + direct);
        }
    }

    /**
     * A row read whole from its packet (all columns at once, as the dump reads them) writes what the
     * result set path writes, for values of every length encoding of the protocol: one byte (up to
     * 250), two (251 up), three (65,536 up) and eight (16 MiB up, where the row spans several packets);
     * NULLs between them. Rows up to the connection buffer's size are parsed where they arrive
     * ({@link WireInput}), longer ones from the driver's packet.
     */
    @Test
    void rowsReadFromTheirPacketWriteTheSameLiteralsAtEveryLength() throws Exception {
        TableName t = new TableName(DB, "lengths");
        long packet = ((Number) scalar("SELECT @@GLOBAL.max_allowed_packet")).longValue();
        source.execute("SET GLOBAL max_allowed_packet = " + (64 << 20));
        try {
            source.execute("CREATE TABLE " + t.quoted() + " (id INT PRIMARY KEY, s LONGTEXT, b LONGBLOB, n INT,"
                    + " d DATETIME(6), e ENUM('x','y''z')) CHARSET utf8mb4");
            int id = 0;
            for (int len : new int[] {0, 1, 250, 251, 252, 65535, 65536, 65537, 16777211, 16777216, 16777300}) {
                id++;
                // four characters of five bytes: an escaped quote and a two-byte character
                String text = "LEFT(REPEAT(CONCAT('ab', CHAR(39), _utf8mb4 x'C3A9'), " + (len / 5 + 1) + "), " + len + ")";
                source.execute("INSERT INTO " + t.quoted() + " VALUES (" + id + ", " + text + ", UNHEX(REPEAT('00FF', "
                        + (len / 2 + 1) + ")), " + (id % 3 == 0 ? "NULL" : String.valueOf(-id)) + ", "
                        + (id % 2 == 0 ? "NULL" : "'2024-02-29 23:59:59.000001'") + ", " + (id % 2 == 0 ? "'y''z'" : "NULL")
                        + ")");
            }
            String url = ConnectionSpec.of(source.host(), source.port(), source.user(), source.password()).jdbcUrl();
            try (Connection c = java.sql.DriverManager.getConnection(url, source.user(), source.password())) {
                List<Column> cols = SchemaReader.read(c, t).writableColumns();
                String sql = "SELECT " + ResultSetValues.selectList(cols) + " FROM " + t.quoted() + " ORDER BY id";
                List<String> viaResultSet = viaResultSet(c, sql, cols);
                assertEquals(id, viaResultSet.size());
                try (Statement st = streaming(c); ResultSet rs = st.executeQuery(sql)) {
                    PacketRows rows = new RowLiterals(rs, cols).rows(rs);
                    assertTrue(rows.direct(), "every column of the table is read directly");
                    int i = 0;
                    while (rows.next()) {
                        SqlBytes out = new SqlBytes(16);
                        rows.append(out);
                        assertTrue(rows.fromPacket(), "row " + (i + 1) + " read from its packet");
                        String got = out.toString();
                        String want = viaResultSet.get(i);
                        assertEquals(want.length(), got.length(), "row " + (i + 1) + " length");
                        assertTrue(want.equals(got), "row " + (i + 1) + " differs");
                        i++;
                    }
                    assertEquals(id, i);
                    // the short rows where they arrived, the long ones through the driver's reader
                    assertTrue(rows.wireRows() >= 5 && rows.wireRows() < id, "rows read in place: " + rows.wireRows());
                }
            }
        } finally {
            source.execute("SET GLOBAL max_allowed_packet = " + packet);
        }
    }

    /** Each row of {@code sql} as {@link RowLiterals} writes it from the result set. */
    private static List<String> viaResultSet(Connection c, String sql, List<Column> cols) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = streaming(c); ResultSet rs = st.executeQuery(sql)) {
            RowLiterals literals = new RowLiterals(rs, cols);
            while (rs.next()) {
                SqlBytes row = new SqlBytes(16);
                literals.append(row, rs);
                out.add(row.toString());
            }
        }
        return out;
    }

    private static Object scalar(String sql) throws SQLException {
        try (Connection c = source.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getObject(1);
        }
    }

    private static Statement streaming(Connection c) throws SQLException {
        Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        st.setFetchSize(Integer.MIN_VALUE);
        return st;
    }
}
