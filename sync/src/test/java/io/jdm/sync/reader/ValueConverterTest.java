package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.TypedColumn;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Binlog library values to the encoder's canonical values, one type at a time. */
class ValueConverterTest {
    private static Column col(String dataType, String columnType, String charset) {
        return new Column("c", 1, dataType, columnType, true, false, charset, charset == null ? null : charset + "_general_ci");
    }

    private static Object conv(Column c, int binlogType, Object raw) {
        return ValueConverter.forColumn(c, binlogType, false).apply(raw);
    }

    @Test
    void unsignedIntegersAreWidened() {
        assertEquals(255L, conv(col("tinyint", "tinyint(3) unsigned", null), 1, -1));
        assertEquals(65535L, conv(col("smallint", "smallint unsigned", null), 2, -1));
        assertEquals(16777215L, conv(col("mediumint", "mediumint unsigned", null), 9, -1));
        assertEquals(4294967295L, conv(col("int", "int(10) unsigned", null), 3, -1));
        assertEquals(new BigInteger("18446744073709551615"), conv(col("bigint", "bigint unsigned", null), 8, -1L));
        assertEquals(-128L, conv(col("tinyint", "tinyint(4)", null), 1, -128));
        assertEquals(null, conv(col("int", "int", null), 3, null));
    }

    @Test
    void stringsDecodeWithTheColumnCharset() {
        byte[] latin1 = {(byte) 0xE9, (byte) 0x80};
        assertEquals("é€", conv(col("varchar", "varchar(5)", "latin1"), 15, latin1));
        assertEquals("😀", conv(col("text", "text", "utf8mb4"), 252, "😀".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void binaryIsPaddedBackToItsLength() {
        assertArrayEquals(new byte[] {0x61, 0, 0, 0}, (byte[]) conv(col("binary", "binary(4)", null), 254, new byte[] {0x61}));
        assertArrayEquals(new byte[] {0x61}, (byte[]) conv(col("varbinary", "varbinary(4)", null), 15, new byte[] {0x61}));
    }

    @Test
    void enumSetAndBit() {
        Column en = col("enum", "enum('a','b''q','c d')", "utf8mb4");
        assertEquals("b'q", conv(en, 254, 2));
        assertEquals("", conv(en, 254, 0));
        assertEquals("x,z", conv(col("set", "set('x','y','z')", "utf8mb4"), 254, 5L));
        BitSet bs = new BitSet();
        bs.set(0);
        bs.set(9);
        assertArrayEquals(new byte[] {0x02, 0x01}, (byte[]) conv(col("bit", "bit(10)", null), 16, bs));
        assertEquals(List.of("a", "b,c"), TypedColumn.labels("set('a','b,c')"));
    }

    @Test
    void jsonFromMysqlBinaryAndMariadbText() {
        assertEquals("{\"a\":1}", conv(col("longtext", "longtext", "utf8mb4"), 252, "{\"a\":1}".getBytes(StandardCharsets.UTF_8)));
        // binary JSON literal: type 0x0c (string), length 3, "abc"
        assertEquals("\"abc\"", conv(col("json", "json", null), ColumnType.JSON.getCode(), new byte[] {0x0c, 3, 'a', 'b', 'c'})
                .toString());
    }

    @Test
    void mysqlJsonIntoALongtextColumnIsItsText() {
        // A MariaDB target's copy of a JSON column is LONGTEXT; the binlog still says JSON (245).
        Column longtext = col("longtext", "longtext", "utf8mb4");
        byte[] decimal = HexFormat.of().parseHex("0ff60403028132"); // 1.50, DECIMAL(3,2)
        assertEquals("1.50", conv(longtext, ColumnType.JSON.getCode(), decimal));
        assertTrue(BinlogTypes.fits(longtext, ColumnType.JSON.getCode()));
        assertFalse(BinlogTypes.fits(col("text", "text", "utf8mb4"), ColumnType.JSON.getCode()));
    }

    @Test
    void aJsonValueNoJsonColumnTakesWithItsTypeStopsTheRow() {
        // ["2020-01-02 03:04:05.500000"] from a TIMESTAMP column: text for LONGTEXT, refused for JSON
        byte[] ts = HexFormat.of().parseHex("02" + "0100" + "1100" + "0f0700" + "0708" + "20a107053144a519");
        assertEquals("[\"2020-01-02 03:04:05.500000\"]", conv(col("longtext", "longtext", "utf8mb4"),
                ColumnType.JSON.getCode(), ts));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> conv(col("json", "json", null), ColumnType.JSON.getCode(), ts));
        assertTrue(e.getMessage().startsWith("the JSON value at $[0] is a TIMESTAMP"), e.getMessage());
    }
}
