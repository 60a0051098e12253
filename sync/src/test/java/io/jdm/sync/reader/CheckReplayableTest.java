package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.FatalException;
import io.jdm.sync.ring.SourceSession;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which statements' text reaches the target meaning what its bytes meant on the source. */
class CheckReplayableTest {
    private static SourceSession client(String charset) {
        return new SourceSession("", charset, "latin1_swedish_ci", "latin1_swedish_ci", "+00:00", "1", 1, 1, true,
                true, null, "en_US", null, null);
    }

    private static byte[] latin1(String s) {
        return s.getBytes(Charset.forName("windows-1252"));
    }

    @Test
    void textWhoseLiteralsTheTargetConvertsAlikeGoesThrough() {
        assertDoesNotThrow(() -> SourceCatalog.checkReplayable(latin1("ALTER TABLE t ADD e ENUM('café')"),
                client("latin1"), "here"));
        assertDoesNotThrow(() -> SourceCatalog.checkReplayable("ALTER TABLE t ADD c INT DEFAULT _binary'é'"
                .getBytes(StandardCharsets.UTF_8), client("utf8mb4"), "here"), "UTF-8 bytes go as they are");
        assertDoesNotThrow(() -> SourceCatalog.checkReplayable(latin1("ALTER TABLE t COMMENT _latin1'abc'"),
                client("latin1"), "here"), "ASCII only: the same bytes either way");
    }

    /** MySQL's latin1 keeps the five bytes windows-1252 leaves undefined: they are the C1 controls. */
    @Test
    void everyLatin1ByteIsACharacter() {
        byte[] c1 = latin1("ALTER TABLE t COMMENT 'x'");
        c1[c1.length - 2] = (byte) 0x81;
        assertDoesNotThrow(() -> SourceCatalog.checkReplayable(c1, client("latin1"), "f:7"));
        assertTrue(SourceCatalog.text(c1, client("latin1")).endsWith("'\u0081'"));
    }

    @Test
    void anIntroducedLiteralOfAnotherCharsetStops() {
        FatalException e = assertThrows(FatalException.class, () -> SourceCatalog.checkReplayable(
                latin1("ALTER TABLE t ADD b VARBINARY(2) DEFAULT _binary'é'"), client("latin1"), "f:4"));
        assertTrue(e.getMessage().contains("f:4") && e.getMessage().contains("_binary'é'"), e.getMessage());
    }

    @Test
    void bytesTheClientsCharsetCannotReadStop() {
        byte[] undefined = latin1("ALTER TABLE t COMMENT 'x'");
        undefined[undefined.length - 2] = (byte) 0xE9;
        assertThrows(FatalException.class, () -> SourceCatalog.checkReplayable(undefined, client("ascii"), "f:5"));
        byte[] broken = "ALTER TABLE t COMMENT 'x'".getBytes(StandardCharsets.UTF_8);
        broken[broken.length - 2] = (byte) 0xC3; // a lead byte with no continuation
        assertThrows(FatalException.class, () -> SourceCatalog.checkReplayable(broken, client("utf8mb4"), "f:6"));
    }
}
