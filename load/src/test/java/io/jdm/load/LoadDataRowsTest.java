package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.sql.SqlBytes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an INSERT's rows become as LOAD DATA text, and which statements are left to the INSERT path. */
class LoadDataRowsTest {
    private static final TargetColumns TABLE = new TargetColumns(List.of(
            new TargetColumns.Column("id", "int", null, false),
            new TargetColumns.Column("s", "varchar", "utf8mb4", false),
            new TargetColumns.Column("b", "blob", null, false),
            new TargetColumns.Column("l", "varchar", "latin1", false),
            new TargetColumns.Column("e", "enum", "utf8mb4", false),
            new TargetColumns.Column("g", "int", null, true)), false);

    private static String head(String columns) {
        return "INSERT INTO `db`.`t` " + columns + " VALUES ";
    }

    private static String text(String sql, boolean binaryNames) {
        SqlBytes out = new SqlBytes(16);
        LoadDataRows.Rows r = LoadDataRows.convert(sql, TABLE, binaryNames, out);
        return r == null ? null : new String(out.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    @Test
    void stringEscapesBecomeLoadDataEscapes() {
        String sql = head("(`id`,`s`)") + "(1,'it''s \\\\ a \"q\" \\n\\r\\t\\0\\Z \\% \\_ \\x'),(2,\"d\"\"q\")";
        assertEquals("1,\"it's \\\\ a \\\"q\\\" \\n\\r\t\\0\u001a \\\\% \\\\_ x\"\n2,\"d\\\"q\"\n", text(sql, false));
    }

    @Test
    void nullIsUnquotedAndTheWordNullAndBackslashNAreStrings() {
        String sql = head("(`id`,`s`)") + "(1,NULL),(2,'NULL'),(3,'\\\\N'),(4,''),(5,null)";
        assertEquals("1,\\N\n2,\"NULL\"\n3,\"\\\\N\"\n4,\"\"\n5,\\N\n", text(sql, false));
    }

    @Test
    void hexAndBitLiteralsBecomeTheirBytesReadAsBinary() {
        String sql = head("(`id`,`b`)") + "(1,0x00FF225C0A),(2,X'41'),(3,x''),(4,b'1000001'),(5,_binary 'z'),(6,0xABC)";
        SqlBytes out = new SqlBytes(16);
        LoadDataRows.Rows r = LoadDataRows.convert(sql, TABLE, false, out);
        assertNotNull(r);
        assertTrue(r.binary());
        assertEquals(6, r.rows());
        assertEquals("(`id`,`b`)", r.columns());
        byte[] want = "1,\"\\0\u00ff\\\"\\\\\\n\"\n2,\"A\"\n3,\"\"\n4,\"A\"\n5,\"z\"\n6,\"\n\u00bc\"\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        want = new String(want, StandardCharsets.ISO_8859_1).replace("\"\n\u00bc\"", "\"\\n\u00bc\"")
                .getBytes(StandardCharsets.ISO_8859_1);
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        try {
            out.writeTo(got);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertEquals(java.util.HexFormat.of().formatHex(want), java.util.HexFormat.of().formatHex(got.toByteArray()));
    }

    @Test
    void numbersGoOnlyIntoNumericColumns() {
        assertEquals("-1.5e-3\n", text("INSERT INTO `t` (`id`) VALUES (-1.5e-3)", false));
        assertNull(text("INSERT INTO `t` (`e`) VALUES (2)", false), "a number into an ENUM is its index");
        assertNull(text("INSERT INTO `t` (`s`) VALUES (1.0E10)", false), "a number's text into a string");
        assertNull(text("INSERT INTO `t` (`id`) VALUES (0x41)", false), "a hex literal into an INT is a number");
        assertNull(text("INSERT INTO `t` (`id`) VALUES (- 1)", false));
    }

    @Test
    void expressionsAndClausesLeaveTheStatementToInsert() {
        for (String values : List.of("(1, NOW())", "(1+1, 'a')", "(DEFAULT, 'a')", "(1, 'a' 'b')",
                "(1, _latin1'a')", "(1, N'a')", "(1, 'a' COLLATE utf8mb4_bin)", "(1, /* c */ 'a')",
                "(1, 'a') ON DUPLICATE KEY UPDATE s = 'b'", "(1)", "(1, 'a', 3)", "()")) {
            assertNull(text(head("(`id`,`s`)") + values, false), values);
        }
        assertNull(text("INSERT INTO `t` (`id`,`g`) VALUES (1, 2)", false), "a generated column");
        assertNull(text("INSERT INTO `t` (`id`,`nope`) VALUES (1, 2)", false), "a column the target lacks");
        assertNull(text("INSERT INTO `t` SET id = 1", false));
        assertNull(text("INSERT INTO `t` (`id`,`s`) SELECT 1, 'a'", false));
    }

    @Test
    void aUtf8SessionsStringsGoAsBinaryOnlyWhereTheBytesMeanTheSame() {
        String latin1 = "INSERT INTO `t` (`id`,`l`,`b`) VALUES (1,'\u00e9',0x01)";
        assertNull(text(latin1, false), "é read as binary into latin1 is two characters");
        assertNotNull(text(latin1, true), "a binary session stores the same bytes either way");
        assertNotNull(text("INSERT INTO `t` (`id`,`l`,`b`) VALUES (1,'e',0x01)", false), "ASCII is the same in latin1");
        assertNotNull(text("INSERT INTO `t` (`id`,`s`,`b`) VALUES (1,'\u00e9\ud83d\ude00',0x01)", false));
        SqlBytes out = new SqlBytes(16);
        assertFalse(LoadDataRows.convert("INSERT INTO `t` (`id`,`l`) VALUES (1,'\u00e9')", TABLE, false, out).binary());
    }

    @Test
    void withoutAColumnListEveryColumnTakesAValue() {
        TargetColumns two = new TargetColumns(List.of(new TargetColumns.Column("id", "int", null, false),
                new TargetColumns.Column("s", "varchar", "utf8mb4", false)), false);
        SqlBytes out = new SqlBytes(16);
        LoadDataRows.Rows r = LoadDataRows.convert("INSERT INTO `t` VALUES (1,'a'),\n(2,'b')", two, false, out);
        assertNotNull(r);
        assertEquals("", r.columns());
        assertEquals("1,\"a\"\n2,\"b\"\n", out.toString());
        assertNull(LoadDataRows.convert("INSERT INTO `t` VALUES (1,'a')", new TargetColumns(two.all(), true), false, out),
                "an INVISIBLE column");
    }
}
