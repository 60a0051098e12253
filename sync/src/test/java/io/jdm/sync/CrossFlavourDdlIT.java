package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A table created during sync on a MySQL 8.0 source, into a MariaDB target ({@code
 * -Djdm.it.servers=mysql8:mariadb}; skipped on other pairs): a bare {@code CHARSET=utf8mb4} means
 * utf8mb4_0900_ai_ci on MySQL (NO PAD: {@code 'y'} and {@code 'y '} differ) and utf8mb4_general_ci
 * on MariaDB (PAD SPACE: they collide). The replay carries the source's default, so the target's
 * table has the source's collation and both rows.
 */
class CrossFlavourDdlIT {
    private static final String DB = "crossflavourddlit";

    @Test
    void aBareUtf8mb4TableCreatedDuringSyncGetsTheSourcesCollationOnMariadb() throws Exception {
        assumeTrue(TestServers.sourceFlavor() == ServerFlavor.MYSQL8
                && TestServers.targetFlavor() == ServerFlavor.MARIADB, "a MySQL 8.0 source into a MariaDB target");
        SqlServer src = TestServers.shared().source();
        SqlServer tgt = TestServers.shared().target();
        src.execute("DROP DATABASE IF EXISTS `" + DB + "`", "CREATE DATABASE `" + DB + "` CHARACTER SET latin1");
        tgt.execute("DROP DATABASE IF EXISTS `" + DB + "`", "DROP DATABASE IF EXISTS jdm_meta_crossddl",
                "CREATE DATABASE `" + DB + "` CHARACTER SET latin1");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("crossddl", spec(src), spec(tgt)).workerCount(2)
                .serverId(7321).metaSchema("jdm_meta_crossddl").start(sourcePosition(src))
                .safeModeDuration(Duration.ZERO).tableFilter((d, t) -> d.equals(DB)).build());
        unit.start();
        try {
            src.execute("CREATE TABLE `" + DB + "`.t (id INT PRIMARY KEY, v VARCHAR(10), UNIQUE KEY uv (v))"
                            + " DEFAULT CHARSET=utf8mb4",
                    "ALTER TABLE `" + DB + "`.t ADD COLUMN w VARCHAR(10) CHARACTER SET utf8mb4",
                    "INSERT INTO `" + DB + "`.t VALUES (1, 'y ', 'b'), (3, 'y', 'b ')");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure());
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        } finally {
            unit.stop();
        }
        assertEquals(columns(src), columns(tgt));
        assertEquals(List.of("utf8mb4_0900_ai_ci"), tgt.rows("SELECT TABLE_COLLATION FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = '" + DB + "' AND TABLE_NAME = 't'"));
        assertEquals(src.hexRows(DB, "t"), tgt.hexRows(DB, "t"));
    }

    private static List<String> columns(SqlServer s) throws Exception {
        return s.rows("SELECT COLUMN_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '"
                + DB + "' AND TABLE_NAME = 't' ORDER BY ORDINAL_POSITION");
    }
}
