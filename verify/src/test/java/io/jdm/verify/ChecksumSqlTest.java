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
    void jsonTypesAreHashedOnlyForColumnsComparedByType() {
        List<Column> cols = List.of(col("id", "int", "int"), col("j", "json", "json"), text("s", "utf8mb4"));
        List<List<String>> paths = List.of(List.of(), List.of("$.\"a\"", "$[0]"), List.of());
        // no column typed: the very text a table without JSON gets
        assertEquals(ChecksumSql.rowHash(cols), ChecksumSql.rowHash(cols, null, new boolean[3], paths));
        String h = ChecksumSql.rowHash(cols, null, new boolean[] {false, true, false}, paths);
        String types = "CONCAT_WS(',', IFNULL(JSON_TYPE(JSON_EXTRACT(`j`, '$.\"a\"')), ''),"
                + " IFNULL(JSON_TYPE(JSON_EXTRACT(`j`, '$[0]')), ''))";
        assertTrue(h.startsWith("IF((`j` IS NULL OR NOT (CASE JSON_TYPE(`j`) WHEN 'ARRAY' THEN"
                + " JSON_CONTAINS_PATH(`j`, 'one', '$[0].*', '$[0][*]') WHEN 'OBJECT' THEN JSON_CONTAINS_PATH(`j`, 'one',"
                + " '$.\"a\".*', '$.\"a\"[*]') ELSE FALSE END) AND LOCATE(', 0', REPLACE(REPLACE("), h);
        // each path nulled in documents of its root only; every digit a 0; the shapes that betray a type
        assertTrue(h.contains("CONCAT(', ', CONVERT(CASE JSON_TYPE(`j`) WHEN 'ARRAY' THEN JSON_REPLACE(`j`, '$[0]', NULL)"
                + " WHEN 'OBJECT' THEN JSON_REPLACE(`j`, '$.\"a\"', NULL) ELSE `j` END USING utf8mb4)), ': ', ', '),"
                + " '[', ', '), '1', '0'), '2', '0'), '3', '0'), '4', '0'), '5', '0'), '6', '0'), '7', '0'), '8', '0'),"
                + " '9', '0'), ', -', ', 0'), '\"0000-00-00', ', 0'), ':00:00.000000\"', ', 0'), '\"base64:type', ', 0'))"
                + " = 0), CRC32("), h);
        assertTrue(h.endsWith(", CRC32(CONCAT_WS(',', `id`, CONVERT(`j` USING utf8mb4), " + types
                + ", CAST(`s` AS BINARY), ISNULL(`id`), IFNULL(CHAR_LENGTH(`j`), -1), IFNULL(LENGTH(`s`), -1))), NULL)"), h);
        // without paths: only the test that the document holds no value of a type its text hides
        String bare = ChecksumSql.rowHash(cols, null, new boolean[] {false, true, false},
                List.of(List.of(), List.of(), List.of()));
        assertTrue(bare.startsWith("IF((`j` IS NULL OR LOCATE(', 0', "), bare);
        assertFalse(bare.contains("JSON_REPLACE"), bare);
        assertTrue(bare.contains("CONCAT(', ', CONVERT(`j` USING utf8mb4))"), bare);
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
