package io.jdm.common.config;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS on the daemon's address ({@code status-tls-cert}, {@code status-tls-key}): the certificate
 * chain the endpoint presents and its key. A jdm command that reads the same task file trusts exactly
 * these certificates ({@link #trusting}), so no CA has to be set up for a self-signed one; the
 * JDK's client still checks that the certificate names the host it connects to. The key never
 * appears in {@link #toString()}.
 */
public final class StatusTls {
    private final List<X509Certificate> chain;
    private final PrivateKey key;

    StatusTls(List<X509Certificate> chain, PrivateKey key) {
        this.chain = List.copyOf(chain);
        this.key = Objects.requireNonNull(key, "key");
    }

    public List<X509Certificate> chain() {
        return chain;
    }

    /** What the endpoint presents: the chain and its key. */
    public SSLContext serverContext() {
        try {
            char[] password = password();
            KeyStore ks = emptyStore();
            ks.setKeyEntry("status", key, password, chain.toArray(new X509Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(kmf.getKeyManagers(), null, null);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS for status-addr: " + e.getMessage(), e);
        }
    }

    /** A client context that trusts {@code certificates} (a server's own chain, or the CA that signed it) only. */
    public static SSLContext trusting(List<X509Certificate> certificates) {
        try {
            KeyStore ks = emptyStore();
            for (int i = 0; i < certificates.size(); i++) {
                ks.setCertificateEntry("trusted-" + i, certificates.get(i));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(null, tmf.getTrustManagers(), null);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS to the status address: " + e.getMessage(), e);
        }
    }

    private static KeyStore emptyStore() throws GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try {
            ks.load(null, null);
        } catch (IOException e) {
            throw new IllegalStateException("no PKCS12 key store in this JVM", e);
        }
        return ks;
    }

    /** The in-memory store's password: it never leaves this object. */
    private static char[] password() {
        return Long.toHexString(new SecureRandom().nextLong()).toCharArray();
    }

    @Override
    public String toString() {
        return "StatusTls[" + chain.get(0).getSubjectX500Principal().getName() + "]";
    }
}
