package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.jdbc.Pem;
import io.jdm.common.jdbc.Tls;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.TestServers;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestCertificates;
import io.jdm.sync.reader.BinlogProbe;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binlog over TLS: the source's user requires the test client certificate, so the sync only
 * gets its rows if the binlog connection, like the JDBC ones, checks the CA and presents it. The
 * host name is checked on both: a server whose certificate (from a CA the client trusts) names
 * another host is refused in one line, unless {@code ssl-verify-host: false} asked for the CA only.
 */
class SourceTlsIT {
    private static final String DB = "source_tls_it";
    @TempDir
    static Path certs;
    private static EmbeddedMariaDb source;
    /** A server whose certificate, from a CA the client trusts, names wrong.example only. */
    private static EmbeddedMariaDb wrongHost;
    private final SqlServer target = TestServers.shared().target();

    @BeforeAll
    static void start() throws Exception {
        TestCertificates.copyTo(certs);
        source = EmbeddedMariaDb.start("tls-source", ServerProfile.SOURCE, TestCertificates.serverArgs(certs));
        source.execute("CREATE USER 'cert'@'127.0.0.1' IDENTIFIED BY 'pw' REQUIRE SUBJECT '/CN=jdm-client'",
                "GRANT ALL PRIVILEGES ON *.* TO 'cert'@'127.0.0.1'");
        wrongHost = EmbeddedMariaDb.start("tls-wrong-host", ServerProfile.SOURCE,
                TestCertificates.serverArgs(certs, "wrong-host"));
        wrongHost.execute("CREATE USER 'tls'@'127.0.0.1' IDENTIFIED BY 'pw' REQUIRE SSL",
                "GRANT ALL PRIVILEGES ON *.* TO 'tls'@'127.0.0.1'");
    }

    @AfterAll
    static void stop() {
        for (EmbeddedMariaDb s : new EmbeddedMariaDb[] {source, wrongHost}) {
            if (s != null) {
                s.close();
            }
        }
    }

    @Test
    void aCertificateForAnotherHostIsRefusedInOneLineOnJdbcAndTheBinlog() throws Exception {
        ConnectionSpec spec = wrongHostSpec(wrongHostCa());
        assertTrue(spec.tls().orElseThrow().verifiesHost(), "on by default");
        SQLException jdbc = assertThrows(SQLException.class, () -> DataSources.connect(spec).close());
        assertRefusedForTheHost(jdbc);
        Exception binlog = BinlogProbe.firstEvent(spec, 7912, sourcePosition(wrongHost));
        assertNotNull(binlog, "the binlog connection took a certificate for another host");
        assertRefusedForTheHost(binlog);
    }

    @Test
    void sslVerifyHostFalseTakesTheCertificateOfTheCa() throws Exception {
        ConnectionSpec spec = wrongHostSpec(wrongHostCa().withoutHostCheck());
        try (Connection c = DataSources.connect(spec); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS"
                     + " WHERE VARIABLE_NAME = 'SSL_VERSION'")) {
            assertTrue(rs.next() && !rs.getString(1).isEmpty(), "TLS version");
        }
        assertNull(BinlogProbe.firstEvent(spec, 7913, sourcePosition(wrongHost)));
        Tls otherCa = Tls.of(Pem.certificates(TestCertificates.read("other-ca.pem")), List.of(), null)
                .withoutHostCheck();
        SQLException e = assertThrows(SQLException.class, () -> DataSources.connect(wrongHostSpec(otherCa)).close());
        assertTrue(ErrorClassifier.oneLine(e).startsWith("TLS: the server's certificate was not issued by a CA in"
                + " ssl-ca ("), ErrorClassifier.oneLine(e));
    }

    private static void assertRefusedForTheHost(Exception e) {
        String line = ErrorClassifier.oneLine(e);
        assertTrue(line.startsWith("TLS: the server's certificate does not name the host connected to (")
                && line.contains("127.0.0.1") && line.endsWith("or set ssl-verify-host: false in that server's"
                + " security section to check only that ssl-ca issued it") && !line.contains("\n"), line);
        assertFalse(ErrorClassifier.isRetriable(e), "a certificate does not change on a retry");
    }

    private static Tls wrongHostCa() {
        return Tls.of(Pem.certificates(TestCertificates.read("wrong-host-ca.pem")), List.of(), null);
    }

    private static ConnectionSpec wrongHostSpec(Tls tls) {
        return new ConnectionSpec("127.0.0.1", wrongHost.port(), "tls", "pw", Map.of(), Optional.of(tls), 10);
    }

    @Test
    void rowsArriveOverATlsBinlogConnectionWithAClientCertificate() throws Exception {
        String create = "CREATE TABLE " + DB + ".t (id INT PRIMARY KEY, v VARCHAR(20))";
        for (SqlServer s : List.of(source, target)) {
            s.freshDatabase(DB);
            s.execute(create);
        }
        target.execute("DROP DATABASE IF EXISTS jdm_meta_tlsit");
        Tls tls = Tls.of(Pem.certificates(TestCertificates.read("ca.pem")),
                Pem.certificates(TestCertificates.read("client.pem")),
                Pem.privateKey(TestCertificates.read("client.key")));
        assertTrue(tls.verifiesHost(), "the certificate names 127.0.0.1 and the host name is checked");
        ConnectionSpec viaTls = new ConnectionSpec(source.host(), source.port(), "cert", "pw", Map.of(),
                Optional.of(tls), 10);
        SyncUnit unit = new SyncUnit(SyncConfig.builder("tlsit", viaTls, spec(target)).workerCount(2)
                .metaSchema("jdm_meta_tlsit").serverId(7911).start(sourcePosition(source))
                .tableFilter((d, t) -> d.equals(DB)).build());
        unit.start();
        try {
            source.execute("INSERT INTO " + DB + ".t VALUES (1, 'over tls'), (2, 'client cert')");
            assertTrue(unit.awaitCaughtUp(sourcePosition(source), Duration.ofSeconds(90)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
        } finally {
            unit.stop();
        }
        TableName t = new TableName(DB, "t");
        assertEquals(2, SyncTestSupport.rows(target, t).size());
        SyncTestSupport.assertSameRows(source, target, t);
    }
}
