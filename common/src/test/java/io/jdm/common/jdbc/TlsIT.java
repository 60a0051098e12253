package io.jdm.common.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.TestCertificates;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connector/J over TLS to a real server whose user requires the test client certificate: the CA
 * is checked and the certificate is presented, by pools and single connections alike.
 */
class TlsIT {
    @TempDir
    static Path pki;
    private static EmbeddedMariaDb server;

    @BeforeAll
    static void start() throws Exception {
        TestCertificates.copyTo(pki);
        server = EmbeddedMariaDb.start("tls", ServerProfile.TARGET, TestCertificates.serverArgs(pki));
        server.execute("CREATE USER 'cert'@'127.0.0.1' IDENTIFIED BY 'pw' REQUIRE SUBJECT '/CN=jdm-client'",
                "GRANT SELECT ON *.* TO 'cert'@'127.0.0.1'");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void poolsAndSingleConnectionsCheckTheCaAndPresentTheCertificate() throws Exception {
        ConnectionSpec spec = spec(TestTls.tls("ca.pem", "client"));
        try (Connection c = DataSources.connect(spec)) {
            assertTlsAs(c);
        }
        try (HikariDataSource pool = DataSources.pool(spec, 1, "tls-it"); Connection c = pool.getConnection()) {
            assertTlsAs(c);
        }
    }

    @Test
    void aServerCertificateFromAnotherCaIsRefused() {
        SQLException e = assertThrows(SQLException.class,
                () -> DataSources.connect(spec(TestTls.tls("other-ca.pem", "client"))).close());
        assertTrue(causes(e).stream().anyMatch(c -> c instanceof SSLHandshakeException), causes(e).toString());
    }

    @Test
    void withoutTheCertificateTheUserCannotLogIn() {
        Tls caOnly = Tls.of(Pem.certificates(TestCertificates.read("ca.pem")), List.of(), null);
        SQLException e = assertThrows(SQLException.class, () -> DataSources.connect(spec(caOnly)).close());
        assertTrue(e.getMessage().startsWith("Access denied for user 'cert'"), e.getMessage());
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        for (Throwable c = t; c != null && !out.contains(c); c = c.getCause()) {
            out.add(c);
        }
        return out;
    }

    private static ConnectionSpec spec(Tls tls) {
        return new ConnectionSpec("127.0.0.1", server.port(), "cert", "pw", Map.of(), Optional.of(tls), 10);
    }

    private static void assertTlsAs(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CURRENT_USER(), VARIABLE_VALUE"
                     + " FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'SSL_VERSION'")) {
            rs.next();
            assertEquals("cert@127.0.0.1", rs.getString(1));
            assertFalse(rs.getString(2).isEmpty(), "TLS version");
        }
    }
}
