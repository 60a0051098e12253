package io.jdm.common.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.TestCertificates;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * The TLS the binlog client and Connector/J get: a handshake with an in-JVM server that wants a
 * client certificate signed by the test CA, and the key stores Connector/J reads.
 */
class TlsTest {

    @Test
    void clientCertificateAndCaCheckInAHandshake() throws Exception {
        assertEquals("CN=jdm-client", handshake(TestTls.tls("ca.pem", "client")));
        assertEquals("CN=jdm-client-ec", handshake(TestTls.tls("ca.pem", "client-ec")));
    }

    @Test
    void aServerFromAnotherCaIsRefused() {
        assertThrows(SSLException.class, () -> handshake(TestTls.tls("other-ca.pem", "client")));
    }

    @Test
    void theCertificateMustNameTheHostAsTheConnectionNamesIt() throws Exception {
        Tls tls = TestTls.tls("ca.pem", "client");
        assertTrue(tls.verifiesHost(), tls.toString());
        assertEquals("CN=jdm-client", handshake(tls, "server", "127.0.0.1"), "IP entry 127.0.0.1");
        assertEquals("CN=jdm-client", handshake(tls, "server", "localhost"), "DNS entry localhost");
        SSLException e = assertThrows(SSLException.class, () -> handshake(tls, "server", "db.example"));
        assertTrue(e.getCause() instanceof CertificateException, e.toString());

        Tls other = Tls.of(Pem.certificates(TestCertificates.read("wrong-host-ca.pem")),
                Pem.certificates(TestCertificates.read("client.pem")), Pem.privateKey(TestCertificates.read("client.key")));
        assertThrows(SSLException.class, () -> handshake(other, "wrong-host", "127.0.0.1"));
        assertEquals("CN=jdm-client", handshake(other, "wrong-host", "wrong.example"));
        Tls relaxed = other.withoutHostCheck();
        assertFalse(relaxed.verifiesHost());
        assertTrue(relaxed.verifiesServer());
        assertEquals("CN=jdm-client", handshake(relaxed, "wrong-host", "127.0.0.1"));
        assertThrows(SSLException.class, () -> handshake(TestTls.tls("other-ca.pem", "client").withoutHostCheck(),
                "server", "127.0.0.1"), "the CA is still checked");
    }

    @Test
    void connectorJVerifiesTheHostUnlessTold() {
        Tls tls = TestTls.tls("ca.pem", "client");
        assertTrue(new ConnectionSpec("h", 3306, "u", "p", null, Optional.of(tls), 10).jdbcUrl()
                .contains("&sslMode=VERIFY_IDENTITY"));
        assertTrue(new ConnectionSpec("h", 3306, "u", "p", null, Optional.of(tls.withoutHostCheck()), 10).jdbcUrl()
                .contains("&sslMode=VERIFY_CA"));
    }

    @Test
    void withoutCaTheServerIsNotCheckedAsInDm() throws Exception {
        Tls unchecked = Tls.of(List.of(), Pem.certificates(TestCertificates.read("client.pem")),
                Pem.privateKey(TestCertificates.read("client.key")));
        assertFalse(unchecked.verifiesServer());
        assertEquals("CN=jdm-client", handshake(unchecked));
        assertTrue(new ConnectionSpec("h", 3306, "u", "p", null, Optional.of(unchecked), 10).jdbcUrl()
                .contains("&sslMode=REQUIRED"));
    }

    @Test
    void connectorJGetsOwnerOnlyPkcs12StoresAndNoPasswordInTheUrl() throws Exception {
        Tls tls = TestTls.tls("ca.pem", "client");
        ConnectionSpec spec = new ConnectionSpec("h", 3306, "u", "p", null, Optional.of(tls), 10);
        Properties p = spec.driverProperties();
        assertEquals(p, spec.driverProperties(), "written once");
        String url = spec.jdbcUrl();
        assertTrue(url.contains("&sslMode=VERIFY_IDENTITY"), url);
        assertFalse(url.contains(p.getProperty("trustCertificateKeyStorePassword")), url);
        for (String store : List.of("trustCertificateKeyStore", "clientCertificateKeyStore")) {
            Path file = Path.of(URI.create(p.getProperty(store + "Url")));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
            KeyStore ks = KeyStore.getInstance(p.getProperty(store + "Type"));
            try (InputStream in = Files.newInputStream(file)) {
                ks.load(in, p.getProperty(store + "Password").toCharArray());
            }
            assertEquals(1, ks.size(), store);
        }
        assertFalse(tls.toString().contains("PRIVATE"), tls.toString());
    }

    /** Runs a TLS server on loopback that requires a client certificate; returns the client's subject. */
    private static String handshake(Tls client) throws Exception {
        return handshake(client, "server", "127.0.0.1");
    }

    /**
     * As {@link #handshake(Tls)}, the server presenting {@code serverCert}.pem, the client upgrading
     * a loopback connection made to {@code host}.
     */
    private static String handshake(Tls client, String serverCert, String host) throws Exception {
        SSLContext server = serverContext(serverCert);
        try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listener.setNeedClientAuth(true);
            CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket s = (SSLSocket) listener.accept()) {
                    s.startHandshake();
                    s.getOutputStream().write(1);
                    return ((X509Certificate) s.getSession().getPeerCertificates()[0])
                            .getSubjectX500Principal().getName();
                } catch (Exception e) {
                    return "failed: " + e;
                }
            });
            try (Socket plain = new Socket()) {
                plain.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()), 5000);
                plain.setSoTimeout(5000);
                try (SSLSocket s = client.upgrade(plain, host)) {
                    s.startHandshake();
                    assertEquals(1, s.getInputStream().read());
                }
            }
            return seen.get(10, TimeUnit.SECONDS);
        }
    }

    private static SSLContext serverContext(String cert) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("server", Pem.privateKey(TestCertificates.read(cert + ".key")), new char[0],
                Pem.certificates(TestCertificates.read(cert + ".pem")).toArray(new X509Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", Pem.certificates(TestCertificates.read("ca.pem")).get(0));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return c;
    }
}
