package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of the process running sync at random points while a write workload runs on the source
 * (several rounds, then a resume in-process with another worker-count), safe mode off, ending with
 * a row-by-row comparison of every table. See also {@link SyncServerFaultIT}.
 */
class SyncFaultIT {
    private static final List<String> TABLES = List.of("acc", "orders", "logs");

    @Test
    void killNineAtRandomPointsThenResumeLosesAndDuplicatesNothing() throws Exception {
        String db = "syncfaultit_kill";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        prepare(src, tgt, db, "jdm_meta_fault", "killtask");
        BinlogPosition start = sourcePosition(src);
        Random rnd = new Random(42);
        Path logDir = Files.createTempDirectory("syncfaultit");
        try (Workload w = new Workload(src, db, 1).start()) {
            for (int round = 0; round < 4; round++) {
                Path log = logDir.resolve("child-" + round + ".log");
                Process p = child(src, tgt, "killtask", 4, db, start, log);
                waitForLine(log, "SYNC-CHILD-STARTED", p, Duration.ofSeconds(60));
                Thread.sleep(500 + rnd.nextInt(2500));
                assertTrue(p.isAlive(), () -> "sync child died before the kill: " + read(log));
                p.destroyForcibly(); // SIGKILL: no shutdown hook, no final checkpoint
                p.waitFor(10, TimeUnit.SECONDS);
                String out = read(log);
                assertFalse(out.contains("SYNC-CHILD-FAILED") || out.contains("Duplicate entry"), out);
            }
        }
        // resume in-process with another worker-count: the old generation still answers "applied?"
        SyncUnit unit = new SyncUnit(config(src, tgt, "killtask", 3, db, start));
        unit.start();
        try {
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(60)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            for (String t : TABLES) {
                assertSameRows(src, tgt, new TableName(db, t));
            }
        } finally {
            unit.stop();
        }
    }

    static void prepare(SqlServer src, SqlServer tgt, String db, String meta, String task) {
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("CREATE DATABASE IF NOT EXISTS " + meta, "DROP TABLE IF EXISTS " + meta + "." + task
                + "_syncer_checkpoint");
        Workload.createTables(src, db);
        Workload.createTables(tgt, db);
    }

    static SyncConfig config(SqlServer src, SqlServer tgt, String task, int workers, String db, BinlogPosition start) {
        return SyncConfig.builder(task, spec(src), spec(tgt)).workerCount(workers).batch(20).serverId(7002)
                .metaSchema("jdm_meta_fault").start(start).compact(true).multipleRows(true)
                .safeModeDuration(Duration.ZERO).retryBudget(Duration.ofSeconds(60)).retryMaxBackoff(Duration.ofSeconds(1))
                .tableFilter((d, t) -> d.equals(db)).build();
    }

    static void killBinlogDump(SqlServer src) throws Exception {
        List<Long> ids = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        try (Connection c = src.connect(); Statement st = c.createStatement()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (ids.isEmpty() && System.nanoTime() < deadline) {
                seen.clear();
                try (ResultSet rs = st.executeQuery("SHOW PROCESSLIST")) {
                    while (rs.next()) {
                        seen.add(rs.getString("Command") + "/" + rs.getString("State"));
                        if (rs.getString("Command").startsWith("Binlog Dump")) {
                            ids.add(rs.getLong("Id"));
                        }
                    }
                }
                if (ids.isEmpty()) {
                    Thread.sleep(100); // the reader may be between connections
                }
            }
            assertFalse(ids.isEmpty(), () -> "a Binlog Dump thread to kill among " + seen);
            for (long id : ids) {
                st.execute("KILL " + id);
            }
        }
    }

    private static Process child(SqlServer src, SqlServer tgt, String task, int workers, String db,
                                 BinlogPosition start, Path log) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                SyncChild.class.getName(), src.host(), String.valueOf(src.port()), tgt.host(),
                String.valueOf(tgt.port()), task, String.valueOf(workers), db, start.file(),
                String.valueOf(start.pos()));
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        return pb.start();
    }

    private static void waitForLine(Path log, String line, Process p, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String out = read(log);
            if (out.contains(line)) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError("sync child exited: " + out);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("sync child did not start: " + read(log));
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
