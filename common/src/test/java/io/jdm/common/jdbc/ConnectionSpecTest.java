package io.jdm.common.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The JDBC URL and properties: sha256_password and caching_sha2_password users log in with and
 * without TLS, with the server's RSA key asked for, pinned in a file, or refused.
 */
class ConnectionSpecTest {

    @Test
    void withoutTlsThePublicKeyIsRetrieved() {
        ConnectionSpec spec = ConnectionSpec.of("h", 3306, "u", "p");
        assertTrue(spec.jdbcUrl().contains("&sslMode=DISABLED"), spec.jdbcUrl());
        assertEquals("true", spec.driverProperties().getProperty("allowPublicKeyRetrieval"));
        assertNull(spec.driverProperties().getProperty("serverRSAPublicKeyFile"));
    }

    @Test
    void withTlsNoPublicKeyIsRetrieved() {
        Tls tls = Tls.of(Pem.certificates(TestCertificates.read("ca.pem")), List.of(), null);
        ConnectionSpec spec = new ConnectionSpec("h", 3306, "u", "p", Map.of(), Optional.of(tls), 10);
        assertTrue(spec.jdbcUrl().contains("&sslMode=VERIFY_IDENTITY"), spec.jdbcUrl());
        assertFalse(spec.jdbcUrl().contains("allowPublicKeyRetrieval"), spec.jdbcUrl());
        assertNull(spec.driverProperties().getProperty("allowPublicKeyRetrieval"));
    }

    @Test
    void aPinnedKeyGoesToTheDriverAsItsFileAndNothingIsRetrieved() throws Exception {
        byte[] pem = publicKeyPem();
        ServerRsaKey key = ServerRsaKey.pinned(Path.of("keys", "server.pem"), pem);
        Properties p = ConnectionSpec.of("h", 3306, "u", "p").withRsaKey(key).driverProperties();
        assertEquals("false", p.getProperty("allowPublicKeyRetrieval"));
        assertEquals(Path.of("keys", "server.pem").toAbsolutePath().toString(), p.getProperty("serverRSAPublicKeyFile"));
        assertTrue(key.available());
        Properties refused = ConnectionSpec.of("h", 3306, "u", "p").withRsaKey(ServerRsaKey.REFUSED).driverProperties();
        assertEquals("false", refused.getProperty("allowPublicKeyRetrieval"));
        assertFalse(ServerRsaKey.REFUSED.available());
    }

    @Test
    void aKeyFileWithoutAPublicKeySaysSo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerRsaKey.pinned(Path.of("ca.pem"), TestCertificates.read("ca.pem")));
        assertEquals("holds no PEM public key (-----BEGIN PUBLIC KEY-----)", e.getMessage());
    }

    @Test
    void pkcs1AndX509FormsReadAsTheSameKey() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        RSAPublicKey k = (RSAPublicKey) g.generateKeyPair().getPublic();
        byte[] spki = k.getEncoded();
        // SubjectPublicKeyInfo: SEQUENCE { AlgorithmIdentifier (15 bytes), BIT STRING { 0x00, RSAPublicKey } }
        int bitString = 4 + 15;
        int contentAt = bitString + 1 + ((spki[bitString + 1] & 0x80) != 0 ? 1 + (spki[bitString + 1] & 0x7f) : 1);
        byte[] pkcs1 = java.util.Arrays.copyOfRange(spki, contentAt + 1, spki.length);
        assertEquals(k, Pem.rsaPublicKey(pem("PUBLIC KEY", spki)));
        assertEquals(k, Pem.rsaPublicKey(pem("RSA PUBLIC KEY", pkcs1)));
    }

    private static byte[] publicKeyPem() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return pem("PUBLIC KEY", g.generateKeyPair().getPublic().getEncoded());
    }

    private static byte[] pem(String label, byte[] der) {
        return ("-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder().encodeToString(der)
                + "\n-----END " + label + "-----\n").getBytes(StandardCharsets.US_ASCII);
    }
}
