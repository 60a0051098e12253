package io.jdm.cli.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A MySQL 8.0 source into a MariaDB target: the target accepts MySQL's collation names, but
 * {@code utf8mb4_0900_bin} compares trailing spaces differently there (PAD SPACE against MySQL's NO
 * PAD), and {@code jdm check} fails naming it; collations that compare alike pass.
 */
class CollationCheckIT {
    @Test
    void aCollationThatPadsDifferentlyOnTheTargetFailsTheCheck() throws Exception {
        SqlServer target = TestServers.shared().target();
        assumeTrue(target.flavor().equals("mariadb"), "the difference is MariaDB's");
        try (SqlServer source = ServerFlavor.MYSQL8.start("collation-src", ServerProfile.SOURCE)) {
            source.execute("CREATE DATABASE coll_ok", "CREATE TABLE coll_ok.t (id INT PRIMARY KEY,"
                    + " a VARCHAR(10) COLLATE utf8mb4_0900_ai_ci, b VARCHAR(10) CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci)",
                    "CREATE DATABASE coll_pad", "CREATE TABLE coll_pad.t (id INT PRIMARY KEY, k VARCHAR(10) COLLATE utf8mb4_0900_bin)");
            assertEquals(List.of("0"), source.rows("SELECT 'a' COLLATE utf8mb4_0900_bin = 'a '"), "NO PAD on MySQL");

            CheckResult ok = charset(source, target, "coll_ok");
            assertEquals(CheckResult.Status.PASS, ok.status(), ok.detail());

            CheckResult pad = charset(source, target, "coll_pad");
            assertEquals(CheckResult.Status.FAIL, pad.status(), pad.detail());
            assertTrue(pad.detail().contains("utf8mb4_0900_bin (NO PAD on the source, PAD SPACE on the target)"),
                    pad.detail());
            assertFalse(pad.detail().contains("0900_ai_ci"), pad.detail());
        }
    }

    private static CheckResult charset(SqlServer source, SqlServer target, String db) {
        ConnectionSpec src = ConnectionSpec.of(source.host(), source.port(), source.user(), source.password());
        List<CheckResult> rs = new Prechecker(new PrecheckInput(true, true,
                List.of(new PrecheckInput.Source("mysql-01", src, (d, t) -> d.equals(db), true, 2, 2)),
                ConnectionSpec.of(target.host(), target.port(), target.user(), target.password()), "jdm_meta",
                Set.of())).run();
        return PrecheckerIT.find(rs, "charset", "target");
    }
}
