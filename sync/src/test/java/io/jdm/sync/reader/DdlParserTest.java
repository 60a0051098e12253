package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.common.sql.TableName;
import java.util.List;
import org.junit.jupiter.api.Test;

class DdlParserTest {
    @Test
    void findsTheTablesOfCommonDdl() {
        assertEquals(List.of(new TableName("db", "t")), DdlParser.tables("db", "ALTER TABLE t ADD COLUMN x INT"));
        assertEquals(List.of(new TableName("o", "we`ird")),
                DdlParser.tables("db", "create table if not exists `o`.`we``ird` (a int)"));
        assertEquals(List.of(new TableName("db", "a"), new TableName("x", "b")), DdlParser.tables("db", "DROP TABLE a, x.b"));
        assertEquals(List.of(new TableName("db", "a"), new TableName("db", "b")), DdlParser.tables("db", "RENAME TABLE a TO b"));
        assertEquals(List.of(new TableName("db", "t")), DdlParser.tables("db", "CREATE UNIQUE INDEX i ON t (a)"));
        assertEquals(List.of(new TableName("db", "t")), DdlParser.tables("db", "TRUNCATE t"));
        assertEquals(List.of(), DdlParser.tables("db", "CREATE DATABASE x"));
        assertEquals(List.of(), DdlParser.tables("db", "GRANT ALL ON *.* TO x"));
    }
}
