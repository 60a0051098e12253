package io.jdm.common.position;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Bytes of binlog after a position, across the source's files. */
class BinaryLogsTest {
    private static final BinaryLogs LOGS = new BinaryLogs(List.of(new BinaryLogs.File("bin.000001", 1000),
            new BinaryLogs.File("bin.000002", 500), new BinaryLogs.File("bin.000003", 300)));

    @Test
    void countsTheRestOfItsFileAndEveryLaterFile() {
        assertEquals(600 + 500 + 300, LOGS.bytesAfter(BinlogPosition.of("bin.000001", 400)));
        assertEquals(100 + 300, LOGS.bytesAfter(BinlogPosition.of("bin.000002", 400)));
        assertEquals(300, LOGS.bytesAfter(BinlogPosition.of("bin.000003", 0)));
    }

    @Test
    void theEndOfTheNewestFileIsCaughtUp() {
        assertEquals(0, LOGS.bytesAfter(BinlogPosition.of("bin.000003", 300)));
        // the list was read before the position: a reader cannot be past the end
        assertEquals(0, LOGS.bytesAfter(BinlogPosition.of("bin.000003", 350)));
    }

    @Test
    void aFileNotListedIsUnknown() {
        assertEquals(-1, LOGS.bytesAfter(BinlogPosition.of("bin.000000", 4)));
        assertEquals(-1, LOGS.bytesAfter(BinlogPosition.of("other.000002", 4)));
        assertEquals(-1, new BinaryLogs(List.of()).bytesAfter(BinlogPosition.of("bin.000001", 4)));
    }
}
