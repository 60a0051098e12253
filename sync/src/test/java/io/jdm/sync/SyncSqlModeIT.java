package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The writers apply rows in the source's sql_mode made fit for replay, as the load writes: a
 * non-strict source (global sql_mode '') stores a row whose generated column overflows clipped to
 * its type, and the target, which computes that column again from the row, stores the same instead
 * of refusing it (error 1264) as a strict session would. MySQL computes a VIRTUAL column on write
 * and refuses there; MariaDB computes it on read, so on a MariaDB target the row lands either way
 * (in sync's MySQL suites).
 */
class SyncSqlModeIT {
    private static final String DB = "syncsqlmodeit";

    @Test
    void aNonStrictSourcesRowWithAnOverflowingGeneratedColumnIsAppliedAsTheSourceStoredIt() throws Exception {
        SqlServer src = TestServers.shared().source();
        SqlServer tgt = TestServers.shared().target();
        String ddl = "CREATE TABLE `" + DB + "`.g (id INT PRIMARY KEY, i INT, gen INT AS (i + 1) VIRTUAL)";
        src.execute("DROP DATABASE IF EXISTS `" + DB + "`", "CREATE DATABASE `" + DB + "`", ddl);
        tgt.execute("DROP DATABASE IF EXISTS `" + DB + "`", "DROP DATABASE IF EXISTS jdm_meta_sqlmode",
                "CREATE DATABASE `" + DB + "`", ddl);
        String global = src.rows("SELECT @@GLOBAL.sql_mode").get(0);
        src.execute("SET GLOBAL sql_mode = ''");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("sqlmode", spec(src), spec(tgt)).workerCount(1)
                .serverId(7341).metaSchema("jdm_meta_sqlmode").start(sourcePosition(src))
                .safeModeDuration(Duration.ZERO).tableFilter((d, t) -> d.equals(DB)).build());
        try {
            unit.start();
            try (Connection c = src.connect(); Statement st = c.createStatement()) {
                st.execute("SET SESSION sql_mode = ''");
                st.execute("INSERT INTO `" + DB + "`.g (id, i) VALUES (1, 2147483647), (2, 5)");
            }
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure());
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        } finally {
            unit.stop();
            src.execute("SET GLOBAL sql_mode = '" + global + "'");
        }
        String rows = "SELECT id, i, gen FROM `" + DB + "`.g ORDER BY id";
        assertEquals(List.of("1|2147483647|2147483647", "2|5|6"), src.rows(rows));
        assertEquals(src.rows(rows), tgt.rows(rows));
    }
}
