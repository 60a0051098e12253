package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.awaitFailure;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A MariaDB system-versioned table the task selects: its binlog rows carry the row's period
 * columns, which no copy of its rows can keep. The sync stops with one line that names the table
 * and what to do, and applies none of its rows in another shape.
 */
class UncopiedTablesIT {

    @Test
    void aSystemVersionedTableStopsTheSyncWithOneLineNamingIt() throws Exception {
        String db = "uncopiedit";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        assumeTrue(src.flavor().equals("mariadb") && tgt.flavor().equals("mariadb"),
                "system versioning is MariaDB's");
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_" + db);
        String create = "CREATE TABLE `" + db + "`.h (id INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING";
        src.execute(create);
        tgt.execute(create);
        SyncUnit unit = new SyncUnit(SyncConfig.builder(db, spec(src), spec(tgt)).workerCount(2)
                .metaSchema("jdm_meta_" + db).serverId(7151).start(sourcePosition(src))
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        String message;
        try {
            src.execute("INSERT INTO `" + db + "`.h VALUES (1, 1)", "UPDATE `" + db + "`.h SET v = 2 WHERE id = 1");
            message = awaitFailure(unit, Duration.ofSeconds(30));
        } finally {
            unit.stop();
        }
        assertTrue(message.contains("`" + db + "`.`h` (system versioned)") && message.contains("ignore-tables")
                && !message.contains("\n"), message);
        assertEquals(List.of(), tgt.rows("SELECT id FROM `" + db + "`.h FOR SYSTEM_TIME ALL"),
                "nothing applied in another shape");
    }
}
