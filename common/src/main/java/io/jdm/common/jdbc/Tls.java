package io.jdm.common.jdbc;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * TLS of one connection, as DM's {@code security:} asks for it: CA certificates that the server's
 * certificate must chain to, and a client certificate with its key for servers that ask for one.
 * With a CA the certificate must also name the host the connection was made to (a DNS or IP
 * subject alternative name), as DM's Go driver checks it: a certificate the CA issued to another
 * server would otherwise let that server, or whoever holds its key, stand in for this one. Only
 * the task file can turn that part off ({@code ssl-verify-host: false}). Without a CA the connection
 * is encrypted and the server's certificate is not checked, as DM does. Checked when built, so a
 * key that does not belong to its certificate is reported at load; the key never appears in
 * {@link #toString()} or a message.
 *
 * <p>The binlog client takes an {@link SSLContext}; Connector/J takes key store files only, so
 * {@link #driverProperties()} writes PKCS#12 stores once (see {@link KeyStoreFiles}).
 */
public final class Tls {
    private final List<X509Certificate> ca;
    private final List<X509Certificate> chain;
    private final PrivateKey key;
    private final boolean hostChecked;
    private final char[] storePassword = newPassword();
    private SSLContext context;
    private Properties driverProperties;

    private Tls(List<X509Certificate> ca, List<X509Certificate> chain, PrivateKey key, boolean hostChecked) {
        this.ca = List.copyOf(ca);
        this.chain = List.copyOf(chain);
        this.key = key;
        this.hostChecked = hostChecked;
    }

    /**
     * @param ca certificates the server's must chain to; empty means the server is not checked
     * @param chain the client certificate first, then its intermediates; empty for none
     * @param key the client certificate's key; null exactly when {@code chain} is empty
     * @throws IllegalArgumentException when the key does not belong to the certificate
     */
    public static Tls of(List<X509Certificate> ca, List<X509Certificate> chain, PrivateKey key) {
        if (chain.isEmpty() != (key == null)) {
            throw new IllegalArgumentException("a client certificate needs its key, and a key its certificate");
        }
        if (key != null && !belongs(key, chain.get(0))) {
            throw new IllegalArgumentException("is not the key of the client certificate");
        }
        return new Tls(ca, chain, key, true);
    }

    /** The same TLS, the server's certificate still checked against the CA but not for the host name. */
    public Tls withoutHostCheck() {
        return new Tls(ca, chain, key, false);
    }

    /** Whether the server's certificate is checked against the CA (Connector/J's VERIFY_CA). */
    public boolean verifiesServer() {
        return !ca.isEmpty();
    }

    /** Whether the certificate must also name the host connected to (Connector/J's VERIFY_IDENTITY). */
    public boolean verifiesHost() {
        return verifiesServer() && hostChecked;
    }

    /** Connector/J's {@code sslMode} for this TLS. */
    String sslMode() {
        return verifiesHost() ? "VERIFY_IDENTITY" : verifiesServer() ? "VERIFY_CA" : "REQUIRED";
    }

    public boolean hasClientCertificate() {
        return key != null;
    }

    /**
     * Starts TLS on a connected socket, as the binlog client asks for it once the server agreed.
     * The host name is checked in the handshake itself, against {@code host} as the task file gives
     * it: the JDK's check (RFC 2818, as for HTTPS) matches an IP address only to an IP entry and a
     * name to a DNS entry, and never looks the address up in reverse DNS, which whoever runs the
     * network could answer.
     *
     * @param host the server's host as the connection names it (not its address looked up backwards)
     */
    public SSLSocket upgrade(Socket socket, String host) throws IOException {
        SSLSocket s = (SSLSocket) sslContext().getSocketFactory().createSocket(socket, host, socket.getPort(), true);
        if (verifiesHost()) {
            SSLParameters p = s.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            s.setSSLParameters(p);
        }
        return s;
    }

    /** Connector/J's key store settings; with {@code sslMode} from {@link ConnectionSpec#jdbcUrl()}. */
    public synchronized Properties driverProperties() {
        if (driverProperties == null) {
            Properties p = new Properties();
            KeyStoreFiles files = KeyStoreFiles.create();
            if (verifiesServer()) {
                put(p, "trustCertificateKeyStore", files.write("trust.p12", trustStore(), storePassword));
            }
            if (hasClientCertificate()) {
                put(p, "clientCertificateKeyStore", files.write("client.p12", keyStore(), storePassword));
            }
            driverProperties = p;
        }
        Properties copy = new Properties();
        copy.putAll(driverProperties);
        return copy;
    }

    private void put(Properties p, String prefix, String url) {
        p.setProperty(prefix + "Url", url);
        p.setProperty(prefix + "Type", "PKCS12");
        p.setProperty(prefix + "Password", new String(storePassword));
    }

    synchronized SSLContext sslContext() {
        if (context == null) {
            try {
                KeyManager[] keys = null;
                if (hasClientCertificate()) {
                    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                    kmf.init(keyStore(), storePassword);
                    keys = kmf.getKeyManagers();
                }
                TrustManager[] trust = {new UncheckedServer()};
                if (verifiesServer()) {
                    String algorithm = TrustManagerFactory.getDefaultAlgorithm();
                    TrustManagerFactory tmf = TrustManagerFactory.getInstance(algorithm);
                    tmf.init(trustStore());
                    trust = tmf.getTrustManagers();
                }
                SSLContext c = SSLContext.getInstance("TLS");
                c.init(keys, trust, null);
                context = c;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
            }
        }
        return context;
    }

    private KeyStore trustStore() {
        KeyStore ks = emptyStore();
        try {
            for (int i = 0; i < ca.size(); i++) {
                ks.setCertificateEntry("ca-" + i, ca.get(i));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot hold the CA certificates in a key store: " + e.getMessage(), e);
        }
        return ks;
    }

    private KeyStore keyStore() {
        KeyStore ks = emptyStore();
        try {
            ks.setKeyEntry("client", key, storePassword, chain.toArray(new X509Certificate[0]));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot hold the client key in a key store: " + e.getMessage(), e);
        }
        return ks;
    }

    private static KeyStore emptyStore() {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            return ks;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("no PKCS12 key store in this JVM", e);
        }
    }

    /** Signs and verifies a few bytes: what Go's tls.X509KeyPair checks, for every key type. */
    private static boolean belongs(PrivateKey key, X509Certificate cert) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "EdDSA", "Ed25519", "Ed448" -> "EdDSA";
            case "DSA" -> "SHA256withDSA";
            default -> null;
        };
        if (algorithm == null) {
            return true; // a key the JVM read but cannot sign with here: the handshake will tell
        }
        try {
            byte[] probe = "jdm".getBytes(StandardCharsets.US_ASCII);
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(cert.getPublicKey());
            verify.update(probe);
            return verify.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static char[] newPassword() {
        byte[] b = new byte[18];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b).toCharArray();
    }

    @Override
    public String toString() {
        return "TLS[" + (verifiesServer() ? "server checked against " + ca.size() + " CA certificate(s)"
                + (verifiesHost() ? " and the host name" : ", host name not checked") : "server not checked") + (hasClientCertificate()
                ? ", client certificate " + chain.get(0).getSubjectX500Principal().getName() : "") + "]";
    }

    /**
     * DM's TLS without a CA (Go's InsecureSkipVerify, Connector/J's REQUIRED): the connection is
     * encrypted, and any server certificate is taken. The task file asked for exactly this.
     */
    private static final class UncheckedServer implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("jdm is a client");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            Objects.requireNonNull(chain, "chain");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
