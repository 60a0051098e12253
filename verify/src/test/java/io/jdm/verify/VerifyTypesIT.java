package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.sql.TableName;
import io.jdm.verify.VerifyReport.DiffKind;
import io.jdm.verify.VerifyReport.Result;
import io.jdm.verify.VerifyReport.RowDiff;
import io.jdm.verify.VerifyReport.TableResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every type of the dump type matrix: equal rows match, one value changed in one row is reported as
 * that row and that column, and the fix SQL repairs it.
 */
class VerifyTypesIT {
    private static final String DB = "verify_types";
    private static final TableName T = new TableName(DB, "matrix");
    private static final String DDL = "CREATE TABLE " + T.quoted() + " ("
            + "id INT PRIMARY KEY, ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, mi MEDIUMINT, i INT,"
            + " iu INT UNSIGNED, bi BIGINT, biu BIGINT UNSIGNED, dec65 DECIMAL(65,30), f FLOAT, d DOUBLE,"
            + " b1 BIT(1), b64 BIT(64), dt DATE, dtm DATETIME, dtm6 DATETIME(6), ts TIMESTAMP NULL,"
            + " ts6 TIMESTAMP(6) NULL, tm TIME, tm6 TIME(6), y YEAR, c CHAR(10), vc VARCHAR(100), tx TEXT,"
            + " l1 VARCHAR(50) CHARACTER SET latin1, bn BINARY(4), vb VARBINARY(20), bl BLOB,"
            + " e ENUM('a','b','c'), st SET('x','y','z'), j JSON, g GEOMETRY) CHARACTER SET utf8mb4";
    private static final String ROWS = "INSERT INTO " + T.quoted() + " VALUES "
            + "(1, -128, 255, -32768, -8388608, -2147483648, 4294967295, -9223372036854775808,"
            + " 18446744073709551615, '-12345678901234567890123456789012345.123456789012345678901234567890',"
            + " 3.402823e38, 1.7976931348623157e308, b'1', b'1111111111111111111111111111111111111111111111111111111111111111',"
            + " '0000-00-00', '0000-00-00 00:00:00', '1000-01-01 00:00:00.000000', '1970-01-01 00:00:01',"
            + " '2038-01-19 03:14:07.999999', '-838:59:59', '838:59:59.000000', 1901, '', '', '', '', x'00000000',"
            + " x'', x'00', 'a', '', '{}', ST_GeomFromText('POINT(0 0)')),"
            + "(2, 127, 0, 32767, 8388607, 2147483647, 0, 9223372036854775807, 9223372036854775808,"
            + " 0.000000000000000000000000000001, 1.0000001, 0.30000000000000004, b'0', b'1010',"
            + " '2024-02-29', '2024-01-02 03:04:05', '2024-01-02 03:04:05.123456', '2024-06-01 12:00:00',"
            + " '2024-06-01 12:00:00.000001', '-00:00:01', '123:45:06.5', 2024, 'a', 'emoji 😀 ok', 'line\\nbreak \\' quote',"
            + " 'café', x'00ff0001', x'00', x'deadbeef00', 'b', 'x,y', '{\"a\": 1, \"b\": [1, 2.5, null]}',"
            + " ST_GeomFromText('POINT(1 2)')),"
            + "(3, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0.1, 0.1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
            + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
            + "(4, 1, 2, 3, 4, 5, 6, 7, 8, 9.5, -1.17549435e-38, 5e-324, b'1', b'0', '9999-12-31',"
            + " '9999-12-31 23:59:59', '9999-12-31 23:59:59.999999', '2000-01-01 00:00:00', '2000-01-01 00:00:00.5',"
            + " '00:00:00', '-00:00:00.000001', 2155, 'zz', 'Ünïcödé 中文', REPEAT('long text ', 500), 'ÿ',"
            + " x'7f7f7f7f', x'0102', REPEAT(x'00ab', 3000), 'c', 'x,y,z', '[1, \"two\", {\"k\": true}]',"
            + " ST_GeomFromText('LINESTRING(0 0, 1 1, 2 3)'))";

    private static VerifyItSupport it;
    @TempDir
    Path fixDir;

    @BeforeAll
    static void servers() {
        it = new VerifyItSupport();
    }

    @BeforeEach
    void tables() throws Exception {
        it.pair.source().freshDatabase(DB);
        it.pair.target().freshDatabase(DB);
        it.both(DDL, ROWS);
    }

    private VerifyReport verify() {
        VerifyConfig c = VerifyConfig.of(it.source, it.target, List.of(TablePair.same(T))).withFixSqlDir(fixDir);
        return new Verifier(new VerifyConfig(c.task(), c.source(), c.target(), c.tables(), 2, c.chunkRows(),
                c.fixSqlDir(), 100, c.snapshot())).run();
    }

    @Test
    void sameRowsMatch() {
        VerifyReport r = verify();
        TableResult t = r.table(T);
        assertEquals(Result.MATCH, t.result(), r.renderTable());
        assertEquals(4, t.rowsSource());
        assertEquals(4, t.rowsTarget());
        assertEquals(0, t.chunksDifferent(), "identical copies must checksum identically");
        assertEquals(0, r.exitCode());
    }

    /** Column, changed value: each applied to its own copy of row 2 (ids 100, 101, ...). */
    private static final String[][] CHANGES = {
        {"ti", "126"}, {"tiu", "1"}, {"si", "32766"}, {"mi", "8388606"}, {"i", "2147483646"}, {"iu", "1"},
        {"bi", "9223372036854775806"}, {"biu", "9223372036854775809"},
        {"dec65", "0.000000000000000000000000000002"},
        {"f", "1.0000002"}, // prints as 1 on MariaDB, like the source's 1.0000001
        {"d", "0.3"}, {"b1", "b'1'"}, {"b64", "b'1011'"}, {"dt", "'2024-02-28'"},
        {"dtm", "'2024-01-02 03:04:06'"}, {"dtm6", "'2024-01-02 03:04:05.123457'"},
        {"ts", "'2024-06-01 12:00:01'"}, {"ts6", "'2024-06-01 12:00:00.000002'"}, {"tm", "'00:00:01'"},
        {"tm6", "'123:45:06.500001'"}, {"y", "2023"},
        {"c", "'A'"}, // equal under the case-insensitive collation, still a different value
        {"vc", "'emoji 😁 ok'"}, {"tx", "'line\\nbreak \\' quote '"}, {"l1", "'cafe'"}, {"bn", "x'00ff0002'"},
        {"vb", "x'0000'"}, {"bl", "x'deadbeef'"}, {"e", "'c'"}, {"st", "'x'"},
        {"j", "'{\"a\": 1, \"b\": [1, 2.5, 0]}'"}, {"g", "ST_GeomFromText('POINT(1 3)')"},
        {"vc", "NULL"}, {"c", "NULL"},
    };

    @Test
    void oneChangedValueIsThatRowAndColumn() throws Exception {
        List<String> copies = new ArrayList<>();
        List<String> updates = new ArrayList<>();
        for (int k = 0; k < CHANGES.length; k++) {
            copies.add("INSERT INTO " + T.quoted() + " SELECT " + (100 + k) + ", ti, tiu, si, mi, i, iu, bi, biu, dec65,"
                    + " f, d, b1, b64, dt, dtm, dtm6, ts, ts6, tm, tm6, y, c, vc, tx, l1, bn, vb, bl, e, st, j, g FROM "
                    + T.quoted() + " WHERE id = 2");
            updates.add("UPDATE " + T.quoted() + " SET `" + CHANGES[k][0] + "` = " + CHANGES[k][1] + " WHERE id = "
                    + (100 + k));
        }
        it.both(copies.toArray(String[]::new));
        assertEquals(Result.MATCH, verify().table(T).result(), "copies of row 2 match before the change");
        it.onTarget(updates.toArray(String[]::new));

        VerifyReport r = verify();
        TableResult t = r.table(T);
        assertEquals(Result.DIFFERENT, t.result(), r.renderTable());
        assertEquals(CHANGES.length, t.changed(), r.renderTable());
        assertEquals(0, t.missing() + t.extra(), r.renderTable());
        Map<String, RowDiff> byKey = new HashMap<>();
        t.rows().forEach(d -> byKey.put(d.key(), d));
        for (int k = 0; k < CHANGES.length; k++) {
            RowDiff d = byKey.get("id=" + (100 + k));
            String what = CHANGES[k][0] + " = " + CHANGES[k][1];
            assertNotNull(d, what + " not reported:\n" + r.renderTable());
            assertEquals(DiffKind.CHANGED, d.kind(), what);
            assertEquals(List.of(CHANGES[k][0]), d.columns().stream().map(VerifyReport.ColumnDiff::column).toList(),
                    what);
        }
        assertEquals(1, r.exitCode());
        assertFixRepairs();
    }

    @Test
    void emptyStringAndNullDiffer() throws Exception {
        // Row 1 holds '' in c, vc, tx, st; NULL is a different value.
        it.onTarget("UPDATE " + T.quoted() + " SET tx = NULL WHERE id = 1");
        VerifyReport r = verify();
        TableResult t = r.table(T);
        assertEquals(1, t.changed(), r.renderTable());
        assertEquals("tx", t.rows().get(0).columns().get(0).column());
        assertFixRepairs();
    }

    @Test
    void missingAndExtraRows() throws Exception {
        it.onTarget("DELETE FROM " + T.quoted() + " WHERE id = 3",
                "INSERT INTO " + T.quoted() + " (id, vc) VALUES (100, 'only on the target')");
        VerifyReport r = verify();
        TableResult t = r.table(T);
        assertEquals(1, t.missing(), r.renderTable());
        assertEquals(1, t.extra(), r.renderTable());
        assertEquals(0, t.changed(), r.renderTable());
        assertTrue(t.rows().stream().anyMatch(d -> d.kind() == DiffKind.MISSING && d.key().equals("id=3")));
        assertTrue(t.rows().stream().anyMatch(d -> d.kind() == DiffKind.EXTRA && d.key().equals("id=100")));
        assertEquals(4, t.rowsTarget());
        assertEquals(4, t.rowsSource());
        assertFixRepairs();
    }

    @Test
    void valuesMigratedCorrectlyMatchWhateverTheirFormatting() throws Exception {
        TableName fmt = new TableName(DB, "formats");
        it.onSource("CREATE TABLE " + fmt.quoted() + " (id INT PRIMARY KEY, f FLOAT, d DOUBLE, j JSON,"
                + " dtm6 DATETIME(6), u VARCHAR(50) CHARACTER SET utf8mb4, l VARCHAR(20) CHARACTER SET latin1,"
                + " dec2 DECIMAL(10,2))",
                "INSERT INTO " + fmt.quoted() + " VALUES (1, 0.1, 0.1, '{\"a\":1,\"b\":[1,2]}',"
                + " '2024-01-02 03:04:05.000001', 'emoji 😀', 'café', 1.50),"
                + " (2, 3.402823e38, 1e-300, '[]', '2024-01-02 03:04:05.100000', '中文', 'ÿ', -0.01)");
        // The target holds the same values in other types and formats: FLOAT widened to DOUBLE, JSON
        // re-spaced with its keys reordered, utf8mb4 where the source had latin1, more decimal places.
        it.onTarget("CREATE TABLE " + fmt.quoted() + " (id INT PRIMARY KEY, f DOUBLE, d DOUBLE, j JSON,"
                + " dtm6 DATETIME(6), u VARCHAR(50) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,"
                + " l VARCHAR(20) CHARACTER SET utf8mb4, dec2 DECIMAL(12,4))",
                "INSERT INTO " + fmt.quoted() + " VALUES (1, CAST(0.1 AS FLOAT), 0.1, '{ \"b\" : [1, 2], \"a\" : 1 }',"
                + " '2024-01-02 03:04:05.000001', 'emoji 😀', 'café', 1.5),"
                + " (2, CAST(3.402823e38 AS FLOAT), 1e-300, '[ ]', '2024-01-02 03:04:05.1', '中文', 'ÿ', -0.0100)");
        VerifyConfig c = VerifyConfig.of(it.source, it.target, List.of(TablePair.same(fmt)));
        VerifyReport r = new Verifier(c).run();
        TableResult t = r.table(fmt);
        assertEquals(Result.MATCH, t.result(), r.renderTable());
        assertEquals(1, t.chunksDifferent(), "the texts differ, so the chunk was compared row by row");

        it.onTarget("UPDATE " + fmt.quoted() + " SET j = '{\"b\": [1, 2], \"a\": 2}' WHERE id = 1");
        r = new Verifier(c).run();
        t = r.table(fmt);
        assertEquals(1, t.changed(), r.renderTable());
        assertEquals("j", t.rows().get(0).columns().get(0).column());
    }

    private void assertFixRepairs() throws Exception {
        assertTrue(it.applyFix(fixDir) > 0, "fix SQL holds statements");
        VerifyReport again = new Verifier(VerifyConfig.of(it.source, it.target, List.of(TablePair.same(T)))).run();
        assertEquals(Result.MATCH, again.table(T).result(), "after the fix SQL:\n" + again.renderTable());
    }
}
