package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.JdmCommandLineTest.Run;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jdm check} end to end: the shipped example task file pointed at the embedded pair, and bad input. */
class CheckCommandIT {
    private static SqlServer source;
    private static SqlServer target;

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
        source.freshDatabase("shop");
        source.execute("CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, total DECIMAL(10,2))");
    }

    /** conf/task-all.yaml with the ports of the embedded servers written in. */
    private Path exampleTask(int sourcePort, int targetPort) throws Exception {
        String yaml = Files.readString(Path.of("..", "conf", "task-all.yaml"))
                .replace("${JDM_SOURCE_PORT:-3306}", String.valueOf(sourcePort))
                .replace("${JDM_TARGET_PORT:-4000}", String.valueOf(targetPort));
        Path f = dir.resolve("task.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void exampleTaskPassesAgainstTheEmbeddedPair() throws Exception {
        Run r = JdmCommandLineTest.run("check", exampleTask(source.port(), target.port()).toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("binlog_format") && r.out().contains("pass"), r.out());
        assertTrue(r.out().contains("0 failed"), r.out());
    }

    @Test
    void routesMergingAutoIncrementKeysWarnWithoutFailing() throws Exception {
        source.freshDatabase("chk_s1");
        source.freshDatabase("chk_s2");
        source.execute("CREATE TABLE chk_s1.t (id INT AUTO_INCREMENT PRIMARY KEY)",
                "CREATE TABLE chk_s2.t (id INT AUTO_INCREMENT PRIMARY KEY)");
        Path f = dir.resolve("merge.yaml");
        Files.writeString(f, String.join("\n",
                "name: check-merge",
                "task-mode: all",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [\"~^chk_s\"]}}",
                "routes:",
                "  tables: {schema-pattern: \"chk_s*\", table-pattern: t, target-schema: chk_all, target-table: t}",
                "  schema: {schema-pattern: \"chk_s*\", target-schema: chk_all}",
                "mydumpers: {global: {dir: \"" + dir.resolve("dump") + "\"}}",
                "mysql-instances:",
                "  - source-id: mysql-01",
                "    block-allow-list: only",
                "    route-rules: [tables, schema]",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
        Run r = JdmCommandLineTest.run("check", f.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().matches("(?s).*auto_increment_ID\\s+target\\s+warn\\s+target table chk_all\\.t merges 2 "
                + "shards.*mysql-01 chk_s1\\.t key PRIMARY \\(id\\), mysql-01 chk_s2\\.t key PRIMARY \\(id\\).*"),
                r.out());
    }

    /** The directory the task loads from, looked at before the task runs: who but its owner may write it. */
    @Test
    void aDumpDirectoryOthersMayWriteIsAWarning() throws Exception {
        Path dump = dir.resolve("dump");
        Path task = dir.resolve("full.yaml");
        Files.writeString(task, String.join("\n",
                "name: check-dump-dir",
                "task-mode: full",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [shop]}}",
                "mydumpers: {global: {dir: \"" + dump + "\"}}",
                "mysql-instances:",
                "  - source-id: mysql-01",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
        Run r = JdmCommandLineTest.run("check", task.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().matches("(?s).*dump_dir_permission\\s+source mysql-01\\s+pass\\s+" + Pattern.quote(dump
                + " does not exist yet") + ".*"), r.out());

        Files.createDirectory(dump, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path metadata = Files.writeString(dump.resolve("metadata"), "Started dump at: 2026-01-01 00:00:00\n");
        Files.setPosixFilePermissions(metadata, PosixFilePermissions.fromString("rw-------"));
        r = JdmCommandLineTest.run("check", task.toString());
        assertTrue(r.out().matches("(?s).*dump_dir_permission\\s+source mysql-01\\s+pass\\s+" + Pattern.quote(dump
                + " and its files can be written by their owner only") + ".*"), r.out());

        Files.setPosixFilePermissions(metadata, PosixFilePermissions.fromString("rw-rw----"));
        r = JdmCommandLineTest.run("check", task.toString());
        assertEquals(0, r.code(), "a warning: " + r.out() + r.err());
        assertTrue(r.out().matches("(?s).*dump_dir_permission\\s+source mysql-01\\s+warn\\s+" + Pattern.quote(
                "group or others may write " + metadata + ", so another user could change the dump before it is"
                        + " loaded: chmod go-w them") + ".*"), r.out());

        Files.writeString(task, Files.readString(task).replace("task-mode: full", "task-mode: incremental"));
        r = JdmCommandLineTest.run("check", task.toString());
        assertFalse(r.out().contains("dump_dir_permission"), "no load, no item: " + r.out());
    }

    /** The task's name is the checkpoint's: rows in a keyless target table that checkpoint has not begun fail. */
    @Test
    void aKeylessTargetTableHoldingRowsTheTaskDidNotLoadFails() throws Exception {
        source.freshDatabase("chk_held");
        source.execute("CREATE TABLE chk_held.t (v VARCHAR(10))");
        target.freshDatabase("chk_held");
        target.execute("CREATE TABLE chk_held.t (v VARCHAR(10))", "INSERT INTO chk_held.t VALUES ('old')");
        Path task = dir.resolve("held.yaml");
        Files.writeString(task, String.join("\n",
                "name: check-held",
                "task-mode: full",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [chk_held]}}",
                "mydumpers: {global: {dir: \"" + dir.resolve("dump") + "\"}}",
                "mysql-instances:",
                "  - source-id: mysql-01",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
        Run r = JdmCommandLineTest.run("check", task.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().matches("(?s).*downstream_table_empty\\s+target\\s+fail\\s+" + Pattern.quote(
                "target table `chk_held`.`t` holds rows that no load of this task wrote (its checkpoint"
                        + " `jdm_meta`.`check-held_loader_checkpoint` shows none of its files begun)") + ".*"), r.out());

        target.execute("TRUNCATE TABLE chk_held.t");
        r = JdmCommandLineTest.run("check", task.toString());
        assertTrue(r.out().matches("(?s).*downstream_table_empty\\s+target\\s+pass.*"), r.out());
    }

    @Test
    void jsonOutputForMachines() throws Exception {
        Run r = JdmCommandLineTest.run("check", "--json", exampleTask(source.port(), target.port()).toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\"result\" : \"pass\""), r.out());
        assertTrue(r.out().contains("\"item\" : \"replication_privilege\""), r.out());
    }

    @Test
    void unreachableSourceFailsWithOneLineAndExitOne() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Run r = JdmCommandLineTest.run("check", exampleTask(closed, target.port()).toString());
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("no answer from 127.0.0.1:" + closed), r.out());
        assertFalse((r.out() + r.err()).contains("\tat "), "no stack trace");
    }

    @Test
    void malformedYamlGivesLineAndColumnAndExitTwo() throws Exception {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, "name: t\ntask-mode: [full\n");
        Run r = JdmCommandLineTest.run("check", f.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().matches("(?s).*bad\\.yaml:\\d+:\\d+.*"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void unknownKeyIsNamedWithASuggestion() throws Exception {
        String yaml = Files.readString(exampleTask(source.port(), target.port()))
                .replace("    worker-count: 16", "    worker-cont: 16");
        Path f = dir.resolve("typo.yaml");
        Files.writeString(f, yaml);
        Run r = JdmCommandLineTest.run("check", f.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("syncers.global.worker-cont: unknown key (did you mean worker-count?)"), r.err());
    }

    @Test
    void outOfRangeValuesAreAllReportedAtOnce() throws Exception {
        String yaml = Files.readString(exampleTask(source.port(), target.port()))
                .replace("    worker-count: 16", "    worker-count: 1025")
                .replace("    pool-size: 16", "    pool-size: 5000");
        Path f = dir.resolve("range.yaml");
        Files.writeString(f, yaml);
        Run r = JdmCommandLineTest.run("check", f.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("syncers.global.worker-count: must be 1..1024, got 1025"), r.err());
        assertTrue(r.err().contains("loaders.global.pool-size: must be 1..1024, got 5000"), r.err());
    }

    @Test
    void missingTaskFileIsAUsageError() {
        Run r = JdmCommandLineTest.run("check", dir.resolve("nope.yaml").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("does not exist"), r.err());
    }

    @Test
    void passwordNeverAppearsInOutput() throws Exception {
        String yaml = Files.readString(exampleTask(source.port(), target.port()))
                .replace("\"${JDM_SOURCE_PASSWORD:-}\"", "\"S3cret-Pw\"");
        Path f = dir.resolve("pw.yaml");
        Files.writeString(f, yaml);
        Run r = JdmCommandLineTest.run("check", f.toString());
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("access denied for root"), r.out());
        assertFalse((r.out() + r.err()).contains("S3cret-Pw"));
    }
}
