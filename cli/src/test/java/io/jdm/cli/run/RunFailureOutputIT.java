package io.jdm.cli.run;

import io.jdm.cli.JdmChild;
import io.jdm.cli.TestTasks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdm run} as a real process whose sync writers all fail on the target: the user reads one
 * line saying what failed (no stack trace of each writer thread without --verbose) and a non-zero exit.
 */
class RunFailureOutputIT {
    @TempDir
    Path dir;

    @Test
    void failingWritersPrintOneLineAndNoStackTraces() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        source.freshDatabase("run_fail");
        target.execute("DROP DATABASE IF EXISTS run_fail", "DROP DATABASE IF EXISTS jdm_meta_fail");
        source.execute("CREATE TABLE run_fail.t (id INT PRIMARY KEY, v INT)", "INSERT INTO run_fail.t VALUES (1, 1)");
        Path task = dir.resolve("task.yaml");
        Files.writeString(task, String.join("\n",
                "name: run-fail",
                "task-mode: all",
                "meta-schema: jdm_meta_fail",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [run_fail]}}",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve("dump") + "\"}}",
                "syncers: {global: {worker-count: 8, batch: 1}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
        Path out = dir.resolve("out.log");
        Process p = JdmChild.start(out, "run", task.toString());
        try {
            RunSignalIT.waitForRow(target, "run_fail.t", 1);
            // every insert now fails on the target with an error no retry outlives
            target.execute("CREATE TRIGGER run_fail.refuse BEFORE INSERT ON run_fail.t FOR EACH ROW "
                    + "SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1644, MESSAGE_TEXT = 'refused by test trigger'");
            StringBuilder rows = new StringBuilder("INSERT INTO run_fail.t VALUES (2, 2)");
            for (int id = 3; id <= 200; id++) {
                rows.append(", (").append(id).append(", ").append(id).append(')');
            }
            source.execute(rows.toString());
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "jdm did not stop after its writers failed");
        } finally {
            p.destroyForcibly();
        }
        String log = Files.readString(out);
        assertEquals(1, p.exitValue(), log);
        assertFalse(log.contains("Exception in thread"), log);
        assertFalse(log.lines().anyMatch(l -> l.startsWith("\tat ") || l.startsWith("Caused by")), log);
        List<String> jdmLines = log.lines().filter(l -> l.startsWith("jdm: ")).toList();
        assertEquals(1, jdmLines.size(), log);
        assertTrue(jdmLines.get(0).contains("refused by test trigger"), log);
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM run_fail.t")) {
            rs.next();
            assertEquals(1, rs.getInt(1), "nothing applied past the failure");
        }
    }

    @Test
    void aRowChangeLoggedAsAStatementEndsTheRunInOneLine() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        source.freshDatabase("run_stmt");
        target.execute("DROP DATABASE IF EXISTS run_stmt", "DROP DATABASE IF EXISTS jdm_meta_stmt");
        source.execute("CREATE TABLE run_stmt.t (id INT PRIMARY KEY, v INT)", "INSERT INTO run_stmt.t VALUES (1, 1)");
        Path task = TestTasks.allMode(dir, "run-stmt", "jdm_meta_stmt", source, target, "run_stmt");
        Path out = dir.resolve("stmt.log");
        Process p = JdmChild.start(out, "run", task.toString());
        try {
            RunSignalIT.waitForRow(target, "run_stmt.t", 1);
            source.execute("INSERT INTO run_stmt.t VALUES (2, 2)");
            RunSignalIT.waitForRow(target, "run_stmt.t", 2);
            try (Connection c = source.connect(); Statement st = c.createStatement()) {
                st.execute("SET SESSION binlog_format = STATEMENT");
                st.execute("UPDATE run_stmt.t SET v = 20 WHERE id = 2");
            }
            source.execute("INSERT INTO run_stmt.t VALUES (3, 3)");
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "jdm did not stop at the statement");
        } finally {
            p.destroyForcibly();
        }
        String log = Files.readString(out);
        assertTrue(p.exitValue() != 0, log);
        List<String> jdmLines = log.lines().filter(l -> l.startsWith("jdm: ")).toList();
        assertEquals(1, jdmLines.size(), log);
        assertTrue(jdmLines.get(0).contains("sync: the UPDATE at ") && jdmLines.get(0).contains(
                "was logged as a statement, not as row events (its session ran with binlog_format STATEMENT or MIXED)"),
                log);
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT GROUP_CONCAT(id, '=', v ORDER BY id) FROM run_stmt.t")) {
            rs.next();
            assertEquals("1=1,2=2", rs.getString(1), "nothing applied past the statement");
        }
    }

    @Test
    void aStatusAddressInUseEndsTheRunAtOnceInOneLine() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path task = dir.resolve("busy.yaml");
            Files.writeString(task, String.join("\n",
                    "name: run-busy",
                    "task-mode: incremental",
                    "meta-schema: jdm_meta_busy",
                    "status-addr: 127.0.0.1:" + taken.getLocalPort(),
                    "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                    "mysql-instances:",
                    "  - source-id: s1",
                    "    meta: {binlog-name: mysql-bin.000001, binlog-pos: 4}",
                    "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                    ""));
            Path out = dir.resolve("busy.log");
            long t0 = System.nanoTime();
            Process p = JdmChild.start(out, "run", task.toString());
            try {
                assertTrue(p.waitFor(50, TimeUnit.SECONDS), "jdm waited for a run that never began");
            } finally {
                p.destroyForcibly();
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
            String log = Files.readString(out);
            assertTrue(p.exitValue() != 0, log);
            assertEquals(1, log.lines().filter(l -> l.startsWith("jdm: ")).count(), log);
            assertTrue(seconds < 40, "took " + seconds + " s: " + log);
        } finally {
            target.execute("DROP DATABASE IF EXISTS jdm_meta_busy");
        }
    }
}
