package io.jdm.cli.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * On a MySQL source, {@code jdm check} says up front that a sha256_password user cannot log in to
 * the binlog stream (dump and load would work, sync would stop), and passes the plugins it can; a
 * user that requires TLS is named as such, not as a wrong password.
 */
class MySqlLoginCheckIT {
    private final SqlServer source = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();

    @Test
    void aSha256PasswordUserFailsTheBinlogLoginCheckNamingTheFix() throws Exception {
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
        CheckResult sha = login("login_sha256");
        assertEquals(CheckResult.Status.FAIL, sha.status(), sha.detail());
        assertTrue(sha.detail().contains("sha256_password") && sha.detail().contains("caching_sha2_password"),
                sha.detail());
        CheckResult nat = login("login_native");
        assertEquals(CheckResult.Status.PASS, nat.status(), nat.detail());
        assertEquals("the user logs in with mysql_native_password", nat.detail());
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
        ConnectionSpec spec = ConnectionSpec.of(source.host(), source.port(), user, password);
        List<CheckResult> rs = new Prechecker(new PrecheckInput(true, true,
                List.of(new PrecheckInput.Source("mysql-01", spec, (d, t) -> d.equals("nothing_here"), true, 2, 2)),
                ConnectionSpec.of(target.host(), target.port(), target.user(), target.password()), "jdm_meta",
                Set.of())).run();
        return PrecheckerIT.find(rs, "connection", "source mysql-01");
    }

    private CheckResult login(String user) {
        ConnectionSpec spec = ConnectionSpec.of(source.host(), source.port(), user, "pw");
        List<CheckResult> rs = new Prechecker(new PrecheckInput(true, true,
                List.of(new PrecheckInput.Source("mysql-01", spec, (d, t) -> d.equals("nothing_here"), true, 2, 2)),
                ConnectionSpec.of(target.host(), target.port(), target.user(), target.password()), "jdm_meta",
                Set.of())).run();
        return PrecheckerIT.find(rs, "binlog_login", "source mysql-01");
    }
}
