package io.jdm.common.dumpdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
    void namesAreEscapedAsDumplingEscapesThem() {
        assertEquals("订单", DumpFileNames.escape("订单"));
        assertEquals("a%2Fb", DumpFileNames.escape("a/b"));
        assertEquals("a%2Eb", DumpFileNames.escape("a.b"));
        assertEquals("sp ace", DumpFileNames.escape("sp ace"));
        assertEquals("100%25", DumpFileNames.escape("100%"));
        assertEquals("user@2024", DumpFileNames.escape("user@2024"));
        assertEquals("t%2Dschema", DumpFileNames.escape("t-schema"));
        assertEquals("t%2DSCHEMA-x", DumpFileNames.escape("t-SCHEMA-x"));
        assertEquals("%3A%3F%2A%5C%7C%22%3C%3E%0A", DumpFileNames.escape(":?*\\|\"<>\n"));
        assertEquals("shop.订单-schema.sql", DumpFileNames.tableSchema("shop", "订单"));
    }

    @Test
    void readsDumplingsPercentNames() {
        assertEquals("订单", DumpFileNames.unescape("%E8%AE%A2%E5%8D%95"));
        assertEquals("a/b.c 100%@x", DumpFileNames.unescape("a%2Fb%2Ec 100%25@x"));
        var p = DumpFileNames.parse("my%2Edb.t%2Dschema%2Fx.000000003.sql.gz").orElseThrow();
        assertEquals(new DumpFileNames.Parsed(DumpFileNames.Kind.DATA, "my.db", "t-schema/x", 3, ".gz"), p);
        assertEquals(new DumpFileNames.Parsed(DumpFileNames.Kind.VIEW, "shop", "订单 v", 0, ""),
                DumpFileNames.parse("shop.订单 v-schema-view.sql").orElseThrow());
    }

    @Test
    void readsOlderJdmAtNamesOnlyWhenAsked() {
        assertEquals("a.b/订", DumpFileNames.Escaping.LEGACY_AT.unescape("a@002eb@002f@8ba2"));
        assertEquals("user@2024", DumpFileNames.Escaping.PERCENT.unescape("user@2024"));
        assertEquals(new DumpFileNames.Parsed(DumpFileNames.Kind.TABLE, "d.b", "x y", 0, ""),
                DumpFileNames.parse("d@002eb.x@0020y-schema.sql", DumpFileNames.Escaping.LEGACY_AT).orElseThrow());
    }

    @Test
    void oddNamesRoundTripThroughTheFileName() {
        for (String name : List.of("we`ird", "a.b", "sp ace", "slash/x", "ünï", "😀", "@0041", "订单", "100%", "%41",
                "x-schema-view", "-schema", "back\\slash", "tab\tnl\n")) {
            String file = DumpFileNames.dataFile("d.b", name, 12, ".zst");
            assertTrue(file.chars().noneMatch(c -> c == '/' || c < 0x20), file);
            var parsed = DumpFileNames.parse(file).orElseThrow();
            assertEquals(DumpFileNames.Kind.DATA, parsed.kind());
            assertEquals("d.b", parsed.schema());
            assertEquals(name, parsed.table());
            assertEquals(12, parsed.index());
            assertEquals(".zst", parsed.compression());
            assertEquals(DumpFileNames.Kind.TABLE,
                    DumpFileNames.parse(DumpFileNames.tableSchema("d.b", name)).orElseThrow().kind());
            assertEquals(name, DumpFileNames.parse(DumpFileNames.viewSchema("d.b", name)).orElseThrow().table());
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
        assertNull(m.sourceSqlMode(), "not recorded");
        for (String mode : new String[] {"", "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION"}) {
            var withMode = new DumpMetadata(m.started(), m.finished(), m.position(), "flush", mode);
            assertEquals(withMode, DumpMetadata.parse(withMode.render().lines().toList()));
            assertEquals(mode, DumpMetadata.parse(withMode.render().lines().toList()).sourceSqlMode());
        }

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

    @Test
    void readsTheIniMetadataOfNewerMydumper() {
        var master = DumpMetadata.parse(List.of(
                "# Started dump at: 2023-06-09 11:47:18",
                "[master]",
                "# Channel_Name = '' # It can be use to setup replication FOR CHANNEL",
                "File = mydumper1-bin.000017",
                "Position = 241149225",
                "Executed_Gtid_Set = 7b166a41-65a2-11ed-9de3-0800275ff74d:1-147115",
                "",
                "[`sakila`.`store`]",
                "Rows = 2",
                "# Finished dump at: 2023-06-09 11:47:19"));
        assertEquals(new BinlogPosition("mydumper1-bin.000017", 241149225,
                "7b166a41-65a2-11ed-9de3-0800275ff74d:1-147115"), master.position());
        assertEquals(LocalDateTime.of(2023, 6, 9, 11, 47, 18), master.started());
        assertEquals(LocalDateTime.of(2023, 6, 9, 11, 47, 19), master.finished());

        var source = DumpMetadata.parse(List.of(
                "[config]",
                "File = not-this-one.000001",
                "[source]",
                "executed_gtid_set = \"0-1-42\"",
                "SOURCE_LOG_FILE = \"mysql-bin.000003\"",
                "SOURCE_LOG_POS = 1234",
                "#SOURCE_AUTO_POSITION = {0|1}"));
        assertEquals(new BinlogPosition("mysql-bin.000003", 1234, "0-1-42"), source.position());
    }
}
