package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A statement's kind told from the head of its bytes ({@link SqlText#kind(byte[], int, int)}) is
 * the kind told from its whole decoded text, wherever the head's end falls: in a multi-byte
 * character, in a comment, in the first word.
 */
class SqlTextTest {

    @Test
    void theKindToldFromAHeadIsTheKindOfTheWholeStatement() {
        String values = "('é€𝄞', 0x00ff, 'a''b', NULL)";
        String rows = (values + ",").repeat(200) + values;
        String[] statements = {
            "INSERT INTO `t` VALUES " + rows,
            "REPLACE INTO `t` VALUES " + rows,
            "/*!40101 SET NAMES binary*/",
            "SET @a = '" + "é".repeat(2000) + "'",
            "/* " + "é".repeat(1000) + " */ INSERT INTO `t` VALUES " + rows,
            "/*!40000 INSERT INTO `t` VALUES " + rows + " */",
            "-- " + "x".repeat(2000) + "\nINSERT INTO `t` VALUES " + rows,
            "SELECT " + rows,
            "CREATE TABLE t (a INT) COMMENT '" + "x".repeat(2000) + "'",
        };
        for (String sql : statements) {
            assertKind(sql);
        }
        // the first word at every place around the head's end, and cut by it
        for (int pad = 990; pad <= 1030; pad++) {
            for (String word : new String[] {"INSERT", "INSERTX", "REPLACE", "REPLACED", "SET"}) {
                assertKind(" ".repeat(pad) + word + " INTO `t` VALUES " + rows);
                assertKind("/*" + "é".repeat(pad / 2) + "*/" + word + " INTO `t` VALUES " + rows);
            }
        }
    }

    /** The kind of {@code sql} as bytes, inside a larger array, against the kind of its text. */
    private static void assertKind(String sql) {
        byte[] b = sql.getBytes(StandardCharsets.UTF_8);
        byte[] around = new byte[b.length + 10];
        System.arraycopy(b, 0, around, 3, b.length);
        assertEquals(SqlText.kind(sql), SqlText.kind(around, 3, 3 + b.length), () -> sql.substring(0, 80));
    }
}
