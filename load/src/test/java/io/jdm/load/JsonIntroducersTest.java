package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which literals of an INSERT get the {@code _utf8mb4} introducer: those of JSON fields that are a
 * string or a hex or bit literal, found by the column list or the table's order of visible columns,
 * whatever quotes, commas, parentheses and comments stand around them.
 */
class JsonIntroducersTest {
    /** {@code id INT, h INT INVISIBLE, j JSON, l VARCHAR latin1, k JSON}. */
    private static final TableSchema TABLE = new TableSchema(new TableName("d", "t"), List.of(
            new Column("id", 1, "int", "int", false, false, null, null),
            new Column("h", 2, "int", "int", true, false, null, null, true),
            new Column("j", 3, "json", "json", true, false, null, null),
            new Column("l", 4, "varchar", "varchar(10)", true, false, "latin1", "latin1_swedish_ci"),
            new Column("K", 5, "json", "json", true, false, null, null)), List.of("id"), List.of());

    private static String introduce(String sql) {
        return JsonIntroducers.of(TABLE).introduce(sql);
    }

    @Test
    void stringsOfJsonFieldsAreIntroducedAndNothingElse() {
        assertEquals("INSERT INTO `d`.`t` VALUES\n(1,_utf8mb4 '{\\\"a\\\": \\'x\\'}','{}',_utf8mb4 \"[1, 2]\"),\n"
                        + "(2,NULL,'x',NULL),(3, /* c */ _utf8mb4 '(,)' ,'y', _utf8mb4 'a' 'b'),"
                        + "(4,JSON_OBJECT('a', (1)),'(',_utf8mb4 '[]')",
                introduce("INSERT INTO `d`.`t` VALUES\n(1,'{\\\"a\\\": \\'x\\'}','{}',\"[1, 2]\"),\n"
                        + "(2,NULL,'x',NULL),(3, /* c */ '(,)' ,'y', 'a' 'b'),(4,JSON_OBJECT('a', (1)),'(','[]')"));
    }

    @Test
    void hexAndBitLiteralsAreIntroducedToo() {
        assertEquals("INSERT INTO t VALUES (1,_utf8mb4 0x7B7D,0x41,_utf8mb4 X'5B5D'),(2,_utf8mb4 x'7B7D',X'41',"
                        + "_utf8mb4 0b01111011),(3,_utf8mb4 b'01011011',b'1',_utf8mb4 B'0')",
                introduce("INSERT INTO t VALUES (1,0x7B7D,0x41,X'5B5D'),(2,x'7B7D',X'41',0b01111011),"
                        + "(3,b'01011011',b'1',B'0')"));
    }

    @Test
    void aValueWrittenAnotherWayIsLeftAsItIs() {
        String sql = "INSERT INTO t VALUES (1,CONVERT(\"{}\" USING UTF8MB4),'x',_utf8mb4'[]'),"
                + "(2,N'{}','y',_binary 0x7B7D),(3,DEFAULT,'z',1),(4,-1,'z',0xZZ),(5,NULL,'z',0X7B)";
        assertEquals(sql, introduce(sql));
    }

    @Test
    void aColumnListSaysWhichFieldsAreJson() {
        assertEquals("REPLACE INTO t (`l`, k, `id`) VALUES ('{}',_utf8mb4 '[]',1),('a',NULL,2)",
                introduce("REPLACE INTO t (`l`, k, `id`) VALUES ('{}','[]',1),('a',NULL,2)"));
        assertEquals("INSERT INTO t (`id`,`l`) VALUES (1,'{}')", introduce("INSERT INTO t (`id`,`l`) VALUES (1,'{}')"));
        assertEquals("INSERT INTO t (`id`,`nope`) VALUES (1,'{}')",
                introduce("INSERT INTO t (`id`,`nope`) VALUES (1,'{}')"));
        assertEquals("INSERT INTO t () VALUES ()", introduce("INSERT INTO t () VALUES ()"));
    }

    @Test
    void theHeadOfTheLastStatementIsReadOnce() {
        JsonIntroducers json = JsonIntroducers.of(TABLE);
        assertEquals("INSERT INTO t (j) VALUES (_utf8mb4 '1')", json.introduce("INSERT INTO t (j) VALUES ('1')"));
        assertEquals("INSERT INTO t (j) VALUES (_utf8mb4 '2'),(_utf8mb4 '3')",
                json.introduce("INSERT INTO t (j) VALUES ('2'),('3')"));
        assertEquals("INSERT INTO t (l) VALUES ('4')", json.introduce("INSERT INTO t (l) VALUES ('4')"));
        assertEquals("INSERT INTO t VALUES (5,_utf8mb4 '5','5',_utf8mb4 '5')",
                json.introduce("INSERT INTO t VALUES (5,'5','5','5')"));
    }

    @Test
    void aTableWithoutJsonNeedsNothing() {
        assertNull(JsonIntroducers.of(new TableSchema(new TableName("d", "t"), List.of(
                new Column("id", 1, "int", "int", false, false, null, null),
                new Column("j", 2, "longtext", "longtext", true, false, "utf8mb4", "utf8mb4_bin")), List.of(), List.of())));
    }
}
