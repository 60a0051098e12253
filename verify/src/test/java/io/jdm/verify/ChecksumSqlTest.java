package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.schema.Column;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChecksumSqlTest {
    private static Column col(String name, String dataType, String columnType) {
        return new Column(name, 1, dataType, columnType, true, false, null, null);
    }

    private static Column text(String name, String charset) {
        return new Column(name, 1, "varchar", "varchar(5)", true, false, charset, null);
    }

    @Test
    void rowTextIsExactPerTypeAndUnambiguous() {
        String h = ChecksumSql.rowHash(List.of(col("id", "int", "int"), col("f", "float", "float"),
                text("s", "latin1"), text("u", "utf8mb4"), col("b", "bit", "bit(3)"), col("x", "blob", "blob"),
                col("we`ird", "datetime", "datetime(6)")));
        assertEquals("CRC32(CONCAT_WS(',', `id`, (`f` * 1e0), CONVERT(`s` USING utf8mb4), CAST(`u` AS BINARY),"
                + " CAST(`b` AS UNSIGNED), `x`, `we``ird`, ISNULL(`id`), ISNULL(`f`), IFNULL(CHAR_LENGTH(`s`), -1),"
                + " IFNULL(LENGTH(`u`), -1), ISNULL(`b`), IFNULL(LENGTH(`x`), -1), ISNULL(`we``ird`)))", h);
    }

    @Test
    void utf8mb4TextOfOneCollationIsHashedWithoutACast() {
        Column a = new Column("a", 1, "varchar", "varchar(5)", false, false, "utf8mb4", "utf8mb4_general_ci");
        Column b = new Column("b", 2, "char", "char(5)", false, false, "utf8mb4", "utf8mb4_general_ci");
        Column bin = new Column("b", 2, "char", "char(5)", false, false, "utf8mb4", "utf8mb4_bin");
        Column n = col("n", "int", "int");
        assertEquals("CRC32(CONCAT_WS(',', `n`, `a`, `b`, ISNULL(`n`), IFNULL(LENGTH(`a`), -1),"
                + " IFNULL(LENGTH(`b`), -1)))", ChecksumSql.rowHash(List.of(n, a, b)));
        assertEquals("CRC32(CONCAT_WS(',', `n`, CAST(`a` AS BINARY), CAST(`b` AS BINARY), ISNULL(`n`),"
                + " IFNULL(LENGTH(`a`), -1), IFNULL(LENGTH(`b`), -1)))", ChecksumSql.rowHash(List.of(n, a, bin)));
    }

    @Test
    void otherCharsetsAreHashedAsBytesWhereTheTargetKeepsTheCharset() {
        Column l1 = text("l", "latin1");
        assertEquals("CRC32(CONCAT_WS(',', CAST(`l` AS BINARY), IFNULL(CHAR_LENGTH(`l`), -1)))",
                ChecksumSql.rowHash(List.of(l1), List.of(text("l", "latin1"))));
        assertEquals("CRC32(CONCAT_WS(',', CONVERT(`l` USING utf8mb4), IFNULL(CHAR_LENGTH(`l`), -1)))",
                ChecksumSql.rowHash(List.of(l1), List.of(text("l", "utf8mb4"))));
    }

    @Test
    void orderExpressionsMatchJavaOrdering() {
        assertEquals("CAST(CONVERT(`s` USING utf8mb4) AS BINARY)", ChecksumSql.orderExpr(col("s", "varchar", "x")));
        assertEquals("CAST(CONVERT(`e` USING utf8mb4) AS BINARY)", ChecksumSql.orderExpr(col("e", "enum", "enum('b','a')")));
        assertEquals("`x`", ChecksumSql.orderExpr(col("x", "varbinary", "varbinary(3)")));
        assertEquals("CAST(`g` AS BINARY)", ChecksumSql.orderExpr(col("g", "geometry", "geometry")));
        assertEquals("`t`", ChecksumSql.orderExpr(col("t", "time", "time")));
    }

    @Test
    void aRowTooLongToHashNeverLetsAChunkMatchByChecksum() {
        ChunkComparer.Sums ok = new ChunkComparer.Sums(2, new BigDecimal("123"));
        assertTrue(ok.sameAs(new ChunkComparer.Sums(2, new BigDecimal("123"))));
        assertFalse(ok.sameAs(new ChunkComparer.Sums(3, new BigDecimal("123"))));
        assertTrue(new ChunkComparer.Sums(0, null).sameAs(new ChunkComparer.Sums(0, null)));
        BigDecimal oversize = ChecksumSql.OVERSIZE.add(new BigDecimal("5"));
        assertFalse(new ChunkComparer.Sums(2, oversize).sameAs(new ChunkComparer.Sums(2, oversize)));
    }
}
