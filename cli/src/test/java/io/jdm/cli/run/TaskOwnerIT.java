package io.jdm.cli.run;

import io.jdm.cli.JdmChild;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.SyncUnit;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One owner per task and source, as real {@code jdm run} processes: a second process on the task
 * refuses ({@code --lease-wait 0}) or waits, saying so once, until a SIGTERM ends it; a process
 * killed -9 is replaced at once by a restart on the same host, long before its lease would expire;
 * and processes of different tasks on one source stream side by side without evicting each other.
 */
class TaskOwnerIT {
    /** Short leases, so a killed owner is replaced within seconds. */
    private static final List<String> LEASE = List.of("-Djdm.lease.renew-ms=300", "-Djdm.lease.expiry-ms=3000");
    /** A lease that outlasts the test: only seeing its owner dead frees it in time. */
    private static final List<String> LONG_LEASE = List.of("-Djdm.lease.renew-ms=300",
            "-Djdm.lease.expiry-ms=120000");

    @TempDir
    Path dir;

    private static final String HOST = hostName();

    private final SqlServer source = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();

    @Test
    void aSecondProcessRefusesOrWaitsAndAKilledOwnerIsReplacedAtOnce() throws Exception {
        String db = "owner_one_task";
        String meta = "jdm_meta_owner_one";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS " + meta);
        source.execute("CREATE TABLE " + db + ".t (a INT, b VARCHAR(20))"); // keyless: a double apply shows
        KeylessRows.insert(source, db, 0, 100);
        Path first = taskFile("one-a", "owner-one", meta, db, 2);
        Path second = taskFile("one-b", "owner-one", meta, db, 2);

        Process owner = start("owner", first, LONG_LEASE);
        Process refused = null;
        Process waiter = null;
        Process successor = null;
        try {
            int ownerPort = awaitSync(owner, first, "owner");
            refused = start("refused", second, LEASE, "--lease-wait", "0");
            assertTrue(refused.waitFor(90, TimeUnit.SECONDS), "the second process did not exit");
            String said = Files.readString(dir.resolve("refused.log"));
            assertNotEquals(0, refused.exitValue(), said);
            assertTrue(said.contains("source s1 is already run by") && said.contains("pid " + owner.pid())
                    && said.contains(" since ") && said.contains("lease expires at"), said);
            assertFalse(said.contains("\tat "), "a stack trace: " + said);
            assertTrue(owner.isAlive(), "the owner stopped");

            // by default a second process waits for the lease, says so once, and a SIGTERM ends it cleanly
            waiter = start("waiter", second, LEASE);
            String waiting = "source s1 is run by " + HOST + " pid " + owner.pid() + " since ";
            awaitLog(waiter, "waiter", waiting);
            Thread.sleep(2000); // several polls
            assertTrue(waiter.isAlive(), read("waiter"));
            waiter.destroy();
            assertTrue(waiter.waitFor(30, TimeUnit.SECONDS), "no exit after SIGTERM while waiting");
            String waited = read("waiter");
            assertEquals(0, waiter.exitValue(), waited);
            assertEquals(waited.indexOf(waiting), waited.lastIndexOf(waiting), "said more than once: " + waited);
            assertTrue(waited.contains("lease expires at") && waited.contains("waiting for its lease until it is free")
                    && waited.contains("stopped while waiting for a source's lease"), waited);
            assertFalse(waited.contains("\tat "), "a stack trace: " + waited);
            // jdm load too; a signal while it waits ends it as a stopped load (130), nothing loaded
            Process loader = JdmChild.start(dir.resolve("loader.log"), LEASE, "load", second.toString());
            try {
                awaitLog(loader, "loader", waiting);
                loader.destroy();
                assertTrue(loader.waitFor(30, TimeUnit.SECONDS), "no exit after SIGTERM while waiting");
                String loaderSaid = read("loader");
                assertEquals(130, loader.exitValue(), loaderSaid);
                assertTrue(loaderSaid.contains("jdm: load of s1 stopped while waiting for its lease"), loaderSaid);
            } finally {
                loader.destroyForcibly();
            }
            assertTrue(owner.isAlive(), "the owner stopped");

            KeylessRows.insert(source, db, 100, 300);
            source.execute("UPDATE " + db + ".t SET b = CONCAT(b, 'u') WHERE a % 7 = 0",
                    "DELETE FROM " + db + ".t WHERE a % 11 = 0");
            KeylessRows.awaitSame(source, target, db);
            assertTrue(owner.isAlive(), "the owner stopped");
            String ownerStatus = status(ownerPort);
            assertTrue(ownerStatus.contains("\"readerReconnects\": 0"), ownerStatus);

            owner.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // SIGKILL: the lease row stays, for 2 minutes
            long killed = System.nanoTime();
            KeylessRows.insert(source, db, 300, 400);
            source.execute("UPDATE " + db + ".t SET b = CONCAT(b, 'k') WHERE a % 5 = 0");
            assertEquals(1, count(meta + ".`owner-one_owner` WHERE expires_at > UTC_TIMESTAMP(3) + INTERVAL 60 SECOND"),
                    "the killed owner's lease should still run");
            successor = start("successor", second, LEASE); // at once, as a restart does
            awaitSync(successor, second, "successor");
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
            assertTrue(seconds < 60, "the successor synced " + seconds + " s after the kill");
            String took = read("successor");
            assertTrue(took.contains("source s1: taking over the lease of " + HOST + " pid " + owner.pid()
                    + ", which no longer runs on this host"), took);
            assertFalse(took.contains("waiting for its lease"), took);
            assertNotEquals(serverId("owner"), serverId("successor"), "one task's processes share a server id");
            KeylessRows.awaitSame(source, target, db);
            successor.destroy();
            assertTrue(successor.waitFor(90, TimeUnit.SECONDS), "no exit after SIGTERM");
            assertEquals(0, successor.exitValue(), Files.readString(dir.resolve("successor.log")));
            assertEquals(0, count(meta + ".`owner-one_owner`"), "a clean stop gives the lease back");
        } finally {
            for (Process p : java.util.Arrays.asList(owner, refused, waiter, successor)) {
                if (p != null) {
                    p.destroyForcibly();
                }
            }
        }
    }

    private void awaitLog(Process p, String log, String part) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!read(log).contains(part)) {
            assertTrue(p.isAlive(), () -> "jdm exited: " + read(log));
            assertTrue(System.nanoTime() < deadline, () -> "never said '" + part + "': " + read(log));
            Thread.sleep(100);
        }
    }

    @Test
    void anOwnerWhoseLeaseIsTakenStopsWithOneLineBeforeApplyingMore() throws Exception {
        String db = "owner_lost";
        String meta = "jdm_meta_owner_lost";
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS " + meta);
        source.execute("CREATE TABLE " + db + ".t (a INT, b VARCHAR(20))");
        KeylessRows.insert(source, db, 0, 10);
        TaskConfig task = new TaskConfigLoader().load(taskFile("lost", "owner-lost", meta, db, 2));
        BackgroundTask run = BackgroundTask.start(new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE), "lost");
        try {
            SyncUnit sync = run.awaitSync(Duration.ofMinutes(2));
            assertTrue(sync != null, "sync never started: " + run.failure());
            KeylessRows.awaitSame(source, target, db);
            // another process takes the row over (as after an expiry this one did not notice)
            target.execute("UPDATE " + meta + ".`owner-lost_owner` SET token = 'other', owner_host = 'elsewhere'");
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (sync.failure().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            String said = sync.failure().map(Throwable::getMessage).orElse("still running");
            assertTrue(said.contains("another process took over the lease") && !said.contains("\n"), said);
            int before = count(db + ".t");
            KeylessRows.insert(source, db, 10, 20);
            assertTrue(run.stop(Duration.ofSeconds(60)), "the runner did not end");
            assertTrue(run.failure() != null && run.failure().getMessage().contains("took over the lease"),
                    "runner ended with " + run.failure());
            assertEquals(before, count(db + ".t"), "rows applied after the lease was lost");
            assertEquals("other", tokenOf(meta + ".`owner-lost_owner`"), "the new owner's row was touched");
        } finally {
            run.stop(Duration.ofSeconds(60));
        }
    }

    private String tokenOf(String table) throws Exception {
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT token FROM " + table)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Test
    void processesOfDifferentTasksOnOneSourceUseDifferentServerIdsAndKeepTheirStreams() throws Exception {
        String db1 = "owner_two_tasks1";
        String db2 = "owner_two_tasks2";
        for (String db : List.of(db1, db2)) {
            source.freshDatabase(db);
            target.execute("DROP DATABASE IF EXISTS " + db);
            source.execute("CREATE TABLE " + db + ".t (a INT PRIMARY KEY, b VARCHAR(20))");
            KeylessRows.insert(source, db, 0, 10);
        }
        target.execute("DROP DATABASE IF EXISTS jdm_meta_owner_two1", "DROP DATABASE IF EXISTS jdm_meta_owner_two2");
        Path one = taskFile("two-1", "owner-two1", "jdm_meta_owner_two1", db1, 2);
        Path two = taskFile("two-2", "owner-two2", "jdm_meta_owner_two2", db2, 2);
        Process p1 = start("task1", one);
        Process p2 = start("task2", two);
        try {
            int port1 = awaitSync(p1, one, "task1");
            int port2 = awaitSync(p2, two, "task2");
            long id1 = serverId("task1");
            long id2 = serverId("task2");
            assertNotEquals(id1, id2, "both readers present the same server id");
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            int n = 10;
            while (System.nanoTime() < until) {
                KeylessRows.insert(source, db1, n, n + 5);
                KeylessRows.insert(source, db2, n, n + 5);
                n += 5;
                Thread.sleep(200);
            }
            String s1 = status(port1);
            String s2 = status(port2);
            assertTrue(s1.contains("\"readerReconnects\": 0"), s1);
            assertTrue(s2.contains("\"readerReconnects\": 0"), s2);
            assertTrue(p1.isAlive() && p2.isAlive(), "a process stopped");
        } finally {
            p1.destroyForcibly();
            p2.destroyForcibly();
        }
    }

    private Path taskFile(String file, String name, String meta, String db, int workers) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        return Files.writeString(dir.resolve(file + ".yaml"), String.join("\n",
                "name: " + name,
                "task-mode: all",
                "meta-schema: " + meta,
                "status-addr: \"127.0.0.1:" + port + "\"",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [" + db + "]}}",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve(name + "-dump") + "\"}}",
                "syncers: {global: {worker-count: " + workers + ", checkpoint-flush-interval: 1}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
    }

    private Process start(String log, Path task) throws IOException {
        return start(log, task, LEASE);
    }

    private Process start(String log, Path task, List<String> jvm, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", task.toString()));
        args.addAll(List.of(more));
        return JdmChild.start(dir.resolve(log + ".log"), jvm, args.toArray(String[]::new));
    }

    /** Waits until the process streams the binlog; returns its status port. */
    private int awaitSync(Process p, Path task, String log) throws Exception {
        Matcher m = Pattern.compile("status-addr: \"127.0.0.1:(\\d+)\"").matcher(Files.readString(task));
        assertTrue(m.find());
        int port = Integer.parseInt(m.group(1));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        String status = "";
        while (System.nanoTime() < deadline && !status.contains("\"unit\": \"Sync\"")) {
            try {
                status = status(port);
            } catch (IOException e) {
                // not listening yet
            }
            assertTrue(p.isAlive(), () -> "jdm exited early: " + read(log));
            Thread.sleep(200);
        }
        assertTrue(status.contains("\"unit\": \"Sync\""), status);
        return port;
    }

    private String read(String log) {
        try {
            return Files.readString(dir.resolve(log + ".log"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static String status(int port) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/status")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private long serverId(String log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Pattern p = Pattern.compile("server id (\\d+)\\)");
        while (System.nanoTime() < deadline) {
            Matcher m = p.matcher(read(log));
            if (m.find()) {
                return Long.parseLong(m.group(1));
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no server id logged: " + read(log));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown-host";
        }
    }

    private int count(String from) throws Exception {
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + from)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
