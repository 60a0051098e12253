package io.jdm.common.jdbc;

import java.nio.file.Path;
import java.security.interfaces.RSAPublicKey;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * Where the server's RSA public key comes from on a connection without TLS. There MySQL's
 * {@code sha256_password}, and {@code caching_sha2_password} when the server holds no cached hash
 * of the password, take the password only encrypted with that key. The client may ask the server
 * for it, as DM's Go driver always does and jdm does unless told otherwise; whoever sits between
 * the two could then hand over a key of their own and read the password. A key file pins the key
 * (Connector/J's {@code serverRSAPublicKeyFile}); retrieval can be refused (Connector/J's {@code
 * allowPublicKeyRetrieval=false}), and then such a login needs TLS. Over TLS none of this is used:
 * the password goes in clear inside the TLS session.
 */
public final class ServerRsaKey {
    /** The key is asked of the server when a login needs it: jdm's default, as DM's. */
    public static final ServerRsaKey RETRIEVED = new ServerRsaKey(true, null, null);
    /** The key is never asked of the server and none is pinned: such a login needs TLS. */
    public static final ServerRsaKey REFUSED = new ServerRsaKey(false, null, null);

    private final boolean retrieved;
    private final Path file;
    private final RSAPublicKey key;

    private ServerRsaKey(boolean retrieved, Path file, RSAPublicKey key) {
        this.retrieved = retrieved;
        this.file = file;
        this.key = key;
    }

    /**
     * The key in {@code file}, whose text is {@code pem}: read and checked now, so a wrong file is
     * reported when the task is loaded.
     *
     * @throws IllegalArgumentException when the text holds no RSA public key
     */
    public static ServerRsaKey pinned(Path file, byte[] pem) {
        return new ServerRsaKey(false, Objects.requireNonNull(file, "file").toAbsolutePath(), Pem.rsaPublicKey(pem));
    }

    /** Whether the server is asked for its key when a login needs it. */
    public boolean retrieved() {
        return retrieved;
    }

    /** The key the task pins, when it does. */
    public Optional<RSAPublicKey> key() {
        return Optional.ofNullable(key);
    }

    /** The file the pinned key was read from, when there is one. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** Whether a password that must be RSA-encrypted can be sent at all without TLS. */
    public boolean available() {
        return retrieved || key != null;
    }

    /** Connector/J's settings for this key, on a connection without TLS. */
    void putDriverProperties(Properties p) {
        p.setProperty("allowPublicKeyRetrieval", Boolean.toString(retrieved));
        if (file != null) {
            p.setProperty("serverRSAPublicKeyFile", file.toString());
        }
    }

    @Override
    public String toString() {
        return file != null ? "the RSA public key in " + file
                : retrieved ? "the server's RSA public key, asked of the server" : "no RSA public key";
    }
}
