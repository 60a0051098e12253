package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SecretTest {
    @Test
    void printsMaskAndRevealsValue() {
        Secret s = Secret.of("hunter2");
        assertEquals("******", s.toString());
        assertEquals("hunter2", s.reveal());
    }

    @Test
    void equalsByValue() {
        assertEquals(Secret.of("a"), Secret.of("a"));
        assertEquals(Secret.of("a").hashCode(), Secret.of("a").hashCode());
        assertNotEquals(Secret.of("a"), Secret.of("b"));
        assertSame(Secret.EMPTY, Secret.of(""));
        assertTrue(Secret.EMPTY.isEmpty());
    }

    @Test
    void recordsThatHoldASecretDoNotPrintIt() {
        DatabaseConfig db = DatabaseConfig.of("h", 3306, "u", Secret.of("hunter2"));
        assertTrue(db.toString().contains("password=******"), db.toString());
        assertTrue(!db.toString().contains("hunter2"));
        assertTrue(!db.toConnectionSpec().toString().contains("hunter2"));
        assertEquals("hunter2", db.toConnectionSpec().password());
        assertEquals(OptionalLong.empty(), db.maxAllowedPacket());
    }
}
