package io.jdm.common.dumpdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.BinlogPosition;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class DumpFileNamesTest {

    @Test
    void plainNamesAreUnchangedLikeMydumper() {
        assertEquals("shop.orders.000000001.sql", DumpFileNames.dataFile("shop", "orders", 1, ""));
        assertEquals("shop.orders-schema.sql", DumpFileNames.tableSchema("shop", "orders"));
        assertEquals("shop-schema-create.sql", DumpFileNames.databaseSchema("shop"));
    }

    @Test
    void oddNamesRoundTripThroughTheFileName() {
        for (String name : List.of("we`ird", "a.b", "sp ace", "slash/x", "ünï", "😀", "@0041")) {
            String file = DumpFileNames.dataFile("d.b", name, 12, ".zst");
            assertTrue(file.matches("[A-Za-z0-9_$@.-]+"), file);
            var parsed = DumpFileNames.parse(file).orElseThrow();
            assertEquals(DumpFileNames.Kind.DATA, parsed.kind());
            assertEquals("d.b", parsed.schema());
            assertEquals(name, parsed.table());
            assertEquals(12, parsed.index());
            assertEquals(".zst", parsed.compression());
        }
    }

    @Test
    void parsesEveryKindAndIgnoresOthers() {
        assertEquals(DumpFileNames.Kind.VIEW, DumpFileNames.parse("db.v-schema-view.sql").orElseThrow().kind());
        assertEquals(DumpFileNames.Kind.TABLE, DumpFileNames.parse("db.t-schema.sql.gz").orElseThrow().kind());
        assertEquals(DumpFileNames.Kind.DATABASE, DumpFileNames.parse("db-schema-create.sql").orElseThrow().kind());
        assertTrue(DumpFileNames.parse("metadata").isEmpty());
        assertTrue(DumpFileNames.parse("notes.txt").isEmpty());
    }

    @Test
    void metadataRoundTripsAndReadsMysqlMultiLineGtid() {
        var m = new DumpMetadata(LocalDateTime.of(2026, 1, 2, 3, 4, 5), LocalDateTime.of(2026, 1, 2, 3, 5, 6),
                new BinlogPosition("mysql-bin.000003", 1234, "0-1-42"), "flush");
        assertEquals(m, DumpMetadata.parse(m.render().lines().toList()));

        var mysql = DumpMetadata.parse(List.of(
                "Started dump at: 2026-01-02 03:04:05",
                "SHOW MASTER STATUS:",
                "\tLog: binlog.000002",
                "\tPos: 157",
                "\tGTID:3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5,",
                "4e11fa47-71ca-11e1-9e33-c80aa9429562:1-7",
                "",
                "Finished dump at: 2026-01-02 03:04:06"));
        assertEquals(new BinlogPosition("binlog.000002", 157,
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5,4e11fa47-71ca-11e1-9e33-c80aa9429562:1-7"), mysql.position());
    }
}
