package io.jdm.common.config;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Passwords written by {@code dmctl encrypt}: base64 of a 16-byte IV, {@code @}, and the password
 * under AES-256-CFB (dm/pkg/encrypt). The key is DM's {@code secret-key-path} file (64 hex digits)
 * when {@code $JDM_SECRET_KEY_PATH} names it, else the one DM used by default before it had that
 * setting, which is public in DM's source (it hides a password from a glance and nothing more).
 * Like DM, a value that does not decrypt is taken as the password itself; one that has the form of
 * an encrypted password and does not decrypt gets a warning, as it was most likely encrypted with
 * another key.
 */
final class DmCipher {
    /** The environment variable that names DM's secret-key-path file. */
    static final String KEY_PATH_VARIABLE = "JDM_SECRET_KEY_PATH";
    private static final byte[] DEFAULT_KEY =
            HexFormat.of().parseHex("a529b7665997f043a30ac8fadcb51d6aa032c226ab5b7750530b12b8c1a16a48");
    private static final int IV_LENGTH = 16;
    private static final byte SEPARATOR = '@';

    private DmCipher() {
    }

    /** The password under {@code key} of {@code s}, read with the key {@code $JDM_SECRET_KEY_PATH} names, if any. */
    static Secret password(Section s, String key) {
        Secret value = s.secret(key);
        byte[] aesKey = DEFAULT_KEY;
        String keyPath = s.ctx().env().apply(KEY_PATH_VARIABLE);
        if (keyPath != null && !keyPath.isBlank() && looksEncrypted(value)) {
            aesKey = keyFile(s, key, java.nio.file.Path.of(keyPath.strip()));
            if (aesKey == null) {
                return value;
            }
        }
        Secret plain = decryptIfEncrypted(value, aesKey);
        if (plain == value && looksEncrypted(value)) {
            s.warning(key, "has the form of a password dmctl encrypted but does not decrypt with "
                    + (aesKey == DEFAULT_KEY ? "DM's default key; if DM ran with secret-key-path, set $"
                    + KEY_PATH_VARIABLE + " to that file" : "the key in $" + KEY_PATH_VARIABLE)
                    + "; it is used as the password as written");
        }
        return plain;
    }

    /** DM's key file: 64 hex digits (surrounding white space ignored); null after saying what is wrong with it. */
    private static byte[] keyFile(Section s, String key, java.nio.file.Path file) {
        String text;
        try {
            text = java.nio.file.Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (java.io.IOException | RuntimeException e) {
            s.problem(key, "cannot read the key file $" + KEY_PATH_VARIABLE + " names (" + file + "): "
                    + e.getClass().getSimpleName() + "; give DM's secret-key-path file");
            return null;
        }
        try {
            byte[] k = HexFormat.of().parseHex(text);
            if (k.length == 32) {
                return k;
            }
        } catch (IllegalArgumentException notHex) {
            // said below
        }
        s.problem(key, "the key file $" + KEY_PATH_VARIABLE + " names (" + file + ") must hold 64 hex digits "
                + "(an AES-256 key), as DM's secret-key-path file does");
        return null;
    }

    /** Base64 of at least an IV, the separator and one byte: what dmctl encrypt writes. */
    private static boolean looksEncrypted(Secret password) {
        try {
            byte[] raw = Base64.getDecoder().decode(password.reveal());
            return raw.length > IV_LENGTH + 1 && raw[IV_LENGTH] == SEPARATOR;
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    static Secret decryptIfEncrypted(Secret password) {
        return decryptIfEncrypted(password, DEFAULT_KEY);
    }

    private static Secret decryptIfEncrypted(Secret password, byte[] key) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(password.reveal());
        } catch (IllegalArgumentException notBase64) {
            return password;
        }
        if (raw.length <= IV_LENGTH || raw[IV_LENGTH] != SEPARATOR) {
            return password;
        }
        try {
            Cipher aes = Cipher.getInstance("AES/CFB/NoPadding");
            aes.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                    new IvParameterSpec(Arrays.copyOf(raw, IV_LENGTH)));
            byte[] plain = aes.doFinal(raw, IV_LENGTH + 1, raw.length - IV_LENGTH - 1);
            return Secret.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(plain)).toString());
        } catch (GeneralSecurityException | CharacterCodingException notEncrypted) {
            return password;
        }
    }
}
