package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.JdmChild;
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
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One task on one database: a table t with rows, a marker table m, a task file. */
final class OnlineDdlTask implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Short leases, so the next process takes over a killed one within seconds. */
    private static final List<String> LEASE = List.of("-Djdm.lease.renew-ms=300", "-Djdm.lease.expiry-ms=1500");

    private final SqlServer source = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();
    private final Path dir;
    private final int statusPort;
    private final List<Process> started = new ArrayList<>();
    final String db;
    final String q;
    final String name;
    final String meta;
    final Path task;

    OnlineDdlTask(Path dir, String db, String name, String extra) throws IOException {
        this.dir = dir;
        this.db = db;
        this.q = "`" + db + "`.";
        this.name = name;
        this.meta = "jdm_meta_" + db;
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS " + meta);
        source.execute("CREATE TABLE " + q + "t (id INT PRIMARY KEY, v VARCHAR(20))"
                        + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci",
                "CREATE TABLE " + q + "m (k INT PRIMARY KEY)",
                "INSERT INTO " + q + "t VALUES (1, 'a'), (2, 'b'), (3, 'c')", "INSERT INTO " + q + "m VALUES (0)");
        int port; // the status endpoint: not the default port, which another jdm on the machine may hold
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        this.statusPort = port;
        this.task = Files.writeString(dir.resolve(name + ".yaml"), String.join("\n",
                "name: " + name,
                "task-mode: all",
                "meta-schema: " + meta,
                "status-addr: \"127.0.0.1:" + port + "\"",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [" + db + "]}}",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve(name + "-dump") + "\"}}",
                "syncers: {global: {worker-count: 1, checkpoint-flush-interval: 1}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                "") + extra);
    }

    Process start(String log, List<String> options) throws IOException {
        List<String> jvm = new ArrayList<>(LEASE);
        jvm.addAll(options);
        Process p = JdmChild.start(dir.resolve(log + ".log"), jvm, "run", task.toString());
        started.add(p);
        return p;
    }

    /**
     * Writes marker row {@code k} on the source and waits for it on the target, read there only once
     * the process's status says its sync runs: a MariaDB 11.4 target can hang both a LOAD DATA into
     * an empty table (InnoDB's bulk insert) and a SELECT of that table that comes while it runs.
     */
    void marker(Process p, int k) throws Exception {
        source.execute("INSERT INTO " + q + "m VALUES (" + k + ")");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!syncing()) {
            assertTrue(p.isAlive(), () -> "jdm exited before marker " + k + ": " + logs());
            assertTrue(System.nanoTime() < deadline, () -> "jdm's sync never ran: " + logs());
            Thread.sleep(100);
        }
        while (System.nanoTime() < deadline) {
            assertTrue(p.isAlive(), () -> "jdm exited before marker " + k + ": " + logs());
            try {
                if (target.rows("SELECT k FROM " + q + "m WHERE k = " + k).size() == 1) {
                    return;
                }
            } catch (SQLException e) {
                // not loaded yet
            }
            Thread.sleep(50);
        }
        throw new AssertionError("marker " + k + " never reached the target: " + logs());
    }

    /** Whether the status endpoint says the task's sync unit runs (false while no process serves it). */
    private boolean syncing() {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + statusPort
                    + "/status")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode sub = new ObjectMapper().readTree(r.body()).path("sources").path(0).path("subTaskStatus").path(0);
            return sub.path("unit").asText().equals("Sync");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** SIGKILL, then until the killed process's lease has expired. */
    void kill(Process p) throws Exception {
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        awaitLeaseExpired();
    }

    /** The process halted itself at the DDL applier's halt switch. */
    void halted(Process p, String log) throws Exception {
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), () -> "jdm did not halt: " + logs());
        assertTrue(Files.readString(dir.resolve(log + ".log")).contains("SYNC-CHILD-HALTED ran"), this::logs);
        awaitLeaseExpired();
    }

    void stop(Process p) throws Exception {
        p.destroy();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "no exit after SIGTERM");
        assertEquals(0, p.exitValue(), this::logs);
    }

    void assertSame(List<String> tables) throws Exception {
        assertEquals(source.rows("SHOW CREATE TABLE " + q + "t"), target.rows("SHOW CREATE TABLE " + q + "t"));
        assertEquals(source.hexRows(db, "t"), target.hexRows(db, "t"), db + ".t, every column as hex");
        assertEquals(source.hexRows(db, "m"), target.hexRows(db, "m"));
        assertEquals(tables, targetTables(), "no shadow or trash table reaches the target");
        assertEquals(List.of("0"), target.rows("SELECT COUNT(*) FROM " + meta + ".`" + name + "_onlineddl`"),
                "recorded statements are left after the cut-over");
    }

    List<String> targetTables() throws SQLException {
        List<String> names = new ArrayList<>(target.rows("SELECT TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = '" + db + "'"));
        names.sort(null);
        return names;
    }

    private void awaitLeaseExpired() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                if (target.rows("SELECT COUNT(*) FROM " + meta + ".`" + name + "_owner` WHERE expires_at > "
                        + "UTC_TIMESTAMP(3)").get(0).equals("0")) {
                    return;
                }
            } catch (SQLException e) {
                return; // killed before it took a lease
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the killed process's lease never expired");
    }

    String logs() {
        StringBuilder sb = new StringBuilder();
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                sb.append("\n--- ").append(f.getFileName()).append('\n').append(Files.readString(f));
            }
        } catch (IOException e) {
            sb.append(e);
        }
        return sb.toString();
    }

    /** Kills whatever a failed test left running. */
    @Override
    public void close() throws InterruptedException {
        for (Process p : started) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
