package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import com.github.shyiko.mysql.binlog.io.ByteArrayOutputStream;
import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import com.github.shyiko.mysql.binlog.network.SSLSocketFactory;
import com.github.shyiko.mysql.binlog.network.protocol.ErrorPacket;
import com.github.shyiko.mysql.binlog.network.protocol.GreetingPacket;
import com.github.shyiko.mysql.binlog.network.protocol.PacketChannel;
import com.github.shyiko.mysql.binlog.network.protocol.command.ByteArrayCommand;
import com.github.shyiko.mysql.binlog.network.protocol.command.Command;
import io.jdm.common.jdbc.Pem;
import io.jdm.common.jdbc.ServerRsaKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.net.ssl.HostnameVerifier;

/**
 * The binlog library's packet channel with the logins the library lacks. The library (0.30.1, and
 * its newest source alike) speaks mysql_native_password and caching_sha2_password, ends an auth
 * switch to sha256_password with "unsupported authentication method", and on a caching_sha2
 * full login without TLS always asks the server for its RSA key. Its authenticator is made inside
 * {@code connect()} with no way to hand it another, but it reads every packet through the client's
 * channel, which a subclass may replace (see {@link ReplicaClient}). So this channel stands in front
 * of the library's own, passes every call through (the packet sequence stays the library's), and
 * until the login is complete takes over two exchanges the way MySQL's own client does them:
 *
 * <pre>
 *   server: auth switch to sha256_password, scramble
 *     TLS          client: password NUL                                  (clear, inside TLS)
 *     no TLS       client: 0x01 (key request)   server: PEM public key   (unless the task pins the key)
 *                  client: RSA-OAEP(password NUL XOR scramble)
 *   server: "perform full authentication" (caching_sha2_password, 0x01 0x04), no TLS, the key
 *   pinned or its retrieval refused
 *                  client: RSA-OAEP(password NUL XOR scramble)           (with the pinned key)
 *   server: OK or error  →  handed to the library as the answer to the read it made
 * </pre>
 *
 * MySQL decrypts sha256_password with OAEP padding in 5.7 and 8.0 alike, and caching_sha2_password
 * from 8.0.5 on, as Connector/J encrypts both. A login this channel cannot make (no TLS, no key)
 * fails with one line that names the settings that would allow it.
 */
final class LoginChannel extends PacketChannel {
    private static final String SHA256_PASSWORD = "sha256_password";
    private static final String OAEP = "RSA/ECB/OAEPWithSHA-1AndMGF1Padding";
    private static final byte AUTH_SWITCH = (byte) 0xFE;
    private static final byte ERROR = (byte) 0xFF;
    private static final byte MORE_DATA = 0x01;
    private static final byte PERFORM_FULL_AUTHENTICATION = 0x04;
    private static final byte PUBLIC_KEY_REQUEST = 0x01;

    private final PacketChannel library;
    private final byte[] password;
    private final ServerRsaKey rsaKey;
    private byte[] scramble;
    private boolean authenticated;

    /**
     * @param library the channel the library opened, which the greeting was read from
     * @param greeting the server's greeting packet, whose scramble a login without an auth switch uses
     */
    LoginChannel(PacketChannel library, byte[] greeting, String password, ServerRsaKey rsaKey) throws IOException {
        super(new Unconnected());
        this.library = library;
        this.password = password == null ? new byte[0] : password.getBytes(StandardCharsets.UTF_8);
        this.rsaKey = rsaKey;
        this.scramble = new GreetingPacket(greeting).getScramble().getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public byte[] read() throws IOException {
        byte[] packet = library.read();
        if (authenticated || packet.length == 0) {
            return packet;
        }
        if (packet[0] == AUTH_SWITCH && packet.length > 1) {
            int nul = indexOf(packet, (byte) 0, 1);
            String plugin = new String(packet, 1, nul - 1, StandardCharsets.US_ASCII);
            int end = packet[packet.length - 1] == 0 ? packet.length - 1 : packet.length;
            scramble = Arrays.copyOfRange(packet, Math.min(nul + 1, end), end);
            if (plugin.equals(SHA256_PASSWORD)) {
                return sha256Password();
            }
        } else if (packet.length == 2 && packet[0] == MORE_DATA && packet[1] == PERFORM_FULL_AUTHENTICATION
                && !library.isSSL() && !rsaKey.retrieved()) {
            library.write(new ByteArrayCommand(encrypted(pinnedKey("caching_sha2_password"))));
            return library.read();
        }
        return packet;
    }

    /** sha256_password after the server switched to it: clear over TLS, else RSA-encrypted. */
    private byte[] sha256Password() throws IOException {
        if (password.length == 0) {
            library.write(new ByteArrayCommand(new byte[] {0}));
        } else if (library.isSSL()) {
            library.write(new ByteArrayCommand(Arrays.copyOf(password, password.length + 1)));
        } else if (!rsaKey.retrieved()) {
            library.write(new ByteArrayCommand(encrypted(pinnedKey(SHA256_PASSWORD))));
        } else {
            library.write(new ByteArrayCommand(new byte[] {PUBLIC_KEY_REQUEST}));
            byte[] answer = library.read();
            if (answer.length > 0 && answer[0] == ERROR) {
                ErrorPacket e = new ErrorPacket(Arrays.copyOfRange(answer, 1, answer.length));
                throw new AuthenticationException(e.getErrorMessage() + " (the server answered the binlog login's "
                        + "request for its RSA public key with this: a server without an RSA key pair, such as a MySQL"
                        + " built with yaSSL, logs " + SHA256_PASSWORD + " users in over TLS only: add ssl-ca to the"
                        + " source's security section)", e.getErrorCode(), e.getSqlState());
            }
            library.write(new ByteArrayCommand(encrypted(serverKey(answer))));
        }
        return library.read();
    }

    private RSAPublicKey pinnedKey(String plugin) throws AuthenticationException {
        return rsaKey.key().orElseThrow(() -> new AuthenticationException("the binlog login of a " + plugin
                + " user without TLS needs the server's RSA public key, and security.allow-public-key-retrieval is"
                + " false: add ssl-ca (TLS) or server-rsa-public-key-file to the source's security section"));
    }

    /** The key the server sent: PEM text, after an AuthMoreData byte where a server adds one. */
    private static RSAPublicKey serverKey(byte[] answer) throws AuthenticationException {
        int begin = indexOf(answer, (byte) '-', 0);
        try {
            return Pem.rsaPublicKey(Arrays.copyOfRange(answer, Math.min(begin, answer.length), answer.length));
        } catch (IllegalArgumentException e) {
            throw new AuthenticationException("the server sent no RSA public key for the binlog login of a "
                    + SHA256_PASSWORD + " user (it has none: it logs such users in over TLS only): add ssl-ca to "
                    + "the source's security section");
        }
    }

    /** The NUL-terminated password XORed with the scramble, encrypted with OAEP padding. */
    private byte[] encrypted(RSAPublicKey key) throws AuthenticationException {
        byte[] plain = Arrays.copyOf(password, password.length + 1);
        for (int i = 0; i < plain.length; i++) {
            plain[i] ^= scramble[i % scramble.length];
        }
        try {
            Cipher cipher = Cipher.getInstance(OAEP);
            cipher.init(Cipher.ENCRYPT_MODE, key);
            return cipher.doFinal(plain);
        } catch (GeneralSecurityException e) {
            throw new AuthenticationException("cannot encrypt the password with the server's RSA public key ("
                    + e.getMessage() + "): a password of " + password.length + " bytes is too long for a key of "
                    + key.getModulus().bitLength() + " bits; use TLS");
        }
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return bytes.length;
    }

    @Override
    public void authenticationComplete() {
        authenticated = true;
        library.authenticationComplete();
    }

    @Override
    public void write(Command command) throws IOException {
        library.write(command);
    }

    @Override
    public ByteArrayInputStream getInputStream() {
        return library.getInputStream();
    }

    @Override
    public ByteArrayOutputStream getOutputStream() {
        return library.getOutputStream();
    }

    @Override
    public void upgradeToSSL(SSLSocketFactory factory, HostnameVerifier verifier) throws IOException {
        library.upgradeToSSL(factory, verifier);
    }

    @Override
    public boolean isSSL() {
        return library.isSSL();
    }

    @Override
    public void setShouldUseSoLinger0() {
        library.setShouldUseSoLinger0();
    }

    @Override
    public boolean isOpen() {
        return library.isOpen();
    }

    @Override
    public void close() throws IOException {
        library.close();
    }

    /** What the superclass's constructor wraps and nothing reads: every call goes to the library's channel. */
    private static final class Unconnected extends Socket {
        @Override
        public InputStream getInputStream() {
            return InputStream.nullInputStream();
        }

        @Override
        public OutputStream getOutputStream() {
            return OutputStream.nullOutputStream();
        }
    }
}
