package io.jdm.common.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.embedded.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PEM as OpenSSL, MySQL and DM's own tests write it; messages never quote what was read. */
class PemTest {

    @Test
    void everyCertificateOfAFileInOrder() {
        String client = new String(TestCertificates.read("client.pem"), StandardCharsets.US_ASCII);
        byte[] two = bytes(client + new String(TestCertificates.read("ca.pem"), StandardCharsets.US_ASCII));
        List<X509Certificate> chain = Pem.certificates(two);
        assertEquals(List.of("CN=jdm-client", "CN=jdm test CA"),
                chain.stream().map(c -> c.getSubjectX500Principal().getName()).toList());
    }

    @Test
    void keysInPkcs8Pkcs1AndSec1() {
        assertEquals("RSA", Pem.privateKey(TestCertificates.read("server.key")).getAlgorithm(), "BEGIN PRIVATE KEY");
        assertEquals("RSA", Pem.privateKey(TestCertificates.read("client.key")).getAlgorithm(),
                "BEGIN RSA PRIVATE KEY");
        PrivateKey ec = Pem.privateKey(TestCertificates.read("client-ec.key"));
        assertEquals("EC", ec.getAlgorithm(), "EC PARAMETERS, then BEGIN EC PRIVATE KEY");
        Tls.of(List.of(), Pem.certificates(TestCertificates.read("client-ec.pem")), ec);
    }

    /** DM's tls test: P-256 keys from openssl ecparam -genkey (see dm-files/README.md). */
    @Test
    void dmsOwnTlsTestKeyAndCertificate() throws Exception {
        Path dir = Path.of("src/test/resources/dm-files/tls");
        Tls tls = Tls.of(Pem.certificates(Files.readAllBytes(dir.resolve("ca.pem"))),
                Pem.certificates(Files.readAllBytes(dir.resolve("dm.pem"))),
                Pem.privateKey(Files.readAllBytes(dir.resolve("dm.key"))));
        assertEquals(true, tls.verifiesServer() && tls.hasClientCertificate());
    }

    @Test
    void whatIsMissingOrWrongIsNamedWithoutTheText() {
        String secret = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nc2VjcmV0\n-----END ENCRYPTED PRIVATE KEY-----\n";
        assertEquals("holds an encrypted key; decrypt it first (openssl pkey -in KEY -out PLAIN.pem)",
                assertThrows(IllegalArgumentException.class, () -> Pem.privateKey(bytes(secret))).getMessage());
        assertEquals("holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                assertThrows(IllegalArgumentException.class,
                        () -> Pem.certificates(TestCertificates.read("client.key"))).getMessage());
        assertEquals("holds no PEM private key (-----BEGIN PRIVATE KEY-----, RSA PRIVATE KEY or EC PRIVATE KEY)",
                assertThrows(IllegalArgumentException.class,
                        () -> Pem.privateKey(TestCertificates.read("client.pem"))).getMessage());
        String broken = "-----BEGIN RSA PRIVATE KEY-----\nc2VjcmV0\n-----END RSA PRIVATE KEY-----\n";
        String m = assertThrows(IllegalArgumentException.class, () -> Pem.privateKey(bytes(broken))).getMessage();
        assertFalse(m.contains("c2VjcmV0") || m.contains("secret"), m);
        assertThrows(IllegalArgumentException.class, () -> Pem.privateKey(bytes("-----BEGIN EC PRIVATE KEY-----\n!")));
    }

    @Test
    void aKeyMustBelongToItsCertificate() {
        var e = assertThrows(IllegalArgumentException.class, () -> Tls.of(List.of(),
                Pem.certificates(TestCertificates.read("server.pem")),
                Pem.privateKey(TestCertificates.read("client.key"))));
        assertEquals("is not the key of the client certificate", e.getMessage());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
