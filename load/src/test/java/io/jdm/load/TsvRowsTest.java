package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.load.TsvRows.Column;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The text {@link TsvRows} hands to LOAD DATA, byte for byte. What the server makes of it is
 * {@code BulkLoadIT}'s to show; this pins the conversion rules themselves.
 */
class TsvRowsTest {
    private static final Column N = Column.NUMBER;
    private static final Column B = Column.BINARY;
    private static final Column O = Column.OTHER;

    private static String convert(String values, Column... columns) throws TsvRows.Unsupported {
        TsvRows.Out out = new TsvRows.Out();
        byte[] sql = values.getBytes(StandardCharsets.ISO_8859_1);
        TsvRows.append(sql, 0, columns, out);
        return new String(out.buf, 0, out.len, StandardCharsets.ISO_8859_1);
    }

    @Test
    void sqlEscapesBecomeLoadDataEscapesOfTheSameBytes() throws Exception {
        assertEquals("a\\0b\\bc\\nd\\re\\tf\\Zg\\\\h'i\"j\\\\%k\\\\_l\n",
                convert("('a\\0b\\bc\\nd\\re\\tf\\Zg\\\\h\\'i\\\"j\\%k\\_l')", O));
        assertEquals("it's \"q\"\tdouble \"x\"\n", convert("('it''s \"q\"', \"double \"\"x\"\"\")", O, O));
        assertEquals("raw\\ttab\\nnewline\n", convert("('raw\ttab\nnewline')", O));
        assertEquals("\\\\N\tNULL\t\\N\t\n", convert("('\\\\N','NULL',NULL,'')", O, O, O, O));
    }

    @Test
    void numbersGoAsTheyAreIntoNumericColumnsAndNegativeDecimalZeroLosesItsSign() throws Exception {
        assertEquals("1\t-12.5\t1.5e3\t0\t0.00\t-0e0\n", convert("(1,-12.5,1.5e3,-0,-0.00,-0e0)", N, N, N, N, N, N));
        assertEquals("1\n2\n", convert(" (1) ,\n (2) ", N));
    }

    @Test
    void hexLiteralsBecomeTheirBytesInBinaryColumns() throws Exception {
        assertEquals("\0\\t\\n\\\\N\tA\n", convert("(0x00090A5C4E,X'41')", B, B));
        assertEquals("\n", convert("(X'')", B));
    }

    @Test
    void whatTextWouldMeanDifferentlyIsRefused() {
        assertThrows(TsvRows.Unsupported.class, () -> convert("(2)", O), "an unquoted number in an ENUM or YEAR");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(0x41)", O), "hex into a text column");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(b'101')", N), "a bit literal");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(_binary'a')", O), "an introducer");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(NOW())", O), "a function");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(DEFAULT)", N), "DEFAULT");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(1,2)", N), "more values than columns");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(1)", N, N), "fewer values than columns");
        assertThrows(TsvRows.Unsupported.class, () -> convert("('open", O), "an unterminated string");
        assertThrows(TsvRows.Unsupported.class, () -> convert("(1) ON DUPLICATE KEY UPDATE a=1", N), "a tail");
    }
}
