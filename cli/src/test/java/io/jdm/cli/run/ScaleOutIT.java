package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.JdmChild;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerProfile;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One task of two sources run by one {@code jdm run --source-id} process per source, as real
 * processes reading the same task file (each given its own status address through
 * {@code ${JDM_STATUS_ADDR}}): both sources reach the target, a third process on a source already
 * run refuses, and a process killed -9 is replaced by a new one once its lease expires, which
 * resumes from the checkpoints the killed one left in the target.
 */
class ScaleOutIT {
    /** Short leases, so a killed owner is replaced within seconds. */
    private static final List<String> JVM = List.of("-Djdm.lease.renew-ms=300", "-Djdm.lease.expiry-ms=3000",
            "-Xmx256m");
    private static final String TASK = "scale-out";
    private static final String META = "jdm_meta_scale_out";
    private static final String DB1 = "scale_out_s1";
    private static final String DB2 = "scale_out_s2";

    private static EmbeddedMariaDb second;

    @TempDir
    Path dir;

    private final SqlServer source1 = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();

    @BeforeAll
    static void startSecondSource() {
        second = EmbeddedMariaDb.start("scale-out-s2", ServerProfile.SOURCE);
    }

    @AfterAll
    static void stopSecondSource() {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void oneProcessPerSourceRunsTheTaskAndAKilledOneIsReplacedFromItsCheckpoints() throws Exception {
        source1.freshDatabase(DB1);
        second.freshDatabase(DB2);
        target.execute("DROP DATABASE IF EXISTS " + DB1, "DROP DATABASE IF EXISTS " + DB2,
                "DROP DATABASE IF EXISTS " + META);
        // keyless: a row applied twice shows as a duplicate
        source1.execute("CREATE TABLE " + DB1 + ".t (a INT, b VARCHAR(20))");
        second.execute("CREATE TABLE " + DB2 + ".t (a INT, b VARCHAR(20))");
        KeylessRows.insert(source1, DB1, 0, 100);
        KeylessRows.insert(second, DB2, 0, 100);
        Path task = taskFile();

        int portA = freePort();
        int portB = freePort();
        Process a = start("a", portA, "s1");
        Process b = start("b", portB, "s2");
        Process refused = null;
        Process successor = null;
        try {
            awaitSync(a, portA, "a");
            awaitSync(b, portB, "b");
            String statusA = status(portA, "/status");
            assertTrue(statusA.contains("\"source\": \"s1\"") && !statusA.contains("\"source\": \"s2\""), statusA);
            String statusB = status(portB, "/status");
            assertTrue(statusB.contains("\"source\": \"s2\"") && !statusB.contains("\"source\": \"s1\""), statusB);
            String metricsA = status(portA, "/metrics");
            assertTrue(metricsA.contains("dm_worker_task_state{") && metricsA.contains("source_id=\"s1\"")
                    && !metricsA.contains("source_id=\"s2\""), metricsA);

            // both stream at once, each its own source
            KeylessRows.insert(source1, DB1, 100, 300);
            KeylessRows.insert(second, DB2, 100, 300);
            source1.execute("UPDATE " + DB1 + ".t SET b = CONCAT(b, 'u') WHERE a % 7 = 0",
                    "DELETE FROM " + DB1 + ".t WHERE a % 11 = 0");
            second.execute("UPDATE " + DB2 + ".t SET b = CONCAT(b, 'v') WHERE a % 5 = 0",
                    "DELETE FROM " + DB2 + ".t WHERE a % 13 = 0");
            KeylessRows.awaitSame(source1, target, DB1);
            KeylessRows.awaitSame(second, target, DB2);

            // a third process on s1 while a runs it
            refused = start("refused", freePort(), "s1", "--lease-wait", "0");
            assertTrue(refused.waitFor(90, TimeUnit.SECONDS), "the third process did not exit");
            String said = read("refused");
            assertNotEquals(0, refused.exitValue(), said);
            String line = "source s1 is already run by";
            assertTrue(said.contains(line) && said.contains("pid " + a.pid()), said);
            assertEquals(said.indexOf(line), said.lastIndexOf(line), "said more than once: " + said);
            assertFalse(said.contains("\tat "), "a stack trace: " + said);
            assertTrue(a.isAlive() && b.isAlive(), "a running process stopped");

            // s1's process dies; s1 is written meanwhile, and s2 goes on
            a.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            KeylessRows.insert(source1, DB1, 300, 400);
            source1.execute("UPDATE " + DB1 + ".t SET b = CONCAT(b, 'k') WHERE a % 3 = 0",
                    "DELETE FROM " + DB1 + ".t WHERE a % 17 = 0");
            KeylessRows.insert(second, DB2, 300, 350);
            KeylessRows.awaitSame(second, target, DB2);
            awaitLeaseExpired("s1");
            assertEquals(1, count(META + ".`" + TASK + "_owner` WHERE source_id = 's2' AND expires_at > "
                    + "UTC_TIMESTAMP(3)"), "s2's lease lapsed while its process runs");

            int portC = freePort();
            successor = start("successor", portC, "s1");
            awaitSync(successor, portC, "successor");
            String log = read("successor");
            assertTrue(log.contains("source s1: taking over the lease of"), log);
            assertTrue(log.contains("source s1: dump and load already finished"), log);
            assertTrue(log.contains("a checkpoint exists; resuming from it"), log);
            KeylessRows.insert(source1, DB1, 400, 450);
            KeylessRows.awaitSame(source1, target, DB1);
            KeylessRows.awaitSame(second, target, DB2);

            for (Process p : List.of(successor, b)) {
                p.destroy();
                assertTrue(p.waitFor(90, TimeUnit.SECONDS), "no exit after SIGTERM");
            }
            assertEquals(0, successor.exitValue(), read("successor"));
            assertEquals(0, b.exitValue(), read("b"));
            assertEquals(0, count(META + ".`" + TASK + "_owner`"), "a clean stop gives the leases back");
        } finally {
            a.destroyForcibly();
            b.destroyForcibly();
            if (refused != null) {
                refused.destroyForcibly();
            }
            if (successor != null) {
                successor.destroyForcibly();
            }
        }
    }

    /** Both sources in one task file; each process gets its status address from the environment. */
    private Path taskFile() throws IOException {
        return Files.writeString(dir.resolve("task.yaml"), String.join("\n",
                "name: " + TASK,
                "task-mode: all",
                "meta-schema: " + META,
                "status-addr: \"${JDM_STATUS_ADDR}\"",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list:",
                "  one: {do-dbs: [" + DB1 + "]}",
                "  two: {do-dbs: [" + DB2 + "]}",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve("dump") + "\"}}",
                "syncers: {global: {worker-count: 2, checkpoint-flush-interval: 1}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: one",
                "    from: {host: 127.0.0.1, port: " + source1.port() + ", user: root, password: \"\"}",
                "  - source-id: s2",
                "    block-allow-list: two",
                "    from: {host: 127.0.0.1, port: " + second.port() + ", user: root, password: \"\"}",
                ""));
    }

    private Process start(String log, int port, String sourceId, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", dir.resolve("task.yaml").toString(), "--source-id",
                sourceId));
        args.addAll(List.of(more));
        return JdmChild.start(dir.resolve(log + ".log"), JVM, Map.of("JDM_STATUS_ADDR", "127.0.0.1:" + port),
                args.toArray(String[]::new));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Waits until the process streams the binlog. */
    private void awaitSync(Process p, int port, String log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        String status = "";
        while (System.nanoTime() < deadline && !status.contains("\"unit\": \"Sync\"")) {
            try {
                status = status(port, "/status");
            } catch (IOException e) {
                // not listening yet
            }
            assertTrue(p.isAlive(), () -> "jdm exited early: " + read(log));
            Thread.sleep(200);
        }
        assertTrue(status.contains("\"unit\": \"Sync\""), status);
    }

    private String read(String log) {
        try {
            return Files.readString(dir.resolve(log + ".log"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static String status(int port, String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }




    private void awaitLeaseExpired(String sourceId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (count(META + ".`" + TASK + "_owner` WHERE source_id = '" + sourceId
                    + "' AND expires_at > UTC_TIMESTAMP(3)") == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the killed process's lease of " + sourceId + " never expired");
    }

    private int count(String from) throws Exception {
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + from)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
