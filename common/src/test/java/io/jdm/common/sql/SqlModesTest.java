package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.schema.Column;
import org.junit.jupiter.api.Test;

class SqlModesTest {
    private static Column column(String dataType, String columnType) {
        return new Column("c", 1, dataType, columnType, false, false, "utf8mb4", "utf8mb4_bin");
    }

    @Test
    void theEmptyStringIsAnEnumsErrorValueOnlyWhereItIsNotALabel() {
        assertTrue(SqlModes.isEnumErrorValue(column("enum", "enum('a','b')"), ""));
        assertTrue(SqlModes.isEnumErrorValue(column("enum", "enum('it''s','x,'',y','\\\\')"), ""));
        assertFalse(SqlModes.isEnumErrorValue(column("enum", "enum('a','','b')"), ""));
        assertFalse(SqlModes.isEnumErrorValue(column("enum", "enum('')"), ""));
        assertFalse(SqlModes.isEnumErrorValue(column("enum", "enum('a','b')"), "a"));
        assertFalse(SqlModes.isEnumErrorValue(column("set", "set('a','b')"), ""));
        assertFalse(SqlModes.isEnumErrorValue(column("varchar", "varchar(3)"), ""));
    }
}
