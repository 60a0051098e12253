package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.TestServers;
import io.jdm.verify.VerifyReport.DiffKind;
import io.jdm.verify.VerifyReport.Result;
import io.jdm.verify.VerifyReport.RowDiff;
import io.jdm.verify.VerifyReport.TableResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MySQL JSON compared by value and type, on a MySQL 8.0 or 5.7 pair ({@code -Djdm.it.servers=mysql8},
 * {@code mysql57}, {@code mysql57:mysql8}; skipped where a side is MariaDB, whose JSON is text).
 * Documents holding a DATE, a DECIMAL, opaque binaries, nested values of every number type and big
 * integers match when the target holds them written another way (JSON_SET over text, a partial
 * update); then the target's DATE becomes its string, two DECIMALs doubles (one printing alike),
 * an opaque its string, and nested integers the other sign type: exactly those rows are CHANGED,
 * and the fix SQL gives the target the source's type at each of those paths. One row per chunk,
 * so a change of type alone must show in its chunk's checksum, or (a document with more numbers
 * than the checksum types) its chunk be compared row by row.
 */
class VerifyJsonTypesIT {
    private static final String DB = "verify_json_types";
    /** More numbers in one document than the checksum asks the types of ({@link TablePlan#CHECKSUM_PATHS}). */
    private static final int MANY = 80;
    private static final TableName T = new TableName(DB, "docs");

    /** id, the source's document, the same document as the target is first given it (null: the same expression). */
    private static final String[][] DOCS = {
        {"1", "JSON_OBJECT('d', CAST('2020-01-02' AS DATE), 's', 'x')",
            "JSON_SET('{\"d\": 0, \"s\": \"x\"}', '$.d', CAST('2020-01-02' AS DATE))"},
        {"2", "JSON_ARRAY(CAST(1.5 AS DECIMAL(10,2)), 2.5e0)", null},
        {"3", "JSON_ARRAY(_binary x'0102', 'base64:type15:AQI=')", null},
        {"4", "JSON_OBJECT('a', JSON_ARRAY(1, JSON_OBJECT('u', CAST(5 AS UNSIGNED), 't', CAST('12:34:56' AS TIME))),"
            + " 'dt', CAST('2020-01-02 03:04:05' AS DATETIME))", null},
        {"5", "JSON_ARRAY(18446744073709551615, -9223372036854775808, CAST(4294967296 AS SIGNED), 4294967296,"
            + " 9007199254740993)", null},
        {"6", "JSON_OBJECT('p', CAST(1.5 AS DECIMAL(10,1)), 'q', 1.5e0, 'r', 3e0)", null},
        {"7", "NULL", null},
        {"8", "'{\"s\": \"text\", \"n\": [1, 2.5, true, null]}'", null},
        // more numbers than the checksum asks the types of: its chunk is compared row by row
        {"10", "JSON_ARRAY(" + numbers(MANY) + "CAST(1.5 AS DECIMAL(10,1)))", null},
    };

    /**
     * id, the target's new document, a path whose type it changes. Written by REPLACE: MySQL 8.0
     * skips an UPDATE whose new document equals the old by JSON comparison, numbers by value.
     */
    private static final String[][] CHANGES = {
        {"1", "JSON_OBJECT('d', '2020-01-02', 's', 'x')", "$.d"},
        {"2", "JSON_ARRAY(1.5e0, 2.5e0)", "$[0]"},
        {"3", "JSON_ARRAY('base64:type15:AQI=', 'base64:type15:AQI=')", "$[0]"},
        {"4", "JSON_OBJECT('a', JSON_ARRAY(1, JSON_OBJECT('u', CAST(5 AS SIGNED), 't', CAST('12:34:56' AS TIME))),"
            + " 'dt', CAST('2020-01-02 03:04:05' AS DATETIME))", "$.a[1].u"},
        {"5", "JSON_ARRAY(18446744073709551615, -9223372036854775808, CAST(4294967296 AS UNSIGNED), 4294967296,"
            + " 9007199254740993)", "$[2]"},
        {"6", "JSON_OBJECT('p', 1.5e0, 'q', 1.5e0, 'r', 3e0)", "$.p"}, // the same text, 1.5, before and after
        {"10", "JSON_ARRAY(" + numbers(MANY) + "1.5e0)",
            "$[" + MANY + "]"},
    };

    private static String numbers(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i).append(", ");
        }
        return sb.toString();
    }

    private static VerifyItSupport it;
    @TempDir
    Path fixDir;

    @BeforeAll
    static void servers() {
        it = new VerifyItSupport();
    }

    private VerifyReport verify() {
        VerifyConfig c = VerifyConfig.of(it.source, it.target, List.of(TablePair.same(T))).withFixSqlDir(fixDir);
        return new Verifier(new VerifyConfig(c.task(), c.source(), c.target(), c.tables(), 2, 1, c.fixSqlDir(), 100,
                c.snapshot())).run();
    }

    @Test
    void documentsAreComparedByValueAndType() throws Exception {
        assumeTrue(TestServers.sourceFlavor().isMySql() && TestServers.targetFlavor().isMySql(),
                "JSON types are compared where both sides are MySQL");
        it.pair.source().freshDatabase(DB);
        it.pair.target().freshDatabase(DB);
        String ddl = "CREATE TABLE " + T.quoted() + " (id INT PRIMARY KEY, j JSON)";
        String binaries = "CREATE TABLE " + DB + ".bin (bl BLOB, ts TIMESTAMP NULL)";
        String binaryRow = "INSERT INTO " + DB + ".bin VALUES (x'00ff', '2020-01-01 00:00:00')";
        // opaque BLOB (type 252) and TIMESTAMP values, which only a column of that type gives
        String fromColumns = "INSERT INTO " + T.quoted() + " SELECT 9, JSON_OBJECT('b', bl, 'ts', ts) FROM " + DB + ".bin";
        it.both(ddl, binaries, binaryRow, fromColumns);
        for (String[] d : DOCS) {
            it.onSource("INSERT INTO " + T.quoted() + " VALUES (" + d[0] + ", " + d[1] + ")");
            it.onTarget("INSERT INTO " + T.quoted() + " VALUES (" + d[0] + ", " + (d[2] == null ? d[1] : d[2]) + ")");
        }
        // written by a partial update in place of other values
        it.onTarget("UPDATE " + T.quoted() + " SET j = JSON_SET(j, '$.a[1].u', 0, '$.dt', 'x') WHERE id = 4",
                "UPDATE " + T.quoted() + " SET j = JSON_SET(j, '$.a[1].u', CAST(5 AS UNSIGNED), '$.dt',"
                        + " CAST('2020-01-02 03:04:05' AS DATETIME)) WHERE id = 4");

        VerifyReport r = verify();
        TableResult t = r.table(T);
        assertEquals(Result.MATCH, t.result(), r.renderTable());
        assertEquals(DOCS.length + 1, t.rowsSource());
        if (is57(it.source) == is57(it.target)) { // 5.7 prints the double 3 as 3, 8.0 as 3.0
            assertEquals(1, t.chunksDifferent(), "equal documents checksum equally, however written, but the one"
                    + " with more numbers than the checksum types");
        }

        for (String[] c : CHANGES) {
            it.onTarget("REPLACE INTO " + T.quoted() + " VALUES (" + c[0] + ", " + c[1] + ")");
        }
        Map<String, String> before = types(it.source);
        assertTrue(!before.equals(types(it.target)), "the changes change types");
        r = verify();
        t = r.table(T);
        assertEquals(Result.DIFFERENT, t.result(), r.renderTable());
        TreeSet<String> changed = new TreeSet<>();
        for (RowDiff d : t.rows()) {
            assertEquals(DiffKind.CHANGED, d.kind(), r.renderTable());
            assertEquals(List.of("j"), d.columns().stream().map(VerifyReport.ColumnDiff::column).toList());
            changed.add(d.key());
        }
        TreeSet<String> expected = new TreeSet<>();
        for (String[] c : CHANGES) {
            expected.add("id=" + c[0]);
        }
        assertEquals(expected, changed, r.renderTable());
        assertEquals(CHANGES.length, t.changed(), r.renderTable());
        if (is57(it.source) == is57(it.target)) { // one row a chunk: each change of type alone differs in its checksum
            assertEquals(CHANGES.length, t.chunksDifferent(), r.renderTable());
        }
        RowDiff six = t.rows().stream().filter(d -> d.key().equals("id=6")).findFirst().orElseThrow();
        assertEquals("'{\"p\": 1.5, \"q\": 1.5, \"r\": " + (is57(it.source) ? "3" : "3.0") + "}' ($.\"p\" DECIMAL)",
                six.columns().get(0).source(), r.renderTable());
        assertTrue(six.columns().get(0).target().endsWith("($.\"p\" DOUBLE)"), r.renderTable());

        String fix = Files.readString(fixDir.resolve(FixSql.fileName(T)), StandardCharsets.UTF_8);
        assertTrue(fix.contains("CAST('2020-01-02' AS DATE)"), fix);
        it.applyFix(fixDir);
        assertEquals(before, types(it.target), "the fix gives every changed path its type back:\n" + fix);
        r = verify();
        assertEquals(Result.MATCH, r.table(T).result(), "after the fix SQL:\n" + r.renderTable() + fix);
    }

    /**
     * A MySQL source and a MariaDB target ({@code mysql8:mariadb}), whose JSON is LONGTEXT: the
     * documents' texts are compared as JSON values, key order and spacing aside.
     */
    @Test
    void besideMariaDbJsonIsComparedAsText() throws Exception {
        assumeTrue(TestServers.sourceFlavor().isMySql() != TestServers.targetFlavor().isMySql(),
                "a MySQL and a MariaDB side");
        it.pair.source().freshDatabase(DB);
        it.pair.target().freshDatabase(DB);
        it.both("CREATE TABLE " + T.quoted() + " (id INT PRIMARY KEY, j JSON)");
        String mysql = "INSERT INTO " + T.quoted() + " VALUES (1, JSON_OBJECT('d', CAST('2020-01-02' AS DATE), 'n',"
                + " CAST(1.5 AS DECIMAL(10,2)))), (2, '[1, {\"b\": 2, \"a\": 1}]')";
        String text = "INSERT INTO " + T.quoted() + " VALUES (1, '{\"d\": \"2020-01-02\", \"n\": 1.50}'),"
                + " (2, '[1,{\"a\":1,\"b\":2}]')";
        if (TestServers.sourceFlavor().isMySql()) {
            it.onSource(mysql);
            it.onTarget(text);
        } else {
            it.onSource(text);
            it.onTarget(mysql);
        }
        VerifyReport r = verify();
        assertEquals(Result.MATCH, r.table(T).result(), r.renderTable());
        it.onTarget("UPDATE " + T.quoted() + " SET j = '[1, {\"a\": 1, \"b\": 3}]' WHERE id = 2");
        r = verify();
        assertEquals(1, r.table(T).changed(), r.renderTable());
        assertEquals("id=2", r.table(T).rows().get(0).key(), r.renderTable());
    }

    /** {@code id path} to the JSON_TYPE there, for each change's path. */
    private static Map<String, String> types(ConnectionSpec side) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = DataSources.connect(side); Statement st = c.createStatement()) {
            for (String[] ch : CHANGES) {
                try (ResultSet rs = st.executeQuery("SELECT JSON_TYPE(JSON_EXTRACT(j, '" + ch[2] + "')) FROM "
                        + T.quoted() + " WHERE id = " + ch[0])) {
                    rs.next();
                    out.put(ch[0] + " " + ch[2], rs.getString(1));
                }
            }
        }
        return out;
    }

    private static boolean is57(ConnectionSpec side) throws SQLException {
        try (Connection c = DataSources.connect(side)) {
            return c.getMetaData().getDatabaseMajorVersion() < 8;
        }
    }
}
