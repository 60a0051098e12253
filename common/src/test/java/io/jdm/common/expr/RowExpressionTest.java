package io.jdm.common.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.schema.Column;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MySQL's semantics as the expression filter evaluates them on decoded row values. */
class RowExpressionTest {
    private static final List<Column> COLUMNS = List.of(
            col("i", "int", "int(11)", null), col("s", "varchar", "varchar(10)", "utf8mb4_general_ci"),
            col("b", "varchar", "varchar(10)", "utf8mb4_bin"), col("d", "datetime", "datetime(3)", null),
            col("t", "time", "time", null), col("bits", "bit", "bit(8)", null),
            col("bin", "varbinary", "varbinary(4)", null), col("dec", "decimal", "decimal(7,2)", null),
            col("j", "json", "json", null), col("y", "year", "year", null));

    private static Column col(String name, String type, String columnType, String collation) {
        return new Column(name, 0, type, columnType, true, false, collation == null ? null : "utf8mb4", collation);
    }

    private static boolean is(String expr, Object... row) {
        Object[] full = new Object[COLUMNS.size()];
        System.arraycopy(row, 0, full, 0, row.length);
        return RowExpression.parse(expr).bind(COLUMNS).isTrue(full);
    }

    @Test
    void nullIsNeverTrueSoTheRowIsReplicated() {
        assertTrue(!is("i > 1", (Object) null));
        assertTrue(!is("NOT (i > 1)", (Object) null));
        assertTrue(is("i IS NULL", (Object) null));
        assertTrue(is("i > 1 OR 1 = 1", (Object) null), "OR with a TRUE side is TRUE");
        assertTrue(!is("i IN (1, NULL)", 2L), "no match and a NULL in the list is NULL");
        assertTrue(is("i <=> NULL", (Object) null));
    }

    @Test
    void stringsAndNumbersCompareAsNumbers() {
        assertTrue(is("s = 1", null, "1.0"));
        assertTrue(is("s > 9", null, "10abc"), "the numeric prefix, as MySQL reads it");
        assertTrue(is("s = 0", null, "abc"));
        assertTrue(is("i = '5'", 5L));
        assertTrue(is("dec >= 25", null, null, null, null, null, null, null, new BigDecimal("30.02")));
        assertTrue(is("c % 2 = 0".replace("c", "i"), 4L) && !is("i % 2 = 0", 3L));
        assertTrue(is("i * i + 1 = 10", 3L) && is("i / 2 = 1.5", 3L) && is("i DIV 2 = 1", 3L));
        assertTrue(!is("i / 0 = 0", 3L), "division by zero is NULL");
    }

    @Test
    void defaultCollationsIgnoreCaseBinOnesAndBinaryStringsDoNot() {
        assertTrue(is("s = 'ABC'", null, "abc"));
        assertTrue(is("s = 'abc'", null, "abc  "), "trailing spaces do not count (PAD SPACE)");
        assertTrue(!is("b = 'ABC'", null, null, "abc"));
        assertTrue(!is("bin = 'AB'", null, null, null, null, null, null, "ab".getBytes(StandardCharsets.UTF_8)));
        assertTrue(is("s LIKE 'a%C'", null, "abc") && !is("b LIKE 'A%'", null, null, "abc"));
        assertTrue(is("s LIKE '%x\\_y'", null, "ax_y") && !is("s LIKE '%x\\_y'", null, "axzy"));
        assertTrue(is("s NOT LIKE 'z%'", null, "abc"));
        assertTrue(is("name != 'Müller…'".replace("name", "s"), null, "X Æ A-12"));
    }

    @Test
    void temporalValuesCompareWithStringsAsTemporalValues() {
        assertTrue(is("d = '2021-01-01 12:34:56.789'", null, null, null, "2021-01-01 12:34:56.789"));
        assertTrue(is("d = '2021-1-1 12:34:56.789000'", null, null, null, "2021-01-01 12:34:56.789"));
        assertTrue(is("d > '2020-12-31'", null, null, null, "2021-01-01 00:00:00.000"));
        assertTrue(is("d = '2021-01-01 20:34:56.789+08:00'", null, null, null, "2021-01-01 12:34:56.789"),
                "an offset is applied; binlog TIMESTAMPs are UTC");
        assertTrue(is("d BETWEEN '2021-01-01' AND '2021-01-02'", null, null, null, "2021-01-01 10:00:00.000"));
        assertTrue(is("d < NOW()", null, null, null, "1999-01-01 00:00:00.000"));
        assertTrue(is("t = '-838:58:50'", null, null, null, null, "-838:58:50"));
        assertTrue(is("t > '01:00'", null, null, null, null, "10:00:00"));
        assertTrue(is("y = '2021'", null, null, null, null, null, null, null, null, null, "2021"));
    }

    @Test
    void bitJsonAndFunctions() {
        assertTrue(is("bits = b'1111'", null, null, null, null, null, new byte[] {0x0F}));
        assertTrue(is("bits = 15", null, null, null, null, null, new byte[] {0x0F}));
        assertTrue(is("j->\"$.id\" = 2", null, null, null, null, null, null, null, null, "{\"id\": 2}"));
        assertTrue(is("j->>'$.a[1]' = 'y'", null, null, null, null, null, null, null, null, "{\"a\": [\"x\", \"y\"]}"));
        assertTrue(is("LOWER(s) = 'abc' AND CHAR_LENGTH(s) = 3", null, "ABC"));
        assertTrue(is("IFNULL(i, 7) = 7", (Object) null));
    }

    @Test
    void whatCannotBeEvaluatedIsRefusedWhenParsedNamingIt() {
        IllegalArgumentException f = assertThrows(IllegalArgumentException.class,
                () -> RowExpression.parse("md5(s) = 'x'"));
        assertTrue(f.getMessage().startsWith("unsupported function md5()"), f.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RowExpression.parse("s REGEXP 'a'"))
                .getMessage().startsWith("unsupported operator REGEXP"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RowExpression.parse("i = 1; drop table x"))
                .getMessage().startsWith("cannot parse the expression"));
        assertThrows(RowExpression.UnknownColumnException.class, () -> RowExpression.parse("nope = 1").bind(COLUMNS));
    }

    @Test
    void printsSqlThatMysqlAndMariadbRead() {
        assertEquals("((`i` % 2) = 0)", RowExpression.parse("i % 2 = 0").sql());
        assertEquals("(JSON_EXTRACT(`j`, '$.id') = 2)", RowExpression.parse("j->\"$.id\" = 2").sql());
        assertEquals("(`s` <> 'it''s')", RowExpression.parse("s != 'it''s'").sql());
        assertEquals("(`s` LIKE _utf8mb4 X'255c5f')", RowExpression.parse("s LIKE '%\\_'").sql());
        // an instant with a UTC offset goes to the source as its UTC text, read in the +00:00 session
        assertEquals("(`ts` = '2021-01-01 04:34:56.567800')",
                RowExpression.parse("ts = '2021-01-01 12:34:56.5678+08:00'").sql());
        assertEquals("(`d` = '2021-01-01 12:34:56')", RowExpression.parse("d = '2021-01-01 12:34:56'").sql());
    }
}
