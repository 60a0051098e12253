package io.jdm.common.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
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
        String url = new ConnectionSpec("h", 3306, "u", "p", Map.of(), "/etc/jdm/ca.pem", null, null, 10).jdbcUrl();
        assertTrue(url.contains("&sslMode=VERIFY_CA"), url);
        assertFalse(url.contains("allowPublicKeyRetrieval"), url);
    }
}
