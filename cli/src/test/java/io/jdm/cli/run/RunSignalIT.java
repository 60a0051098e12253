package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jdm run} as a real process: it serves /status, and SIGTERM drains, checkpoints and exits 0. */
class RunSignalIT {
    @TempDir
    Path dir;

    @Test
    void sigtermStopsTheDaemonCleanlyWithTheCheckpointFlushed() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        source.freshDatabase("run_signal");
        target.execute("DROP DATABASE IF EXISTS run_signal");
        source.execute("CREATE TABLE run_signal.t (id INT PRIMARY KEY, v INT)", "INSERT INTO run_signal.t VALUES (1, 1)");
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path task = dir.resolve("task.yaml");
        Files.writeString(task, String.join("\n",
                "name: run-signal",
                "task-mode: all",
                "meta-schema: jdm_meta_signal",
                "status-addr: \"127.0.0.1:" + port + "\"",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [run_signal]}}",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve("dump") + "\"}}",
                "syncers: {global: {worker-count: 2, checkpoint-flush-interval: 3600}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
        target.execute("DROP DATABASE IF EXISTS jdm_meta_signal");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.jdm.cli.Jdm", "run",
                task.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile()).start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            String status = "";
            while (System.nanoTime() < deadline && !status.contains("\"unit\": \"Sync\"")) {
                try {
                    status = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
                            .build(), HttpResponse.BodyHandlers.ofString()).body();
                } catch (java.io.IOException e) {
                    // not listening yet
                }
                assertTrue(p.isAlive(), "jdm exited early: " + Files.readString(dir.resolve("out.log")));
                Thread.sleep(200);
            }
            assertTrue(status.contains("\"unit\": \"Sync\""), status);
            source.execute("UPDATE run_signal.t SET v = 2 WHERE id = 1", "INSERT INTO run_signal.t VALUES (2, 2)");
            waitForRow(target, "run_signal.t", 2);
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(90, TimeUnit.SECONDS), "no exit within 90 s after SIGTERM");
            String log = Files.readString(dir.resolve("out.log"));
            assertEquals(0, p.exitValue(), log);
            assertTrue(log.contains("SIGTERM received"), log);
        } finally {
            p.destroyForcibly();
        }
        // The stop flushed the checkpoints even though the periodic flush is an hour away.
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM jdm_meta_signal.`run-signal_syncer_checkpoint`")) {
            rs.next();
            assertTrue(rs.getInt(1) > 0, "no checkpoint rows");
        }
        // A stopped task leaves none of the schema tracker's scratch schemas on the target.
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.SCHEMATA"
                     + " WHERE SCHEMA_NAME LIKE 'jdm\\_meta\\_signal\\_tracker\\_%'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "scratch schemas left on the target");
        }
    }

    /** Waits until {@code table} (db.table) on the target holds the row with this id. */
    static void waitForRow(SqlServer target, String table, int id) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            try (Connection c = target.connect(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE id = " + id)) {
                rs.next();
                if (rs.getInt(1) == 1) {
                    return;
                }
            } catch (java.sql.SQLException e) {
                // table not there yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("row " + id + " never reached the target");
    }
}
