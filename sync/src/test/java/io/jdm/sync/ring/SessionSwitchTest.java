package io.jdm.sync.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class SessionSwitchTest {
    @Test
    void onlyModesThatActOnNothingReplayedAreLeftOut() {
        assertEquals("'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'",
                SessionSwitch.withoutInert("'STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION'"));
        assertEquals("'PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE'", SessionSwitch.withoutInert(
                "'PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ORACLE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS'"));
        assertEquals("''", SessionSwitch.withoutInert("'NO_AUTO_CREATE_USER'"));
        assertNull(SessionSwitch.withoutInert("'TIME_TRUNCATE_FRACTIONAL'"), "a mode that changes values is never left out");
    }
}
