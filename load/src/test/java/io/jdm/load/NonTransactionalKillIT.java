package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the loading JVM with SIGKILL while it writes a MyISAM table (a trigger makes each row take
 * a millisecond, so most kills land inside a statement whose rows are partly written) and reruns
 * it: with a primary key the reruns end with the target identical to the source; without one a
 * rerun after a kill inside a statement stops with one line and writes nothing twice.
 */
class NonTransactionalKillIT {
    private static final int STATEMENTS = 60;
    private static final int ROWS = 20;
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void servers() {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
    }

    @Test
    void killedInsideItsStatementsAKeyedMyIsamTableEndsIdenticalToTheSource() throws Exception {
        String db = "NonTxnKillIT_pk";
        String task = "nontxn_kill_pk";
        Path dir = prepare(db, task, "PRIMARY KEY");
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        List<String> log = new ArrayList<>();
        int inDoubt = 0;
        // kill until two kills have landed inside a statement (where one lands depends on timing)
        for (int run = 0; inDoubt < 2; run++) {
            assertTrue(run < 12, "only " + inDoubt + " of 12 kills left a statement in doubt (seed " + seed + "): "
                    + log);
            Process p = start(dir, task, run);
            long threshold = loaded(db) + 1 + random.nextInt(STATEMENTS * ROWS / 12);
            waitFor(p, db, threshold);
            Thread.sleep(random.nextInt(20));
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child did not die");
            String out = Files.readString(output(run));
            assertTrue(!out.contains("LOAD-FAILED"), "run " + run + " failed instead of being killed: " + out);
            boolean applying = !target.rows("SELECT 1 FROM jdm_meta." + task + "_loader_checkpoint"
                    + " WHERE status = 'applying'").isEmpty();
            inDoubt += applying ? 1 : 0;
            log.add("run " + run + ": " + loaded(db) + " rows" + (applying ? ", a statement in doubt" : ""));
        }
        Process last = start(dir, task, 99);
        assertTrue(last.waitFor(120, TimeUnit.SECONDS), "final run did not finish");
        assertEquals(0, last.exitValue(), "seed " + seed + ", " + log + ": " + Files.readString(output(99)));
        try (Connection s = source.connect(); Connection t = target.connect()) {
            TestData.assertSameRows(s, new TableName(db, "t"), t, new TableName(db, "t"));
        }
    }

    @Test
    void killedInsideAStatementAKeylessMyIsamTableStopsTheRerunWithOneLine() throws Exception {
        String db = "NonTxnKillIT_nokey";
        String task = "nontxn_kill_nokey";
        Path dir = prepare(db, task, "");
        for (int run = 0; ; run++) {
            assertTrue(run < 10, "no kill landed inside a statement in 10 runs");
            Process p = start(dir, task, run);
            waitFor(p, db, loaded(db) + ROWS / 2);
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child did not die");
            if (!target.rows("SELECT 1 FROM jdm_meta." + task + "_loader_checkpoint WHERE status = 'applying'")
                    .isEmpty()) {
                break;
            }
        }
        long before = loaded(db);
        Process rerun = start(dir, task, 99);
        assertTrue(rerun.waitFor(60, TimeUnit.SECONDS), "rerun did not finish");
        String out = Files.readString(output(99));
        assertEquals(3, rerun.exitValue(), out);
        assertTrue(out.contains("has no primary or NOT NULL unique key") && out.contains("empty the table"), out);
        assertEquals(before, loaded(db), "the rerun wrote nothing");
    }

    /**
     * The source table {@code db.t} and its dump in two files; the target table made by hand, MyISAM,
     * a trigger making each row take a millisecond; the task's checkpoint dropped.
     */
    private static Path prepare(String db, String task, String key) throws Exception {
        String create = "CREATE TABLE `t` (id INT NOT NULL " + key + ", v VARCHAR(40)) ENGINE=MyISAM";
        Path dir = HandDump.write(source, target, tmp, null, db, create, file(0), file(1));
        target.execute("CREATE DATABASE `" + db + "`", "CREATE TABLE `" + db + "`.t (id INT NOT NULL " + key
                        + ", v VARCHAR(40)) ENGINE=MyISAM",
                "CREATE TRIGGER `" + db + "`.slow BEFORE INSERT ON `" + db + "`.t FOR EACH ROW DO SLEEP(0.001)");
        HandDump.config(target, task, dir); // drops the task's checkpoint
        return dir;
    }

    private static byte[] file(int n) {
        StringBuilder sb = new StringBuilder(HandDump.HEADER);
        for (int s = 0; s < STATEMENTS / 2; s++) {
            sb.append("INSERT INTO `t` VALUES ");
            for (int r = 0; r < ROWS; r++) {
                int id = (n * STATEMENTS / 2 + s) * ROWS + r;
                sb.append(r > 0 ? "," : "").append('(').append(id).append(",'v").append(id).append("')");
            }
            sb.append(";\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void waitFor(Process p, String db, long rows) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (p.isAlive() && loaded(db) < rows && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
    }

    private static long loaded(String db) throws SQLException {
        return Long.parseLong(target.rows("SELECT COUNT(*) FROM `" + db + "`.t").get(0));
    }

    private static Path output(int run) {
        return tmp.resolve("nontxn-kill-" + run + ".log");
    }

    private static Process start(Path dump, String task, int run) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                LoadChild.class.getName(), target.host(), String.valueOf(target.port()), dump.toString(), task, "1", "1")
                .redirectErrorStream(true).redirectOutput(output(run).toFile()).start();
    }
}
