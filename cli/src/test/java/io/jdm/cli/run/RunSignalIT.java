package io.jdm.cli.run;

import io.jdm.cli.JdmChild;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jdm as a real process under SIGTERM: {@code jdm run} serves /status, drains, checkpoints and exits 0;
 * a one-shot {@code jdm load} stops after its current statement, says so in one line, exits 130, and
 * the next run resumes exactly.
 */
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
        Path task = task("task.yaml", "run_signal",
                "name: run-signal",
                "task-mode: all",
                "meta-schema: jdm_meta_signal",
                "status-addr: \"127.0.0.1:" + port + "\"",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve("dump") + "\"}}",
                "syncers: {global: {worker-count: 2, checkpoint-flush-interval: 3600}}");
        target.execute("DROP DATABASE IF EXISTS jdm_meta_signal");
        Process p = JdmChild.start(dir.resolve("out.log"), "run", task.toString());
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

    @Test
    void sigtermStopsAOneShotLoadInOneLineAndTheRerunResumesExactly() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        source.freshDatabase("load_signal");
        source.execute("CREATE TABLE load_signal.t (id INT PRIMARY KEY, v VARCHAR(20))");
        StringBuilder rows = new StringBuilder("INSERT INTO load_signal.t VALUES ");
        for (int i = 1; i <= 400; i++) {
            rows.append(i > 1 ? "," : "").append("(").append(i).append(",'v").append(i).append("')");
        }
        source.execute(rows.toString(), "ANALYZE TABLE load_signal.t"); // the dump chunks by the table's statistics
        Path task = task("load.yaml", "load_signal",
                "name: load-signal",
                "task-mode: full",
                "meta-schema: jdm_meta_load_signal",
                "mydumpers: {global: {threads: 1, rows: 10, statement-size: 100, dir: \"" + dir.resolve("dump")
                        + "\"}}",
                "loaders: {global: {pool-size: 1}}");
        assertEquals(0, jdm("dump", task, "dump.log").waitFor(), Files.readString(dir.resolve("dump.log")));
        // The target table exists already (the load creates it IF NOT EXISTS) with a trigger that makes each row slow.
        target.freshDatabase("load_signal");
        target.execute("DROP DATABASE IF EXISTS jdm_meta_load_signal",
                "CREATE TABLE load_signal.t (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TRIGGER load_signal.slow BEFORE INSERT ON load_signal.t FOR EACH ROW DO SLEEP(0.02)");

        try (var files = Files.list(dir.resolve("dump"))) {
            long data = files.filter(f -> f.getFileName().toString().matches("load_signal\\.t\\.\\d+\\.sql")).count();
            assertTrue(data >= 10, "the test needs a file per few rows, the dump wrote " + data + " data files");
        }
        // the statement path, which commits what ran; a stop of a LOAD DATA commits nothing of it (BulkLoadIT)
        target.execute("SET GLOBAL local_infile = 0");
        Process p = jdm("load", task, "load.log");
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (System.nanoTime() < deadline && count(target, "load_signal.t") < 20) {
                assertTrue(p.isAlive(), "jdm exited early: " + Files.readString(dir.resolve("load.log")));
                Thread.sleep(50);
            }
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "no exit within 60 s after SIGTERM");
        } finally {
            p.destroyForcibly();
            target.execute("SET GLOBAL local_infile = 1");
        }
        String log = Files.readString(dir.resolve("load.log"));
        assertEquals(130, p.exitValue(), log);
        assertTrue(log.contains("jdm: load of s1 stopped before it finished; run it again to resume"), log);
        int loaded = count(target, "load_signal.t");
        assertTrue(loaded > 0 && loaded < 400, "stopped part way: " + loaded + " rows\n" + log);

        target.execute("DROP TRIGGER load_signal.slow");
        assertEquals(0, jdm("load", task, "load2.log").waitFor(), Files.readString(dir.resolve("load2.log")));
        assertEquals(source.rows("SELECT id, HEX(v) FROM load_signal.t ORDER BY id"),
                target.rows("SELECT id, HEX(v) FROM load_signal.t ORDER BY id"));
    }

    @Test
    void sigtermStopsAOneShotDumpInOneLineWithoutMetadata() throws Exception {
        SqlServer source = TestServers.shared().source();
        source.freshDatabase("dump_signal");
        source.execute("CREATE TABLE dump_signal.t (id INT PRIMARY KEY)", "INSERT INTO dump_signal.t VALUES (1), (2)");
        Path task = task("dump.yaml", "dump_signal",
                "name: dump-signal",
                "task-mode: full",
                "mydumpers: {global: {consistency: flush, dir: \"" + dir.resolve("dump") + "\"}}");
        Process p;
        // A session holding a table lock keeps the dump waiting for its global read lock: the signal lands mid-dump.
        try (Connection lock = source.connect(); Statement st = lock.createStatement()) {
            st.execute("LOCK TABLES dump_signal.t WRITE");
            p = jdm("dump", task, "dump.log");
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (System.nanoTime() < deadline && count(source, "information_schema.PROCESSLIST"
                    + " WHERE INFO LIKE 'FLUSH TABLES%'") == 0) {
                assertTrue(p.isAlive(), "jdm exited early: " + Files.readString(dir.resolve("dump.log")));
                Thread.sleep(50);
            }
            p.destroy(); // SIGTERM
            Thread.sleep(500);
        }
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "no exit within 60 s after SIGTERM");
        } finally {
            p.destroyForcibly();
        }
        String log = Files.readString(dir.resolve("dump.log"));
        assertEquals(130, p.exitValue(), log);
        assertTrue(log.contains("jdm: task dump-signal dump: stopped before the dump was complete;"), log);
        assertTrue(!Files.exists(dir.resolve("dump").resolve("metadata")), "a stopped dump has no metadata");
    }

    /** Writes a task file: {@code keys}, then the embedded pair as source s1 and target, selecting {@code db}. */
    private Path task(String file, String db, String... keys) throws Exception {
        List<String> lines = new ArrayList<>(List.of(keys));
        lines.addAll(List.of(
                "target-database: {host: 127.0.0.1, port: " + TestServers.shared().target().port()
                        + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [" + db + "]}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + TestServers.shared().source().port()
                        + ", user: root, password: \"\"}",
                ""));
        return Files.writeString(dir.resolve(file), String.join("\n", lines));
    }

    private Process jdm(String command, Path task, String log) throws Exception {
        return JdmChild.start(dir.resolve(log), command, task.toString());
    }

    private static int count(SqlServer server, String table) throws Exception {
        try (Connection c = server.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        } catch (java.sql.SQLException e) {
            return 0; // not there yet
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
