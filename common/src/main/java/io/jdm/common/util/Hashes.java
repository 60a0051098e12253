package io.jdm.common.util;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The one digest the project uses for short, stable names and fingerprints: SHA-256, as hex. */
public final class Hashes {
    private Hashes() {
    }

    /** The SHA-256 of {@code s} (UTF-8) as lower-case hex, cut to its first {@code chars} characters. */
    public static String sha256Hex(String s, int chars) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d).substring(0, chars);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
