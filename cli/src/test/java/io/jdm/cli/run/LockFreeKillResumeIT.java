package io.jdm.cli.run;

import io.jdm.cli.JdmChild;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.TestTasks;
import io.jdm.common.dumpdir.ChunkJournal;
import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdm run} with a lock-free dump, killed -9 five times at random points while the source is
 * written to, and run again each time: the dump resumes from its unfinished chunks (none is dumped
 * twice), the load from its checkpoint, and the target ends equal to the source row by row.
 */
class LockFreeKillResumeIT {
    private static final String DB = "lock_free_kill";
    private static final String META = "jdm_meta_lfkill";
    /** Short leases, so the next process takes over a killed one within seconds. */
    private static final List<String> LEASE = List.of("-Djdm.lease.renew-ms=300", "-Djdm.lease.expiry-ms=1500");
    private static final int KILLS = 5;

    @TempDir
    Path dir;

    @Test
    void fiveKillsAtRandomPointsUnderWritesEndRowByRowEqualWithNoChunkDumpedTwice() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        target.execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS " + META);
        long t0 = System.nanoTime();
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path task = task(source, target);
        int resumed = 0;
        int followed = 0;
        try (LockFreeWorkload workload = LockFreeWorkload.start(source, DB, 24_000, seed)) {
            for (int run = 1; run <= KILLS; run++) {
                Process p = jdm(task, "run" + run + ".log");
                try {
                    awaitLine(p, "run" + run + ".log", "stage ");
                    if (run == 1) {
                        // the dump runs ahead of the load now: the first kill comes while it is under way
                        awaitFirstChunk(p);
                        Thread.sleep(random.nextInt(300));
                    } else {
                        Thread.sleep(100 + random.nextInt(1500));
                    }
                } finally {
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // SIGKILL
                }
                String log = Files.readString(dir.resolve("run" + run + ".log"));
                resumed += log.contains("resuming the lock-free dump") ? 1 : 0;
                followed += log.contains("following a resumed lock-free dump") ? 1 : 0;
                awaitLeaseExpired(target);
            }
            Process last = jdm(task, "last.log");
            try {
                awaitStage(target, StageStore.Stage.SYNC, last);
                workload.close();
                awaitSameRows(source, target, last);
            } finally {
                last.destroy();
                last.waitFor(60, TimeUnit.SECONDS);
                last.destroyForcibly();
            }
            String log = Files.readString(dir.resolve("last.log"));
            resumed += log.contains("resuming the lock-free dump") ? 1 : 0;
            followed += log.contains("following a resumed lock-free dump") ? 1 : 0;
        }
        Path dump = dir.resolve("dump");
        assertEquals("lock-free", DumpMetadata.readFrom(dump).orElseThrow().consistency());
        assertChunksOnce(dump);
        assertTrue(resumed >= 1, "no kill hit the dump (seed " + seed + ")");
        System.out.println("lock-free kill/resume: " + resumed + " of " + (KILLS + 1) + " runs resumed the dump, "
                + followed + " with a load going on from its checkpoint, in "
                + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) + " s (seed " + seed + ")");
    }

    /** Every planned chunk is in the journal once, and the directory's data files are exactly its files. */
    private static void assertChunksOnce(Path dump) throws Exception {
        ChunkPlan plan = ChunkPlan.readFrom(dump).orElseThrow();
        Set<String> chunks = new HashSet<>();
        Set<String> files = new TreeSet<>();
        for (ChunkJournal.Done d : ChunkJournal.readFrom(dump)) {
            assertTrue(chunks.add(d.table() + "#" + d.chunk()), "chunk dumped twice: " + d);
            d.files().forEach(f -> assertTrue(files.add(f.name()), "file of two chunks: " + f.name()));
        }
        assertEquals(plan.tables().stream().mapToInt(t -> t.conditions().size()).sum(), chunks.size());
        Set<String> onDisk = new TreeSet<>();
        try (var s = Files.list(dump)) {
            s.map(f -> f.getFileName().toString())
                    .filter(n -> DumpFileNames.parse(n).filter(p -> p.kind() == DumpFileNames.Kind.DATA).isPresent())
                    .forEach(onDisk::add);
        }
        assertEquals(files, onDisk);
    }

    private Process jdm(Path task, String log) throws Exception {
        return JdmChild.start(dir.resolve(log), LEASE, "run", task.toString());
    }

    /** Waits until the process logs {@code text}: it has begun its stages. */
    /** Until the lock-free dump has recorded its first finished chunk. */
    private void awaitFirstChunk(Process p) throws Exception {
        Path chunks = dir.resolve("dump").resolve(io.jdm.common.dumpdir.ChunkJournal.NAME);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(chunks) && Files.size(chunks) > 0) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private void awaitLine(Process p, String log, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.readString(dir.resolve(log)).contains(text)) {
                return;
            }
            assertTrue(p.isAlive(), "jdm exited early: " + Files.readString(dir.resolve(log)));
            Thread.sleep(20);
        }
        throw new AssertionError("jdm never logged \"" + text + "\": " + Files.readString(dir.resolve(log)));
    }

    private void awaitStage(SqlServer target, StageStore.Stage stage, Process p) throws Exception {
        StageStore store = new StageStore(ConnectionSpec.of(target.host(), target.port(), "root", ""), META,
                "lock-free-kill");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (store.read("s1").map(e -> e.stage() == stage).orElse(false)) {
                return;
            }
            assertTrue(p.isAlive(), "jdm exited: " + Files.readString(dir.resolve("last.log")));
            Thread.sleep(100);
        }
        throw new AssertionError("never reached stage " + stage + ": " + Files.readString(dir.resolve("last.log")));
    }

    private void awaitSameRows(SqlServer source, SqlServer target, Process p) throws Exception {
        String q = "SELECT id, u, HEX(v) FROM " + DB + ".t ORDER BY id";
        List<String> want = source.rows(q);
        List<String> got = List.of();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            got = target.rows(q);
            if (got.equals(want)) {
                return;
            }
            assertTrue(p.isAlive(), "jdm exited: " + Files.readString(dir.resolve("last.log")));
            Thread.sleep(200);
        }
        assertEquals(want.size(), got.size(), "row count");
        assertEquals(want, got);
    }

    private static void awaitLeaseExpired(SqlServer target) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                if (target.rows("SELECT COUNT(*) FROM " + META + ".`lock-free-kill_owner` WHERE expires_at > "
                        + "UTC_TIMESTAMP(3)").get(0).equals("0")) {
                    return;
                }
            } catch (java.sql.SQLException e) {
                return; // killed before it took a lease
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the killed process's lease never expired");
    }

    private Path task(SqlServer source, SqlServer target) throws Exception {
        // no safe-mode-duration: only the dump's highest HIGH keeps the sync safe
        return TestTasks.allMode(dir, "lock-free-kill", META, source, "root", "", target, DB,
                "threads: 2, rows: 60, consistency: lock-free", "pool-size: 2",
                "worker-count: 4, batch: 50, safe-mode-duration: 0s");
    }
}
