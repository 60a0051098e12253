package io.jdm.common.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.TestCertificates;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The JDBC URL: MySQL 8's caching_sha2_password users log in with and without TLS. */
class ConnectionSpecTest {

    @Test
    void withoutTlsThePublicKeyIsRetrieved() {
        String url = ConnectionSpec.of("h", 3306, "u", "p").jdbcUrl();
        assertTrue(url.contains("&sslMode=DISABLED"), url);
        assertTrue(url.contains("&allowPublicKeyRetrieval=true"), url);
    }

    @Test
    void withTlsNoPublicKeyIsRetrieved() {
        Tls tls = Tls.of(Pem.certificates(TestCertificates.read("ca.pem")), List.of(), null);
        String url = new ConnectionSpec("h", 3306, "u", "p", Map.of(), Optional.of(tls), 10).jdbcUrl();
        assertTrue(url.contains("&sslMode=VERIFY_IDENTITY"), url);
        assertFalse(url.contains("allowPublicKeyRetrieval"), url);
    }
}
