package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A target table whose engine keeps rows outside transactions (MyISAM): a batch the target fails
 * part way (a trigger refuses the second row, as a target error would) keeps the rows before it,
 * while the checkpoint says none was applied. The restart writes the batch again; in safe mode, which
 * such a table always gets, it lands over itself and the target ends with the source's rows, not a
 * duplicate-key stop on the row that stayed.
 */
class NonTransactionalTargetIT {
    private static final String DB = "nontxntargetit";

    @Test
    void aBatchThatFailedPartWayIntoMyisamIsWrittenAgainOverItselfOnTheRestart() throws Exception {
        SqlServer src = TestServers.shared().source();
        SqlServer tgt = TestServers.shared().target();
        src.execute("DROP DATABASE IF EXISTS `" + DB + "`", "CREATE DATABASE `" + DB + "`",
                "CREATE TABLE `" + DB + "`.t (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=InnoDB");
        tgt.execute("DROP DATABASE IF EXISTS `" + DB + "`", "DROP DATABASE IF EXISTS jdm_meta_nontxn",
                "CREATE DATABASE `" + DB + "`",
                "CREATE TABLE `" + DB + "`.t (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=MyISAM",
                "CREATE TRIGGER `" + DB + "`.refuse BEFORE INSERT ON `" + DB + "`.t FOR EACH ROW"
                        + " IF NEW.id = 2 THEN SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1644,"
                        + " MESSAGE_TEXT = 'refused by the target'; END IF");
        var start = sourcePosition(src);
        SyncUnit first = new SyncUnit(config(src, tgt).start(start).build());
        first.start();
        try {
            src.execute("INSERT INTO `" + DB + "`.t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            String msg = first.failed().get(60, TimeUnit.SECONDS).getMessage();
            assertTrue(msg.contains("refused by the target"), msg);
        } finally {
            first.stop();
        }
        assertEquals(List.of("1"), tgt.rows("SELECT id FROM `" + DB + "`.t"), "MyISAM kept the row before the refused one");
        tgt.execute("DROP TRIGGER `" + DB + "`.refuse");

        SyncUnit again = new SyncUnit(config(src, tgt).build());
        again.start();
        try {
            src.execute("UPDATE `" + DB + "`.t SET v = 'uno' WHERE id = 1");
            assertTrue(again.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + again.failure());
            assertTrue(again.failure().isEmpty(), () -> again.failure().get().getMessage());
        } finally {
            again.stop();
        }
        assertEquals(src.hexRows(DB, "t"), tgt.hexRows(DB, "t"));
    }

    private static SyncConfig.Builder config(SqlServer src, SqlServer tgt) {
        return SyncConfig.builder("nontxn", spec(src), spec(tgt)).workerCount(1).serverId(7331)
                .metaSchema("jdm_meta_nontxn").safeModeDuration(Duration.ZERO).tableFilter((d, t) -> d.equals(DB));
    }
}
