package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.cli.check.CheckResult;
import io.jdm.cli.check.PrecheckInput;
import io.jdm.cli.check.Prechecker;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadUnit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MySQL 8.0 source into a MariaDB target: invisible columns (a generated invisible primary key's
 * too), invisible indexes and SRIDs, which MySQL writes in comments MariaDB skips, arrive under
 * MariaDB's names (INVISIBLE, IGNORED, REF_SYSTEM_ID) with every value; {@code jdm check} says so,
 * and fails a functional index, which MariaDB has no form for.
 */
class MySqlAttributesIT {
    @TempDir
    Path dir;

    @Test
    void mysqlOnlyAttributesArriveUnderMariadbsNamesAndCheckNamesWhatCannot() throws Exception {
        SqlServer target = TestServers.shared().target();
        assumeTrue(target.flavor().equals("mariadb"), "MariaDB's names for MySQL's attributes");
        try (SqlServer source = ServerFlavor.MYSQL8.start("attrs-src", ServerProfile.SOURCE)) {
            source.execute("CREATE DATABASE attrs_ok",
                    "CREATE TABLE attrs_ok.t (id INT PRIMARY KEY, c INT INVISIBLE, p POINT NOT NULL SRID 4326,"
                            + " KEY k (c) INVISIBLE, SPATIAL KEY sp (p))",
                    "INSERT INTO attrs_ok.t (id, c, p) VALUES (1, 5, ST_GeomFromText('POINT(1 2)', 4326)),"
                            + " (2, NULL, ST_GeomFromText('POINT(-3.5 40)', 4326))",
                    "CREATE DATABASE attrs_lost",
                    "CREATE TABLE attrs_lost.f (id INT PRIMARY KEY, a INT, KEY fi ((a + 1)))");
            try (Connection c = source.connect(); Statement st = c.createStatement()) {
                st.execute("SET SESSION sql_generate_invisible_primary_key = ON");
                st.execute("CREATE TABLE attrs_ok.g (v VARCHAR(10))");
                st.execute("INSERT INTO attrs_ok.g (v) VALUES ('a'), ('b')");
            }
            target.execute("DROP DATABASE IF EXISTS attrs_ok", "DROP DATABASE IF EXISTS attrs_lost");

            CheckResult ok = check(source, target, "attrs_ok");
            assertEquals(CheckResult.Status.WARN, ok.status(), ok.detail());
            assertTrue(ok.detail().contains("attrs_ok.t invisible index k as IGNORED")
                    && ok.detail().contains("attrs_ok.t p SRID 4326 as REF_SYSTEM_ID")
                    && ok.detail().contains("attrs_ok.g invisible column my_row_id"), ok.detail());
            CheckResult lost = check(source, target, "attrs_lost");
            assertEquals(CheckResult.Status.FAIL, lost.status(), lost.detail());
            assertTrue(lost.detail().contains("attrs_lost.f functional index fi"), lost.detail());

            ConnectionSpec src = ConnectionSpec.of(source.host(), source.port(), source.user(), source.password());
            ConnectionSpec tgt = ConnectionSpec.of(target.host(), target.port(), target.user(), target.password());
            new DumpUnit(DumpConfig.defaults("attrs", src, dir.resolve("dump"))
                    .withTableFilter((s, t) -> s.equals("attrs_ok"))).run();
            new LoadUnit(LoadConfig.of("attrs", "s1", tgt, dir.resolve("dump"))).run();

            String t = showCreate(target, "attrs_ok.t");
            assertTrue(t.contains("`c` int(11) INVISIBLE DEFAULT NULL") && t.contains("KEY `k` (`c`) IGNORED"), t);
            assertEquals(List.of("4326"), target.rows("SELECT SRID FROM information_schema.GEOMETRY_COLUMNS"
                    + " WHERE F_TABLE_SCHEMA = 'attrs_ok' AND F_TABLE_NAME = 't' AND G_GEOMETRY_COLUMN = 'p'"));
            String g = showCreate(target, "attrs_ok.g");
            assertTrue(g.contains("`my_row_id` bigint(20) unsigned NOT NULL INVISIBLE AUTO_INCREMENT"), g);
            String values = "SELECT id, c, HEX(p) FROM attrs_ok.t ORDER BY id"; // as stored: SRID, then x and y
            assertEquals(source.rows(values), target.rows(values));
            String gipk = "SELECT my_row_id, HEX(v) FROM attrs_ok.g ORDER BY my_row_id";
            assertEquals(source.rows(gipk), target.rows(gipk));
        }
    }

    private static CheckResult check(SqlServer source, SqlServer target, String db) {
        ConnectionSpec src = ConnectionSpec.of(source.host(), source.port(), source.user(), source.password());
        List<CheckResult> rs = new Prechecker(new PrecheckInput(true, true,
                List.of(new PrecheckInput.Source("mysql-01", src, (d, t) -> d.equals(db), true, 2, 2)),
                ConnectionSpec.of(target.host(), target.port(), target.user(), target.password()), "jdm_meta",
                Set.of())).run();
        return rs.stream().filter(r -> r.item().equals("mysql_attributes")).findFirst()
                .orElseThrow(() -> new AssertionError("no mysql_attributes line: " + rs));
    }

    private static String showCreate(SqlServer server, String table) throws Exception {
        try (Connection c = server.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + table)) {
            rs.next();
            return rs.getString(2);
        }
    }
}
