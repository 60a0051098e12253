package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.Pem;
import io.jdm.common.jdbc.Tls;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.TestServers;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestCertificates;
import java.nio.file.Path;
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
 * gets its rows if the binlog connection, like the JDBC ones, checks the CA and presents it.
 */
class SourceTlsIT {
    private static final String DB = "source_tls_it";
    @TempDir
    static Path certs;
    private static EmbeddedMariaDb source;
    private final SqlServer target = TestServers.shared().target();

    @BeforeAll
    static void start() throws Exception {
        TestCertificates.copyTo(certs);
        source = EmbeddedMariaDb.start("tls-source", ServerProfile.SOURCE, TestCertificates.serverArgs(certs));
        source.execute("CREATE USER 'cert'@'127.0.0.1' IDENTIFIED BY 'pw' REQUIRE SUBJECT '/CN=jdm-client'",
                "GRANT ALL PRIVILEGES ON *.* TO 'cert'@'127.0.0.1'");
    }

    @AfterAll
    static void stop() {
        if (source != null) {
            source.close();
        }
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
