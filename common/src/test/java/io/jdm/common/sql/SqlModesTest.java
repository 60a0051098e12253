package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

    @Test
    void aReplayKeepsTheSourcesStrictnessAndWhatChangesValuesButNotHowTextReads() {
        assertEquals(SqlModes.REPLAY_NON_STRICT, SqlModes.replayOf(""), "a non-strict source: non-strict");
        assertEquals("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,NO_AUTO_VALUE_ON_ZERO,"
                        + "ALLOW_INVALID_DATES",
                SqlModes.replayOf("ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
                        + "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"), "MySQL 8.0's default");
        assertEquals("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION,"
                        + "NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES",
                SqlModes.replayOf("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
                        + "NO_ENGINE_SUBSTITUTION"), "MariaDB's default; the inert mode goes only where refused");
        assertEquals("NO_UNSIGNED_SUBTRACTION,NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES,NO_ENGINE_SUBSTITUTION",
                SqlModes.replayOf("real_as_float,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI,"
                        + "NO_BACKSLASH_ESCAPES,no_unsigned_subtraction,HIGH_NOT_PRECEDENCE,EMPTY_STRING_IS_NULL,"
                        + "PAD_CHAR_TO_FULL_LENGTH"), "nothing that changes how jdm's text reads");
        assertEquals("STRICT_TRANS_TABLES,STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
                        + "NO_ENGINE_SUBSTITUTION,NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES",
                SqlModes.replayOf("STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
                        + "ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"),
                "TRADITIONAL as 5.7 lists it: strict, without the zero-date checks it stands for");
    }

    @Test
    void strictnessIsToldAndTakenAway() {
        assertTrue(SqlModes.strict(SqlModes.REPLAY));
        assertTrue(SqlModes.strict("strict_all_tables"));
        assertFalse(SqlModes.strict(SqlModes.REPLAY_NON_STRICT));
        assertFalse(SqlModes.strict(""));
        assertEquals(SqlModes.REPLAY_NON_STRICT, SqlModes.withoutStrictness(SqlModes.REPLAY));
        assertEquals("ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION", SqlModes.withoutStrictness(
                "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION"));
    }

    @Test
    void onlyModesThatActOnNothingReplayedAreLeftOutWhereRefused() {
        assertEquals("STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION",
                SqlModes.withoutInert("STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"));
        assertEquals("PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE", SqlModes.withoutInert(
                "PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ORACLE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS"));
        assertEquals("", SqlModes.withoutInert("NO_AUTO_CREATE_USER"));
        assertNull(SqlModes.withoutInert("TIME_TRUNCATE_FRACTIONAL"), "a mode that changes values is never left out");
    }
}
