package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.jdbc.ServerRsaKey;
import io.jdm.common.jdbc.Tls;
import io.jdm.common.position.BinlogPosition;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.reader.BinlogProbe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Source users whose password plugin needs more than a hash, on the binlog connection as on the
 * JDBC ones: a sha256_password user syncs rows without TLS (the server's RSA key, asked for or
 * pinned in a file) and over TLS, and a caching_sha2_password user makes its full login (after
 * FLUSH PRIVILEGES empties the server's cache) each of those ways. Without TLS, with retrieval
 * refused and no key pinned, both fail in one line that names the settings, on the first try.
 */
class Sha256PasswordSyncIT {
    private static final String DB = "sha256_sync_it";
    private final SqlServer source = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();
    @TempDir
    Path dir;

    @BeforeEach
    void mysqlOnly() {
        assumeTrue(source.flavor().equals("mysql"), "sha256_password and caching_sha2_password are MySQL's");
    }

    @Test
    void aSha256PasswordUserSyncsRowsWithTheServersRsaKey() throws Exception {
        assumeTrue(hasRsaKeyPair(), "this server has no RSA key pair (5.7.22's build here, yaSSL)");
        ConnectionSpec user = user("sync_sha256", "sha256_password", "Sha256-pw!");
        for (SqlServer s : List.of(source, target)) {
            s.freshDatabase(DB);
            s.execute("CREATE TABLE " + DB + ".t (id INT PRIMARY KEY, v VARCHAR(20), b VARBINARY(8))");
        }
        target.execute("DROP DATABASE IF EXISTS jdm_meta_sha256");
        source.execute("INSERT INTO " + DB + ".t VALUES (1, 'before', NULL)");
        target.execute("INSERT INTO " + DB + ".t VALUES (1, 'before', NULL)");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("sha256", user, spec(target)).workerCount(2)
                .metaSchema("jdm_meta_sha256").serverId(7931).start(sourcePosition(source))
                .tableFilter((d, t) -> d.equals(DB)).build());
        unit.start();
        try {
            source.execute("INSERT INTO " + DB + ".t VALUES (2, 'two', 0x00ff), (3, 'three', 0x7f)",
                    "UPDATE " + DB + ".t SET v = 'one', b = 0x01 WHERE id = 1",
                    "DELETE FROM " + DB + ".t WHERE id = 3",
                    "INSERT INTO " + DB + ".t VALUES (4, 'four', '')");
            assertTrue(unit.awaitCaughtUp(sourcePosition(source), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure().map(ErrorClassifier::oneLine).orElse(""));
        } finally {
            unit.stop();
        }
        List<String> rows = source.hexRows(DB, "t");
        assertEquals(3, rows.size(), rows.toString());
        assertEquals(rows, target.hexRows(DB, "t"));
    }

    @Test
    void overTlsASha256PasswordGoesInsideTheSession() throws Exception {
        assumeTrue(hasTls(), "this server has no TLS (5.7.22's build here)");
        ConnectionSpec user = withTls(user("tls_sha256", "sha256_password", "Sha256-tls"))
                .withRsaKey(ServerRsaKey.REFUSED);
        assertLogsIn(user);
    }

    @Test
    void aPinnedKeyIsUsedAndNeverAskedForAndAWrongOneIsRefused() throws Exception {
        assumeTrue(hasRsaKeyPair(), "this server has no RSA key pair (5.7.22's build here, yaSSL)");
        ConnectionSpec user = user("pinned_sha256", "sha256_password", "Sha256-pinned");
        Path file = Files.writeString(dir.resolve("server.pem"), rsaPublicKey());
        assertLogsIn(user.withRsaKey(ServerRsaKey.pinned(file, Files.readAllBytes(file))));
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        Path other = Files.writeString(dir.resolve("other.pem"), "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(g.generateKeyPair().getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        Exception e = BinlogProbe.firstEvent(user.withRsaKey(ServerRsaKey.pinned(other, Files.readAllBytes(other))),
                7934, sourcePosition(source));
        assertNotNull(e, "a key the server has no private key for logged in");
        assertTrue(ErrorClassifier.oneLine(e).startsWith("Access denied for user 'pinned_sha256'"),
                ErrorClassifier.oneLine(e));
    }

    @Test
    void withoutTlsAndWithRetrievalRefusedTheBinlogLoginFailsInOneLine() throws Exception {
        assumeTrue(hasRsaKeyPair(), "this server has no RSA key pair (5.7.22's build here, yaSSL)");
        ConnectionSpec refused = user("refused_sha256", "sha256_password", "Sha256-refused")
                .withRsaKey(ServerRsaKey.REFUSED);
        Exception e = BinlogProbe.firstEvent(refused, 7935, sourcePosition(source));
        assertNotNull(e, "logged in without TLS and without a key");
        assertEquals("the binlog login of a sha256_password user without TLS needs the server's RSA public key, and "
                + "security.allow-public-key-retrieval is false: add ssl-ca (TLS) or server-rsa-public-key-file to "
                + "the source's security section", ErrorClassifier.oneLine(e));
        assertFalse(ErrorClassifier.isRetriable(e), "settings do not change on a retry");
        SQLException jdbc = assertThrows(SQLException.class, () -> DataSources.connect(refused).close());
        assertTrue(jdbc.getMessage().contains("Public Key Retrieval is not allowed"), jdbc.getMessage());
    }

    @Test
    void withoutAKeyPairOrTlsTheServersRefusalSaysWhy() throws Exception {
        assumeTrue(!hasRsaKeyPair() && !hasTls(), "this server has an RSA key pair or TLS");
        user("nokey_sha256", "sha256_password", "pw");
        Exception e = BinlogProbe.firstEvent(ConnectionSpec.of(source.host(), source.port(), "nokey_sha256", "pw"),
                7936, sourcePosition(source));
        assertNotNull(e, "logged in without TLS or a key");
        String line = ErrorClassifier.oneLine(e);
        assertTrue(line.startsWith("Access denied for user 'nokey_sha256'") && line.contains("RSA key pair")
                && line.endsWith("add ssl-ca to the source's security section)"), line);
    }

    @Test
    void aCachingSha2UserMakesItsFullLoginEachWay() throws Exception {
        assumeTrue(hasRsaKeyPair(), "caching_sha2_password is MySQL 8's");
        ConnectionSpec user = user("full_caching", "caching_sha2_password", "Caching-pw");
        Path file = Files.writeString(dir.resolve("server.pem"), rsaPublicKey());
        ServerRsaKey pinned = ServerRsaKey.pinned(file, Files.readAllBytes(file));
        for (ConnectionSpec each : List.of(user, user.withRsaKey(pinned))) {
            source.execute("FLUSH PRIVILEGES"); // the next login is a full one
            assertLogsIn(each);
        }
        if (hasTls()) {
            source.execute("FLUSH PRIVILEGES");
            assertLogsIn(withTls(user).withRsaKey(ServerRsaKey.REFUSED));
        }
        source.execute("FLUSH PRIVILEGES");
        Exception e = BinlogProbe.firstEvent(user.withRsaKey(ServerRsaKey.REFUSED), 7937, sourcePosition(source));
        assertNotNull(e, "a full login without TLS or a key");
        assertTrue(ErrorClassifier.oneLine(e).startsWith("the binlog login of a caching_sha2_password user without "
                + "TLS needs the server's RSA public key"), ErrorClassifier.oneLine(e));
    }

    /** JDBC and the binlog both log in; the binlog gets to its first event. */
    private void assertLogsIn(ConnectionSpec user) throws Exception {
        try (Connection c = DataSources.connect(user)) {
            assertTrue(c.isValid(5));
        }
        BinlogPosition from = sourcePosition(source);
        Exception e = BinlogProbe.firstEvent(user, 7933, from);
        assertNull(e, () -> user + ": " + ErrorClassifier.oneLine(e));
    }

    private ConnectionSpec user(String name, String plugin, String password) throws SQLException {
        String account = "'" + name + "'@'127.0.0.1'";
        source.execute("DROP USER IF EXISTS " + account,
                "CREATE USER " + account + " IDENTIFIED WITH " + plugin + " BY '" + password + "'",
                "GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO " + account);
        return ConnectionSpec.of(source.host(), source.port(), name, password);
    }

    private static ConnectionSpec withTls(ConnectionSpec s) {
        Tls encryptedOnly = Tls.of(List.of(), List.of(), null); // the server's own certificate, not checked
        return new ConnectionSpec(s.host(), s.port(), s.user(), s.password(), Map.of(), Optional.of(encryptedOnly),
                s.connectTimeoutSeconds(), s.rsaKey());
    }

    private boolean hasRsaKeyPair() throws SQLException {
        return rsaPublicKey().contains("BEGIN PUBLIC KEY");
    }

    private String rsaPublicKey() throws SQLException {
        List<String> rsa = source.rows("SHOW STATUS LIKE 'Rsa_public_key'");
        int begin = rsa.isEmpty() ? -1 : rsa.get(0).indexOf('-');
        return begin < 0 ? "" : rsa.get(0).substring(begin);
    }

    private boolean hasTls() throws SQLException {
        List<String> ssl = source.rows("SHOW VARIABLES LIKE 'have_ssl'");
        return !ssl.isEmpty() && ssl.get(0).endsWith("YES");
    }
}
