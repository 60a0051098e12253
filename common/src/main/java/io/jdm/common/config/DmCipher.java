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
 * under AES-256-CFB (dm/pkg/encrypt). The key is the one DM used by default before it required
 * {@code secret-key-path}; it is public in DM's source, so this hides a password from a glance and
 * nothing more. Like DM, a value that does not decrypt is taken as the password itself.
 */
final class DmCipher {
    private static final byte[] DEFAULT_KEY =
            HexFormat.of().parseHex("a529b7665997f043a30ac8fadcb51d6aa032c226ab5b7750530b12b8c1a16a48");
    private static final int IV_LENGTH = 16;
    private static final byte SEPARATOR = '@';

    private DmCipher() {
    }

    static Secret decryptIfEncrypted(Secret password) {
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
            aes.init(Cipher.DECRYPT_MODE, new SecretKeySpec(DEFAULT_KEY, "AES"),
                    new IvParameterSpec(Arrays.copyOf(raw, IV_LENGTH)));
            byte[] plain = aes.doFinal(raw, IV_LENGTH + 1, raw.length - IV_LENGTH - 1);
            return Secret.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(plain)).toString());
        } catch (GeneralSecurityException | CharacterCodingException notEncrypted) {
            return password;
        }
    }
}
