package io.jdm.verify;

import io.jdm.common.sql.CanonicalValues;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.schema.Column;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ValuesTest {
    private static Column col(String dataType, String columnType) {
        return new Column("c", 1, dataType, columnType, true, false, null, null);
    }

    private static final Column INT = col("int", "int(11)");
    private static final Column BIGU = col("bigint", "bigint(20) unsigned");
    private static final Column DEC = col("decimal", "decimal(10,2)");
    private static final Column FLOAT = col("float", "float");
    private static final Column TIME = col("time", "time(6)");
    private static final Column DATETIME = col("datetime", "datetime(6)");
    private static final Column TEXT = col("varchar", "varchar(10)");
    private static final Column JSON = col("longtext", "longtext");
    private static final Column BLOB = col("blob", "blob");

    @Test
    void numbersCompareAsNumbersWhateverTheirJavaType() {
        assertTrue(CanonicalValues.same(DEC, new BigDecimal("1.50"), new BigDecimal("1.5000"), false));
        assertFalse(CanonicalValues.same(DEC, new BigDecimal("1.50"), new BigDecimal("1.51"), false));
        assertTrue(CanonicalValues.same(BIGU, 5L, BigInteger.valueOf(5), false));
        assertTrue(CanonicalValues.compare(BIGU, Long.MAX_VALUE, new BigInteger("18446744073709551615")) < 0);
        assertTrue(CanonicalValues.compare(INT, -5L, 3L) < 0);
    }

    @Test
    void floatsAreEqualOnlyWhenTheirBitsAre() {
        assertTrue(CanonicalValues.same(FLOAT, 1.0000001f, 1.0000001f, false));
        assertFalse(CanonicalValues.same(FLOAT, 1.0000001f, 1.0000002f, false));
        // A FLOAT widened to DOUBLE on the target is the same value.
        assertTrue(CanonicalValues.same(FLOAT, 0.1f, (double) 0.1f, false));
        assertFalse(CanonicalValues.same(FLOAT, 0.1f, 0.1d, false));
        assertTrue(CanonicalValues.same(FLOAT, -0.0f, 0.0f, false), "MySQL has no negative zero to compare");
    }

    @Test
    void jsonComparesAsDocuments() {
        assertTrue(CanonicalValues.same(JSON, "{\"a\":1,\"b\":[1,2]}", "{ \"b\": [1, 2], \"a\": 1 }", true));
        assertFalse(CanonicalValues.same(JSON, "{\"a\":1}", "{\"a\":2}", true));
        assertFalse(CanonicalValues.same(TEXT, "{\"a\":1}", "{ \"a\":1}", false), "only JSON columns are parsed");
        assertFalse(CanonicalValues.same(JSON, "not json", "not  json", true));
        assertTrue(CanonicalValues.same(JSON, "[2.50, 1e400]", "[2.5, 1E+400]", true), "numbers as exact decimals");
    }

    @Test
    void temporalsIgnoreOnlyTrailingFractionZeros() {
        assertTrue(CanonicalValues.same(DATETIME, "2024-01-02 03:04:05.100000", "2024-01-02 03:04:05.1", false));
        assertTrue(CanonicalValues.same(DATETIME, "2024-01-02 03:04:05.000000", "2024-01-02 03:04:05", false));
        assertFalse(CanonicalValues.same(DATETIME, "2024-01-02 03:04:05.000001", "2024-01-02 03:04:05", false));
    }

    @Test
    void timeOrdersBySignedDuration() {
        assertEquals(-1, Integer.signum(CanonicalValues.compare(TIME, "-838:59:59.000000", "-00:00:01.000000")));
        assertEquals(-1, Integer.signum(CanonicalValues.compare(TIME, "-00:00:00.000001", "00:00:00.000000")));
        assertEquals(1, Integer.signum(CanonicalValues.compare(TIME, "100:00:00", "99:59:59.999999")));
        assertEquals(-3_020_399_000_000L, CanonicalValues.timeMicros("-838:59:59"));
    }

    @Test
    void stringsOrderByCodePointLikeUtf8Bytes() {
        // U+FF5E (3 UTF-8 bytes) sorts before U+1F600 (4 bytes), although its UTF-16 unit is larger.
        assertTrue(CanonicalValues.compare(TEXT, "\uFF5E", "\uD83D\uDE00") < 0);
        assertTrue("\uFF5E".compareTo("\uD83D\uDE00") > 0);
        assertTrue(CanonicalValues.compare(TEXT, "Key", "aaa") < 0, "bytes, not the collation");
        assertTrue(CanonicalValues.compare(TEXT, "a", "a ") < 0, "no pad-space");
    }

    @Test
    void bytesAndNulls() {
        assertTrue(CanonicalValues.compare(BLOB, new byte[] {0x7f}, new byte[] {(byte) 0x80}) < 0, "unsigned");
        assertTrue(CanonicalValues.same(BLOB, new byte[] {0, 1}, new byte[] {0, 1}, false));
        assertFalse(CanonicalValues.same(BLOB, new byte[] {0, 1}, new byte[] {0, 1, 0}, false));
        assertFalse(CanonicalValues.same(TEXT, "", null, false));
        assertTrue(CanonicalValues.same(TEXT, null, null, false));
        assertTrue(CanonicalValues.compare(TEXT, null, "") < 0);
    }
}
