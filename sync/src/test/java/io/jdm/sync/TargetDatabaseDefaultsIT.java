package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tables created during sync get the charset and collation they got on the source, also where the
 * target database has other defaults (made by hand, as on a latin1-default server) and after an
 * ALTER DATABASE on the source; the target database keeps its own defaults.
 */
class TargetDatabaseDefaultsIT {

    @Test
    void createTableTakesTheSourceDatabasesDefaultsAtItsPosition() throws Exception {
        String db = "dbdefaultsit";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        src.execute("DROP DATABASE IF EXISTS " + db,
                "CREATE DATABASE " + db + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        tgt.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS jdm_meta_dbdefaults",
                "CREATE DATABASE " + db + " CHARACTER SET latin1 COLLATE latin1_swedish_ci");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("dbdefaults", spec(src), spec(tgt)).workerCount(2)
                .metaSchema("jdm_meta_dbdefaults").serverId(7151).start(sourcePosition(src))
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        try {
            src.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, s VARCHAR(20), c CHAR(3))",
                    "INSERT INTO " + db + ".t VALUES (1, 'café ü 値 😀', 'ñ')",
                    "ALTER DATABASE " + db + " CHARACTER SET latin1 COLLATE latin1_german1_ci",
                    "CREATE TABLE " + db + ".t2 (id INT PRIMARY KEY, s VARCHAR(20))",
                    "INSERT INTO " + db + ".t2 VALUES (1, 'Grüße')");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        String columns = "SELECT TABLE_NAME, COLUMN_NAME, CHARACTER_SET_NAME, COLLATION_NAME FROM "
                + "information_schema.COLUMNS WHERE TABLE_SCHEMA = '" + db + "' ORDER BY TABLE_NAME, ORDINAL_POSITION";
        assertEquals(src.rows(columns), tgt.rows(columns));
        String tables = "SELECT TABLE_NAME, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
                + db + "' ORDER BY TABLE_NAME";
        assertEquals(src.rows(tables), tgt.rows(tables));
        for (String t : List.of("t", "t2")) {
            String values = "SELECT id, HEX(s) FROM " + db + "." + t + " ORDER BY id";
            assertEquals(src.rows(values), tgt.rows(values), t);
        }
        assertEquals(List.of("latin1|latin1_swedish_ci"), tgt.rows("SELECT DEFAULT_CHARACTER_SET_NAME, "
                + "DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '" + db + "'"),
                "the target database keeps its own defaults");
    }

}
