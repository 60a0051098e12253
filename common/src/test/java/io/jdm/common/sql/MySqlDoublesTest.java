package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Doubles against the text MySQL 8.0.31 printed for them in a JSON array. */
class MySqlDoublesTest {
    @Test
    void shortestDigitsInMysqlsLayout() {
        double[] in = {1e15, 1e16, 0.1, 1e-7, -0.0, 5e-324, 100, 1e-15, 1e-16, 1.7976931348623157e308,
            123456789012345678e0, 0.000123, 2.5e-5, -1.5e-300, 0.3, 2.0 / 3, 1e22, 1e23, 9007199254740993e0,
            2.2250738585072014e-308, 4.9406564584124654e-324, 123456.789, 999999999999999e0, 9999999999999998e0,
            0.1 + 0.2, 1e21, 1.5e-14, 1.5e-15, 12345678901234567e0, -123.456, 8.41e21, 5e-310,
            1.1125369292536007e-308, 2.9802322387695312e-8, 4.35, 0.001};
        String printed = "1e15, 1e16, 0.1, 0.0000001, -0.0, 5e-324, 100.0, 0.000000000000001, 1e-16, "
                + "1.7976931348623157e308, 1.2345678901234568e17, 0.000123, 0.000025, -1.5e-300, 0.3, "
                + "0.6666666666666666, 1e22, 1e23, 9.007199254740992e15, 2.2250738585072014e-308, 5e-324, "
                + "123456.789, 999999999999999.0, 9.999999999999998e15, 0.30000000000000004, 1e21, "
                + "0.000000000000015, 0.0000000000000015, 1.2345678901234568e16, -123.456, 8.41e21, 5e-310, "
                + "1.1125369292536007e-308, 0.000000029802322387695312, 4.35, 0.001";
        List<String> out = new ArrayList<>();
        for (double d : in) {
            out.add(MySqlDoubles.json(d, true));
        }
        assertEquals(printed, String.join(", ", out));
    }

    @Test
    void mysql57LeavesIntegralDoublesBare() {
        assertEquals("100", MySqlDoubles.json(100, false));
        assertEquals("-0", MySqlDoubles.json(-0.0, false));
        assertEquals("1e15", MySqlDoubles.json(1e15, false));
    }

    @Test
    void theJsonParserIsExactForSmallSignificandsAndPowers() {
        for (String t : new String[] {"1.5", "100.0", "-0.0", "0.6666666666666666", "1e22", "9007199254740992.0",
            "0.000000000000015"}) {
            assertEquals(true, MySqlDoubles.jsonParserReadsExactly(t), t);
        }
        for (String t : new String[] {"0.30000000000000004", "1e23", "1.5e300", "5e-324", "9.007199254740993e15",
            "0.00000009126590312330531"}) {
            assertEquals(false, MySqlDoubles.jsonParserReadsExactly(t), t);
        }
        assertEquals("0.1e0", MySqlDoubles.sqlLiteral("0.1"));
        assertEquals("1.5e300", MySqlDoubles.sqlLiteral("1.5e300"));
    }
}
