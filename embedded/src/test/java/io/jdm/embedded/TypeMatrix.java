package io.jdm.embedded;

import java.util.List;

/**
 * A table with every MySQL type jdm moves, and rows at each type's edges, written by hand (not by
 * the encoder). Shared by the encoder, dump, sync and verify tests so they all prove the same matrix.
 */
public final class TypeMatrix {
    private TypeMatrix() {
    }

    public static String createTable(String table) {
        return "CREATE TABLE " + table + " ("
                + "id INT PRIMARY KEY,"
                + "ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, siu SMALLINT UNSIGNED,"
                + "mi MEDIUMINT, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT, biu BIGINT UNSIGNED,"
                + "dc DECIMAL(65,30), dc0 DECIMAL(10,0), f FLOAT, d DOUBLE,"
                + "b1 BIT(1), b10 BIT(10), b64 BIT(64),"
                + "dt DATE, dtm0 DATETIME, dtm6 DATETIME(6), ts0 TIMESTAMP NULL DEFAULT NULL,"
                + "ts6 TIMESTAMP(6) NULL DEFAULT NULL, tm TIME, tm6 TIME(6), yr YEAR,"
                + "c CHAR(10), vc VARCHAR(255), tx TEXT, l1 VARCHAR(50) CHARACTER SET latin1,"
                + "l1c CHAR(5) CHARACTER SET latin1,"
                + "bn BINARY(4), vb VARBINARY(20), bl BLOB,"
                + "en ENUM('a','b','c d'), st SET('x','y','z'), js JSON,"
                + "g GEOMETRY, pt POINT,"
                + "gen BIGINT AS (i + 1) VIRTUAL, gens VARCHAR(20) AS (SUBSTRING(vc, 1, 5)) STORED"
                + ") DEFAULT CHARSET=utf8mb4";
    }

    /** The session sql_mode the rows are written under, which a copy of them must be written under too. */
    public static final String SESSION_SQL_MODE = "SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'";

    /** The column list of {@link #inserts}, id first, in parentheses. */
    public static final String COLS = "(id, ti, tiu, si, siu, mi, miu, i, iu, bi, biu, dc, dc0, f, d, b1, b10, b64,"
            + " dt, dtm0, dtm6, ts0, ts6, tm, tm6, yr, c, vc, tx, l1, l1c, bn, vb, bl, en, st, js, g, pt)";

    /**
     * The statements that fill the table, to run in one session. The first two set that session's
     * sql_mode and time zone: zero dates ({@code '0000-00-00'}, {@code '2024-00-00'}) are what legacy
     * MySQL databases hold, written under a non-strict mode; MySQL 5.7 and 8.0's default sql_mode
     * ({@code NO_ZERO_DATE}, {@code NO_ZERO_IN_DATE}, strict) refuses them where MariaDB's accepts them.
     */
    public static List<String> inserts(String table) {
        String p = "INSERT INTO " + table + " " + COLS + " VALUES ";
        return List.of(
                SESSION_SQL_MODE,
                "SET SESSION time_zone = '+00:00'",
                p + "(1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0,"
                        + " '-99999999999999999999999999999999999.999999999999999999999999999999', -9999999999,"
                        + " -3.4028234663852886e38, -1.7976931348623157e308, b'0', b'0', 0,"
                        + " '1000-01-01', '1000-01-01 00:00:00', '1000-01-01 00:00:00.000000',"
                        + " '1970-01-01 00:00:01', '1970-01-01 00:00:01.000001', '-838:59:59', '-838:59:58.999999', 1901,"
                        + " '', '', '', '', '', 0x00000000, x'', x'', 'a', '', '{}',"
                        + " ST_GeomFromText('POINT(0 0)'), ST_GeomFromText('POINT(0 0)'))",
                p + "(2, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807,"
                        + " 18446744073709551615,"
                        + " '99999999999999999999999999999999999.999999999999999999999999999999', 9999999999,"
                        + " 3.4028234663852886e38, 1.7976931348623157e308, b'1', b'1111111111', 0xFFFFFFFFFFFFFFFF,"
                        + " '9999-12-31', '9999-12-31 23:59:59', '9999-12-31 23:59:59.999999',"
                        + " '2038-01-19 03:14:07', '2038-01-19 03:14:07.999999', '838:59:59', '838:59:59.000000', 2155,"
                        + " 'abcdefghij', '😀 héllo 世界 𝄞', REPEAT('long text ', 500), 'café ÿ ñ ß', 'é',"
                        + " 0xFFFFFFFF, 0x00FF00275C0A0D1A22, UNHEX(REPEAT('000102030405060708090A0B0C0D0E0F"
                        + "FFFEFDFCFBFAF9F8F7F6F5F4F3F2F1F0275C22000A0D1A', 4)),"
                        + " 'c d', 'x,y,z', '{\"a\": [1, 2.5, \"x\\\\\"y\"], \"b\": null, \"emoji\": \"😀\"}',"
                        + " ST_GeomFromText('POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 2, 1 1))', 4326),"
                        + " ST_GeomFromText('POINT(1.5 -2.25)'))",
                p + "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
                p + "(4, 0, 1, 0, 1, 0, 1, 0, 1, 0, 9223372036854775808, '0.000000000000000000000000000001', 0,"
                        + " 1.2345678, 0.1, b'1', b'101', b'1000000000000000000000000000000000000000000000000000000000000001',"
                        + " '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000000', '0000-00-00 00:00:00',"
                        + " NULL, '-00:00:01', '-00:00:00.000001', 0,"
                        + " 'a\\\\b', 'it''s \"q\" \\\\ nul\\0 nl\\n cr\\r z\\Z tab\\t end', 'NULL', 'NULL', 'NULL',"
                        + " 0x61000000, 0x6100, 0x00, 'b', 'y', '[]', NULL, NULL)",
                p + "(5, -1, 128, -1, 32768, -1, 8388608, -1, 2147483648, -1, 1, '-0.000000000000000000000000000001',"
                        + " -1, 1.17549435e-38, 4.9e-324, b'0', b'1000000000', 1,"
                        + " '2024-00-00', '2024-02-29 12:34:56', '2024-02-29 12:34:56.000500', '2024-06-30 23:59:59',"
                        + " '2024-06-30 23:59:59.5', '-00:00:00', '00:00:00.000001', 2024,"
                        + " '  lead', 'trail  ', ' ', 'x\\'', 'ab ', 0x20, 0x20, 0x0000, 'a', 'x,z', '\"str\"',"
                        + " ST_GeomFromText('LINESTRING(0 0, 1 1, 2 3)'), ST_GeomFromText('POINT(-1 1e10)'))");
    }
}
