package io.jdm.cli.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.ServerRsaKey;
import io.jdm.common.jdbc.Tls;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a MySQL source, {@code jdm check} says which way the binlog stream will log in a user whose
 * password plugin sends the password itself (sha256_password, caching_sha2_password): over TLS, or
 * without it encrypted with the server's RSA key, pinned or asked for; where neither is possible it
 * fails (or, for a caching_sha2_password user the server may hold a cached hash of, warns) in one
 * line naming the settings. A user that requires TLS is named as such, not as a wrong password.
 */
class MySqlLoginCheckIT {
    private final SqlServer source = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();
    @TempDir
    Path dir;

    @Test
    void theBinlogLoginOfASha256PasswordUserIsNamedWithItsWayOrFailsInOneLine() throws Exception {
        assumeTrue(source.flavor().equals("mysql"), "sha256_password is MySQL's");
        List<String> rsa = source.rows("SHOW STATUS LIKE 'Rsa_public_key'");
        assumeTrue(!rsa.isEmpty() && rsa.get(0).contains("BEGIN PUBLIC KEY"),
                "this server has no RSA key pair (5.7.22's build here): a sha256_password user can log in over TLS only");
        source.execute("DROP USER IF EXISTS 'login_sha256'@'127.0.0.1', 'login_native'@'127.0.0.1'",
                "CREATE USER 'login_sha256'@'127.0.0.1' IDENTIFIED WITH sha256_password BY 'pw'",
                "CREATE USER 'login_native'@'127.0.0.1' IDENTIFIED WITH mysql_native_password BY 'pw'");
        for (String user : List.of("login_sha256", "login_native")) {
            source.execute("GRANT SELECT, RELOAD, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '"
                    + user + "'@'127.0.0.1'");
        }
        ConnectionSpec sha256 = spec("login_sha256", "pw");
        CheckResult asked = login(sha256);
        assertEquals(CheckResult.Status.PASS, asked.status(), asked.detail());
        assertEquals("the user logs in with sha256_password, without TLS its password encrypted with the server's RSA"
                + " public key, asked of the server (where the network is not trusted, pin it with"
                + " security.server-rsa-public-key-file or use TLS)", asked.detail());
        Path file = Files.writeString(dir.resolve("server.pem"), rsa.get(0).substring(rsa.get(0).indexOf('-')));
        CheckResult pinned = login(sha256.withRsaKey(ServerRsaKey.pinned(file, Files.readAllBytes(file))));
        assertEquals(CheckResult.Status.PASS, pinned.status(), pinned.detail());
        assertEquals("the user logs in with sha256_password, without TLS its password encrypted with the RSA public"
                + " key in " + file.toAbsolutePath(), pinned.detail());
        CheckResult refused = connection(sha256.withRsaKey(ServerRsaKey.REFUSED));
        assertEquals(CheckResult.Status.FAIL, refused.status(), refused.detail());
        assertEquals("cannot log in as login_sha256 at " + source.host() + ":" + source.port() + ": its password "
                + "plugin (sha256_password, or caching_sha2_password without a cached hash) needs the server's RSA "
                + "public key without TLS, and security.allow-public-key-retrieval is false: add ssl-ca (TLS) or "
                + "server-rsa-public-key-file to its security section", refused.detail());
        if (hasTls()) {
            CheckResult tls = login(withTls(sha256).withRsaKey(ServerRsaKey.REFUSED));
            assertEquals(CheckResult.Status.PASS, tls.status(), tls.detail());
            assertEquals("the user logs in with sha256_password, its password sent over TLS", tls.detail());
        }
        CheckResult nat = login(spec("login_native", "pw"));
        assertEquals(CheckResult.Status.PASS, nat.status(), nat.detail());
        assertEquals("the user logs in with mysql_native_password", nat.detail());
    }

    @Test
    void aCachingSha2UserWithoutTlsOrKeyIsAWarningSinceACachedHashLetsItIn() throws Exception {
        assumeTrue(source.flavor().equals("mysql"), "caching_sha2_password is MySQL's");
        assumeTrue(!source.rows("SHOW STATUS LIKE 'Caching_sha2_password_rsa_public_key'").isEmpty(),
                "caching_sha2_password is MySQL 8's");
        source.execute("DROP USER IF EXISTS 'login_caching'@'127.0.0.1'",
                "CREATE USER 'login_caching'@'127.0.0.1' IDENTIFIED WITH caching_sha2_password BY 'pw'",
                "GRANT SELECT, RELOAD, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO "
                        + "'login_caching'@'127.0.0.1'");
        ConnectionSpec caching = spec("login_caching", "pw");
        assertEquals(CheckResult.Status.PASS, login(caching).status()); // the full login puts the hash in the cache
        CheckResult cached = login(caching.withRsaKey(ServerRsaKey.REFUSED));
        assertEquals(CheckResult.Status.WARN, cached.status(), cached.detail());
        assertEquals("the task's source user logs in with caching_sha2_password, which without TLS needs the "
                + "server's RSA public key when the server holds no cached hash of it (after a restart or FLUSH "
                + "PRIVILEGES), and security.allow-public-key-retrieval is false: add ssl-ca (TLS) or "
                + "server-rsa-public-key-file to the source's security section", cached.detail());
    }

    @Test
    void aUserThatRequiresTlsIsNamedAsSuchNotAsAWrongPassword() throws Exception {
        assumeTrue(source.flavor().equals("mysql"), "MySQL answers a REQUIRE SSL user's plain login with 1045");
        List<String> ssl = source.rows("SHOW VARIABLES LIKE 'have_ssl'");
        assumeTrue(!ssl.isEmpty() && ssl.get(0).endsWith("YES"), "this server has no TLS: " + ssl);
        source.execute("DROP USER IF EXISTS 'login_tls'@'127.0.0.1'",
                "CREATE USER 'login_tls'@'127.0.0.1' IDENTIFIED WITH mysql_native_password BY 'pw' REQUIRE SSL",
                "GRANT SELECT ON *.* TO 'login_tls'@'127.0.0.1'");
        CheckResult tls = connection("login_tls", "pw");
        assertEquals(CheckResult.Status.FAIL, tls.status(), tls.detail());
        assertTrue(tls.detail().contains("requires TLS") && tls.detail().contains("security"), tls.detail());
        CheckResult wrong = connection("login_tls", "not-the-password");
        assertEquals("access denied for login_tls at " + source.host() + ":" + source.port()
                + ": check user and password", wrong.detail());
    }

    private CheckResult connection(String user, String password) {
        return connection(spec(user, password));
    }

    private CheckResult connection(ConnectionSpec spec) {
        List<CheckResult> rs = new Prechecker(new PrecheckInput(true, true,
                List.of(new PrecheckInput.Source("mysql-01", spec, (d, t) -> d.equals("nothing_here"), true, 2, 2)),
                ConnectionSpec.of(target.host(), target.port(), target.user(), target.password()), "jdm_meta",
                Set.of())).run();
        return PrecheckerIT.find(rs, "connection", "source mysql-01");
    }

    private ConnectionSpec spec(String user, String password) {
        return ConnectionSpec.of(source.host(), source.port(), user, password);
    }

    private static ConnectionSpec withTls(ConnectionSpec s) {
        Tls encryptedOnly = Tls.of(List.of(), List.of(), null); // the server's own certificate, not checked
        return new ConnectionSpec(s.host(), s.port(), s.user(), s.password(), Map.of(), Optional.of(encryptedOnly),
                s.connectTimeoutSeconds(), s.rsaKey());
    }

    private boolean hasTls() throws Exception {
        List<String> ssl = source.rows("SHOW VARIABLES LIKE 'have_ssl'");
        return !ssl.isEmpty() && ssl.get(0).endsWith("YES");
    }

    private CheckResult login(ConnectionSpec spec) {
        List<CheckResult> rs = new Prechecker(new PrecheckInput(true, true,
                List.of(new PrecheckInput.Source("mysql-01", spec, (d, t) -> d.equals("nothing_here"), true, 2, 2)),
                ConnectionSpec.of(target.host(), target.port(), target.user(), target.password()), "jdm_meta",
                Set.of())).run();
        return PrecheckerIT.find(rs, "binlog_login", "source mysql-01");
    }
}
