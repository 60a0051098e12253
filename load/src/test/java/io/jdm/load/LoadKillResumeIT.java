package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the loading JVM with SIGKILL at random moments, reruns it each time, and checks the target
 * ends identical to the source with on-duplicate error: nothing lost, nothing applied twice.
 */
class LoadKillResumeIT {
    private static final String DB = "LoadKillResumeIT_src";
    private static final String TASK = "kill_resume";
    private static final int KILLS = 5;

    @TempDir
    Path tmp;

    @Test
    void killedAtRandomMomentsTheRerunsFinishWithTheTargetIdenticalToTheSource() throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer source = pair.source();
        SqlServer target = pair.target();
        TestData.create(source, DB, 30000);
        Path dump = tmp.resolve("dump");
        try (Connection c = source.connect()) {
            FixtureDumper.dump(c, DB, dump, 25, 3000, t -> t.equals("types") ? ".zst" : t.equals("sbtest1") ? "" : ".gz");
        }
        target.execute("DROP DATABASE IF EXISTS " + DB, "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta." + TASK + "_loader_checkpoint");
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        int midLoadKills = 0;
        List<String> log = new ArrayList<>();
        long total = dataFileBytes(dump);
        assertTrue(total > 0, "no data files in " + dump);
        for (int i = 0; i < KILLS; i++) {
            Process p = start(target, dump, i);
            // kill once this run has committed a random part (5-35%) of what is left, plus up to 30 ms:
            // progress, not time, decides, so the kills land mid-load on a fast machine as on a slow one
            long before = Math.max(0, committedBytes(target));
            long threshold = before + 1 + (long) ((total - before) * (0.05 + 0.3 * random.nextDouble()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (p.isAlive() && committedBytes(target) < threshold && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(random.nextInt(30));
            boolean alive = p.isAlive();
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child did not die");
            String out = Files.readString(output(i));
            assertTrue(!out.contains("LOAD-FAILED"), "run " + i + " failed instead of being killed: " + out);
            long finished = finishedFiles(target);
            log.add("run " + i + ": killed " + (alive ? "alive" : "after exit") + ", committed bytes "
                    + committedBytes(target) + ", finished files " + finished);
            if (alive && !out.contains("LOAD-DONE")) {
                midLoadKills++;
            }
        }
        System.out.println("kill runs (seed " + seed + "): " + log);
        Process last = start(target, dump, KILLS);
        assertTrue(last.waitFor(60, TimeUnit.SECONDS), "final run did not finish");
        String out = Files.readString(output(KILLS));
        assertEquals(0, last.exitValue(), "final run (seed " + seed + ", " + log + "): " + out);
        assertTrue(midLoadKills >= 3, "only " + midLoadKills + " kills landed mid-load (seed " + seed + "): " + log);
        try (Connection s = source.connect(); Connection t = target.connect()) {
            for (String table : List.of("types", TestData.ODD_TABLE, "sbtest1")) {
                TableName tn = new TableName(DB, table);
                TestData.assertSameRows(s, tn, t, tn);
                assertEquals(TestData.checksum(s, tn), TestData.checksum(t, tn), table);
            }
            assertEquals(0, TestData.count(t, "SELECT COUNT(*) FROM jdm_meta." + TASK + "_loader_checkpoint "
                    + "WHERE status <> 'finished'"));
        }
    }

    private Path output(int run) {
        return tmp.resolve("run-" + run + ".log");
    }

    private Process start(SqlServer target, Path dump, int run) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                LoadChild.class.getName(), target.host(), String.valueOf(target.port()), dump.toString(), TASK, "3", "1")
                .redirectErrorStream(true).redirectOutput(output(run).toFile()).start();
    }

    private static long committedBytes(SqlServer target) throws SQLException {
        try (Connection c = target.connect()) {
            return TestData.count(c, "SELECT IFNULL(SUM(`offset`), 0) FROM jdm_meta." + TASK + "_loader_checkpoint");
        } catch (SQLException e) {
            return -1; // not created yet
        }
    }

    /**
     * What the data files hold on disk: no more than the bytes the checkpoint counts once they are
     * loaded (compressed files count fewer bytes here), so every kill threshold is reached mid-load.
     */
    private static long dataFileBytes(Path dump) throws java.io.IOException {
        try (var files = Files.list(dump)) {
            return files.filter(f -> f.getFileName().toString().matches(".*\\.\\d+\\.sql(\\.gz|\\.zst)?"))
                    .mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static long finishedFiles(SqlServer target) throws SQLException {
        try (Connection c = target.connect()) {
            return TestData.count(c, "SELECT COUNT(*) FROM jdm_meta." + TASK + "_loader_checkpoint WHERE status = 'finished'");
        }
    }
}
