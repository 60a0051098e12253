package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JdmCommandLineTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Jdm.execute(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** DM's full_mode task with its two source files; the hosts in them point at nothing listening. */
    @Test
    void checkReadsDmTaskAndSourceFilesPastConfigParsing() {
        String dir = "../common/src/test/resources/dm-files/full_mode/";
        Run r = run("check", "--source", dir + "source1.yaml", "--source", dir + "source2.yaml", dir + "dm-task.yaml");
        assertTrue(r.code() != 2, r.err());
        assertFalse(r.err().contains("the task file has"), r.err());
        String warning = "jdm: warning: is-sharding: DM's switch before shard-mode; false is the default; ignored";
        assertEquals(1, r.err().split(java.util.regex.Pattern.quote(warning), -1).length - 1, r.err());
    }

    /** Before anything connects: an id the task lacks is one line naming those it has, exit 2. */
    @Test
    void anUnknownSourceIdIsOneLineNamingTheTasksSourceIds() {
        String dir = "../common/src/test/resources/dm-files/full_mode/";
        for (String command : new String[] {"run", "sync", "dump", "load", "check", "verify"}) {
            Run r = run(command, "--source", dir + "source1.yaml", "--source", dir + "source2.yaml",
                    "--source-id", "mysql-replica-01", "--source-id", "mysql-replica-09", dir + "dm-task.yaml");
            assertEquals(2, r.code(), command + ": " + r.err());
            String line = "jdm: --source-id mysql-replica-09: task test has no such source; its source ids are "
                    + "mysql-replica-01, mysql-replica-02";
            assertTrue(r.err().contains(line + "\n") || r.err().contains(line + "\r\n"), command + ": " + r.err());
            assertEquals(1, r.err().lines().filter(l -> !l.startsWith("jdm: warning:")).count(), command + ": " + r.err());
        }
    }

    /** Before anything connects: a --lease-wait that is not a duration is one line, exit 2. */
    @Test
    void aLeaseWaitThatIsNotADurationIsAUsageError() {
        for (String command : new String[] {"run", "sync", "load"}) {
            Run r = run(command, "--lease-wait", "soon", "no-such-task.yaml");
            assertEquals(2, r.code(), command + ": " + r.err());
            assertTrue(r.err().startsWith("jdm: ") && r.err().contains("--lease-wait")
                    && r.err().contains("must be a duration such as 90s or 10m, or 0 to refuse at once, got 'soon'"),
                    command + ": " + r.err());
        }
        Run help = run("run", "--help");
        assertTrue(help.out().contains("--lease-wait=DURATION"), help.out());
    }

    @Test
    void unknownSubcommandIsAUsageError() {
        Run r = run("frobnicate");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("frobnicate"), r.err());
    }

    @Test
    void helpListsEverySubcommand() {
        Run r = run("--help");
        assertEquals(0, r.code());
        for (String sub : new String[] {"check", "dump", "load", "sync", "run", "status", "verify", "bench", "demo",
                "pause-task", "resume-task", "stop-task", "binlog"}) {
            assertTrue(r.out().contains(sub), sub + " missing from help: " + r.out());
        }
    }

    @Test
    void binlogWithoutAnOperationOrWithABadPositionIsOneLine() {
        Run r = run("binlog");
        assertEquals(2, r.code());
        assertEquals("jdm: binlog: give an operation: jdm binlog skip|replace|inject|list|revert TASK.yaml", r.err().strip());
        Run help = run("binlog", "replace", "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().contains("--binlog-pos=FILE:POS") && help.out().contains("--sql=STATEMENTS"), help.out());
        Run bad = run("binlog", "skip", "no-such-task.yaml", "-b", "mysql-bin.000001:x");
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("jdm: --binlog-pos: must be FILE:POS"), bad.err());
        Run noTask = run("binlog", "list", "no-such-task.yaml");
        assertEquals(2, noTask.code());
        assertEquals("jdm: task file no-such-task.yaml does not exist or is not a file", noTask.err().strip());
    }

    @Test
    void versionPrintsAVersion() {
        Run r = run("--version");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("jdm "), r.out());
    }

    @Test
    void dmctlNamesRunTheSameCommands() {
        for (String[] alias : new String[][] {{"start-task", "TASK.yaml"}, {"check-task", "TASK.yaml"},
                {"query-status", "--address"}}) {
            Run r = run(alias[0], "--help");
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains(alias[1]), r.out());
        }
    }

    @Test
    void queryStatusWithNothingRunningSaysSoInOneLine() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        Run r = run("query-status", "--address", "127.0.0.1:" + port);
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("jdm: no jdm answers at 127.0.0.1:" + port), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void aTokenFileThatIsNotThereIsOneLineBeforeAnythingIsSent() {
        Run r = run("stop-task", "--address", "127.0.0.1:1", "--token-file", "no/such/token");
        assertEquals(2, r.code());
        assertEquals("jdm: --token-file no/such/token: no such file\n", r.err());
    }

    @Test
    void noStackTraceWithoutVerbose() {
        Run r = run("status", "--no-such-flag");
        assertEquals(2, r.code());
        assertFalse(r.err().contains("\tat "), r.err());
    }
}
