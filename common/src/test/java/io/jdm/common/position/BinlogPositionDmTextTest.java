package io.jdm.common.position;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** DM's text of a binlog position, {@code (mysql-bin.000001, 5989)}, both ways. */
class BinlogPositionDmTextTest {
    @Test
    void readsAndWritesDmsText() {
        assertEquals(BinlogPosition.of("mysql-bin.000001", 5989), BinlogPosition.parseDmText("(mysql-bin.000001, 5989)"));
        assertEquals(BinlogPosition.of("binlog.000012", 4), BinlogPosition.parseDmText(" ( binlog.000012 ,4 ) "));
        assertEquals("(mysql-bin.000001, 5989)", BinlogPosition.of("mysql-bin.000001", 5989).dmText());
    }

    @Test
    void refusesAnythingElse() {
        for (String bad : new String[] {"mysql-bin.000001:4", "(mysql-bin.000001)", "(a, -1)", "(a b, 4)", "", null,
            "(mysql-bin.000001, 4) x"}) {
            assertThrows(IllegalArgumentException.class, () -> BinlogPosition.parseDmText(bad), String.valueOf(bad));
        }
    }
}
