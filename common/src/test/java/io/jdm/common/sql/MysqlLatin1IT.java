package io.jdm.common.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link MysqlLatin1} reads and writes latin1 as the server does: each of the 256 bytes is the
 * character the server's {@code CONVERT(... USING utf8mb4)} makes of it, and of every character
 * below U+2200 the server writes as a latin1 byte exactly the ones this charset maps, {@code ?}
 * for the others.
 */
class MysqlLatin1IT {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    @Test
    void everyLatin1ByteIsTheCharacterTheServerMakesOfIt() throws Exception {
        SqlServer s = TestServers.shared().source();
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        String server = s.rows("SELECT HEX(CONVERT(_latin1 X'" + HEX.formatHex(all) + "' USING utf8mb4))").get(0);
        String decoded = new String(all, MysqlLatin1.INSTANCE);
        assertEquals(server, HEX.formatHex(decoded.getBytes(StandardCharsets.UTF_8)));
        assertEquals('\u0081', decoded.charAt(0x81), "a byte windows-1252 leaves undefined");
        assertEquals("\ufffd", new String(new byte[] {(byte) 0x81}, java.nio.charset.Charset.forName("windows-1252")),
                "what Java's windows-1252 would make of it");
    }

    @Test
    void theServerWritesALatin1ByteForTheseCharactersOnly() throws Exception {
        SqlServer s = TestServers.shared().source();
        StringBuilder text = new StringBuilder();
        for (int cp = 0x20; cp < 0x2200; cp++) {
            if (!Character.isSurrogate((char) cp)) {
                text.appendCodePoint(cp);
            }
        }
        text.appendCodePoint(0x1F42C);
        String utf8 = HEX.formatHex(text.toString().getBytes(StandardCharsets.UTF_8));
        String server = s.rows("SELECT HEX(CONVERT(_utf8mb4 X'" + utf8 + "' USING latin1))").get(0);
        StringBuilder expected = new StringBuilder();
        int mapped = 0;
        for (int i = 0; i < text.length(); i = text.offsetByCodePoints(i, 1)) {
            int b = MysqlLatin1.fromUnicode(text.codePointAt(i));
            mapped += b >= 0 ? 1 : 0;
            expected.append(HEX.formatHex(new byte[] {(byte) (b >= 0 ? b : '?')}));
        }
        assertEquals(256 - 0x20, mapped);
        assertEquals(server, expected.toString());
    }

    @Test
    void theEncoderRefusesWhatLatin1CannotHold() {
        for (String unmappable : List.of("\u0080", "\u0100", "\u20ad", "\ud83d\udc2c")) {
            assertFalse(MysqlLatin1.INSTANCE.newEncoder().canEncode(unmappable), unmappable);
            assertThrowsCoding(unmappable);
        }
        assertTrue(MysqlLatin1.INSTANCE.newEncoder().canEncode("caf\u00e9 \u20ac \u0081"));
        assertEquals("636166E92080203F", HEX.formatHex("caf\u00e9 \u20ac \u0100".getBytes(MysqlLatin1.INSTANCE)),
                "as String#getBytes replaces what it cannot map");
    }

    private static void assertThrowsCoding(String s) {
        try {
            MysqlLatin1.INSTANCE.newEncoder().encode(CharBuffer.wrap(s));
        } catch (CharacterCodingException e) {
            return;
        }
        throw new AssertionError(s + " encoded");
    }
}
