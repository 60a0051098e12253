package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Server faults while a write workload runs on the source, safe mode off, ending with a row-by-row
 * comparison of every table: the target stopped and restarted mid-stream (writers retry within
 * their budget), then the source's binlog dump connection killed twice (the reader reconnects from
 * its last transaction boundary).
 */
class SyncServerFaultIT {
    private static final List<String> TABLES = List.of("acc", "orders", "logs");

    @Test
    void targetRestartAndSourceConnectionKillAreRiddenOut() throws Exception {
        String db = "syncfaultit_servers";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        SyncFaultIT.prepare(src, tgt, db, "jdm_meta_fault", "servertask");
        BinlogPosition start = sourcePosition(src);
        SyncUnit unit = new SyncUnit(SyncFaultIT.config(src, tgt, "servertask", 4, db, start));
        unit.start();
        try {
            try (Workload w = new Workload(src, db, 2).start()) {
                Thread.sleep(1500);
                if (tgt instanceof EmbeddedMariaDb target) {
                    target.stopServer();
                    Thread.sleep(2000);
                    try {
                        target.restart();
                    } catch (IllegalStateException slowStart) {
                        // On a loaded machine the server may take longer than the embedding waits for
                        // its "ready" line; it is still starting, so wait for it to accept connections.
                        awaitReachable(tgt, slowStart);
                    }
                }
                Thread.sleep(1500);
                SyncFaultIT.killBinlogDump(src);
                Thread.sleep(1500);
                SyncFaultIT.killBinlogDump(src);
                Thread.sleep(1000);
            }
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            for (String t : TABLES) {
                assertSameRows(src, tgt, new TableName(db, t));
            }
            if (tgt instanceof EmbeddedMariaDb) {
                assertTrue(unit.metrics().retries() > 0, "writers retried while the target was down");
            }
        } finally {
            unit.stop();
        }
    }


    private static void awaitReachable(SqlServer server, IllegalStateException cause) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            try (var c = server.connect()) {
                return;
            } catch (java.sql.SQLException e) {
                Thread.sleep(500);
            }
        }
        throw new AssertionError("target did not come back after restart", cause);
    }
}
