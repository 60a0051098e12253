package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.JdmCommandLineTest.Run;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dmctl's {@code binlog skip|replace|list|revert} against real {@code jdm run} processes. The target
 * refuses a DDL because it holds a CHECK constraint of its own with the name the source's ALTER adds
 * (MariaDB 1826, not an "already done" error): the task stops with the position, an operator is
 * written with the command line, and the next run goes past the statement, rows after it arriving
 * byte for byte. A later statement with the same text is applied (an operator names a position,
 * not a text), an operator is applied once and {@code list} shows it done.
 */
class BinlogOperatorIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern REFUSED = Pattern.compile("refused the DDL at (\\S+:\\d+)");
    private static final String ADD_CHECK = "ALTER TABLE t ADD CONSTRAINT n_range CHECK (n < 1000000)";

    @TempDir
    Path dir;

    private final SqlServer source = TestServers.shared().source();
    private final SqlServer target = TestServers.shared().target();

    @Test
    void skipPassesTheRefusedDdlOnceAndTheSameTextLaterIsApplied() throws Exception {
        String db = "binlogop_skip";
        Path task = prepare(db, "binlogop-skip", "jdm_meta_binlogop_skip");
        String at = runUntilRefused(task, db, "first");

        JsonNode listed = list(task);
        assertEquals(0, listed.path("operators").size(), listed.toString());
        assertEquals(at, listed.path("stoppedAt").path(0).path("binlogPos").asText(), listed.toString());
        assertTrue(listed.path("stoppedAt").path(0).path("statement").asText().contains("n_range"), listed.toString());

        // the process has exited: query-status says so and shows what the target holds, the refused DDL included
        JsonNode exited = stoppedStatus(task);
        JsonNode own = subTask(exited).path("jdm");
        assertEquals(at, own.path("stoppedAt").path("binlogPos").asText(), exited.toString());
        assertEquals(ADD_CHECK.replace("ALTER TABLE t", "ALTER TABLE `" + db + "`.`t`"),
                own.path("stoppedAt").path("statement").asText(), exited.toString());
        // with the target's error, kept in the stage table when the sync stopped
        assertTrue(own.path("stoppedAt").path("errorCode").asInt() > 0, exited.toString());
        assertTrue(own.path("stoppedAt").path("error").asText().contains("n_range"), exited.toString());
        assertEquals("stopped", own.path("stoppedAt").path("state").asText(), exited.toString());
        assertTrue(exited.path("sources").path(0).path("msg").asText().contains("where the target refused"),
                exited.toString());
        assertTrue(own.path("checkpoint").asText().startsWith(at), exited.toString());
        assertEquals(0, own.path("operators").size(), exited.toString());

        Run skip = JdmCommandLineTest.run("binlog", "skip", task.toString());
        assertEquals(0, skip.code(), skip.err());
        assertTrue(skip.out().contains("the statement at " + at + " (") && skip.out().contains("is skipped"),
                skip.out());
        JsonNode waiting = list(task).path("operators").path(0);
        assertEquals(List.of("s1", at, "skip", "waiting"), List.of(waiting.path("source").asText(),
                waiting.path("binlogPos").asText(), waiting.path("op").asText(), waiting.path("state").asText()));
        JsonNode queued = subTask(stoppedStatus(task)).path("jdm").path("operators").path(0);
        assertEquals(List.of(at, "skip", "waiting"), List.of(queued.path("binlogPos").asText(),
                queued.path("op").asText(), queued.path("state").asText()), queued.toString());
        Run text = JdmCommandLineTest.run("query-status", "--text", task.toString());
        assertTrue(text.out().contains("stopped at  " + at) && text.out().contains("binlog skip at " + at
                + ": waiting"), text.out());

        Process second = start(task, "second");
        try {
            awaitSameRows(db, second, "second");
            refusedRowsShowWhileRetried(db, task, second);
            JsonNode passed = awaitStatus(task, second, "second", s -> subTask(s).path("jdm").path("operators")
                    .path(0).path("state").asText().equals("done")); // the sync reads its operators every 2 s
            assertTrue(subTask(passed).path("jdm").path("stoppedAt").isNull(), passed.toString());
            // the target drops its own constraint, then gets the source's: the same text as the skipped ALTER
            source.execute("USE " + db, "ALTER TABLE t DROP CONSTRAINT n_range", ADD_CHECK);
            insert(db, 30, 40);
            awaitSameRows(db, second, "second");
            assertEquals(showCreate(source, db), showCreate(target, db), "the later ALTER with the same text ran");
            JsonNode done = list(task);
            assertEquals("done", done.path("operators").path(0).path("state").asText(), done.toString());
            assertTrue(done.path("operators").path(0).path("applied").isTextual(), done.toString());
            assertEquals(0, done.path("stoppedAt").size(), done.toString());
            stop(second, "second");
        } finally {
            second.destroyForcibly();
        }
        assertEquals(1, count(read("second"), "binlog skip at " + at), read("second"));
    }

    @Test
    void replaceRunsOtherStatementsOnceAndRevertDeletesAWaitingOperator() throws Exception {
        String db = "binlogop_replace";
        Path task = prepare(db, "binlogop-replace", "jdm_meta_binlogop_replace");
        String at = runUntilRefused(task, db, "first");

        Run skip = JdmCommandLineTest.run("binlog", "skip", task.toString());
        assertEquals(0, skip.code(), skip.err());
        Run revert = JdmCommandLineTest.run("binlog", "revert", task.toString(), "--binlog-pos", at);
        assertEquals(0, revert.code(), revert.err());
        assertEquals(0, list(task).path("operators").size());
        Run again = JdmCommandLineTest.run("binlog", "revert", task.toString());
        assertEquals(2, again.code(), again.out());
        assertTrue(again.err().startsWith("jdm: binlog revert: no operator waits at " + at), again.err());

        Run badPos = JdmCommandLineTest.run("binlog", "skip", task.toString(), "--binlog-pos", "mysql-bin.000001");
        assertEquals(2, badPos.code(), badPos.out());
        assertTrue(badPos.err().startsWith("jdm: --binlog-pos: must be FILE:POS"), badPos.err());
        Run noSql = JdmCommandLineTest.run("binlog", "replace", task.toString(), "--sql", " ; /* none */ ");
        assertEquals(2, noSql.code(), noSql.out());
        assertTrue(noSql.err().startsWith("jdm: --sql: no statement in"), noSql.err());

        // the statement's own QUERY event, as SHOW BINLOG EVENTS lists it, names it as well as its transaction's start
        String query = queryEvent(at);
        Run replace = JdmCommandLineTest.run("binlog", "replace", task.toString(), "-b", query, "--source-id", "s1",
                "--sql", "ALTER TABLE t DROP CONSTRAINT n_range; " + ADD_CHECK);
        assertEquals(0, replace.code(), replace.err());
        assertTrue(replace.out().contains("is replaced by 2 statements"), replace.out());

        Process second = start(task, "second");
        try {
            awaitSameRows(db, second, "second");
            assertEquals(showCreate(source, db), showCreate(target, db), "the replacing statements ran");
            insert(db, 30, 40);
            awaitSameRows(db, second, "second");
            stop(second, "second");
        } finally {
            second.destroyForcibly();
        }
        JsonNode done = list(task).path("operators").path(0);
        assertEquals("done", done.path("state").asText(), done.toString());
        assertEquals(2, done.path("sqls").size(), done.toString());
        assertEquals(query, done.path("binlogPos").asText(), done.toString());
        assertEquals(1, count(read("second"), "binlog replace at " + query), read("second"));

        Run late = JdmCommandLineTest.run("binlog", "skip", task.toString(), "--binlog-pos", query);
        assertEquals(2, late.code(), late.out());
        assertTrue(late.err().contains("was applied at"), late.err());

        Process third = start(task, "third"); // a restart after it: not applied a second time
        try {
            insert(db, 40, 50);
            awaitSameRows(db, third, "third");
            stop(third, "third");
        } finally {
            third.destroyForcibly();
        }
        assertEquals(0, count(read("third"), "binlog replace at"), read("third"));
        assertEquals(done.path("applied").asText(), list(task).path("operators").path(0).path("applied").asText());
        assertEquals(showCreate(source, db), showCreate(target, db));
    }

    /**
     * {@code handle-error … inject}, DM's older verb: the target's own constraint is dropped right
     * before the refused ALTER, which then runs as the source ran it.
     */
    @Test
    void injectRunsStatementsBeforeTheRefusedDdlWhichThenRuns() throws Exception {
        String db = "binlogop_inject";
        Path task = prepare(db, "binlogop-inject", "jdm_meta_binlogop_inject");
        String at = runUntilRefused(task, db, "first");

        Run none = JdmCommandLineTest.run("handle-error", task.toString(), "inject");
        assertEquals(2, none.code(), none.out());
        assertTrue(none.err().startsWith("jdm: handle-error inject: give the statements"), none.err());
        Run inject = JdmCommandLineTest.run("handle-error", task.toString(), "inject",
                "ALTER TABLE t DROP CONSTRAINT n_range");
        assertEquals(0, inject.code(), inject.err());
        assertTrue(inject.out().contains("the statement at " + at + " (") && inject.out().contains("gets 1 statement "
                + "run before it"), inject.out());
        JsonNode waiting = list(task).path("operators").path(0);
        assertEquals("inject", waiting.path("op").asText(), waiting.toString());

        Process second = start(task, "second");
        try {
            awaitSameRows(db, second, "second");
            assertEquals(showCreate(source, db), showCreate(target, db),
                    "the target's constraint dropped, then the source's ALTER ran");
            insert(db, 30, 40);
            awaitSameRows(db, second, "second");
            stop(second, "second");
        } finally {
            second.destroyForcibly();
        }
        assertEquals("done", list(task).path("operators").path(0).path("state").asText());
        assertEquals(1, count(read("second"), "binlog inject at " + at), read("second"));
    }

    /**
     * An operator written while the task runs (paused here, so the statement waits behind the
     * reader) is read within seconds and applied when the statement comes: no restart, no stop.
     */
    @Test
    void anOperatorWrittenWhileTheTaskRunsIsTakenWithoutARestart() throws Exception {
        String db = "binlogop_running";
        Path task = prepare(db, "binlogop-running", "jdm_meta_binlogop_running");
        Process first = start(task, "first");
        try {
            awaitSameRows(db, first, "first");
            long syncing = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!read("first").contains("-> sync") && System.nanoTime() < syncing) {
                Thread.sleep(100); // the load's rows are in before its unit ends: pause the sync, not the load
            }
            assertTrue(read("first").contains("-> sync"), read("first"));
            target.execute("ALTER TABLE " + db + ".t ADD CONSTRAINT n_range CHECK (n >= 0)");
            assertEquals(0, JdmCommandLineTest.run("pause-task", task.toString()).code());
            source.execute("USE " + db, ADD_CHECK);
            String file = source.rows("SHOW MASTER STATUS").get(0).split("\\|")[0];
            String at = null;
            for (String row : source.rows("SHOW BINLOG EVENTS IN '" + file + "'")) {
                String[] cols = row.split("\\|", -1);
                if (cols[2].equals("Query") && cols[5].contains("n_range CHECK (n < 1000000)")) {
                    at = file + ":" + cols[1];
                }
            }
            assertNotNull(at, "the ALTER's QUERY event");
            Run skip = JdmCommandLineTest.run("binlog", "skip", task.toString(), "--binlog-pos", at);
            assertEquals(0, skip.code(), skip.err());
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!read("first").contains("binlog skip now waits at " + at) && System.nanoTime() < until) {
                Thread.sleep(200);
            }
            assertTrue(read("first").contains("binlog skip now waits at " + at), read("first"));
            assertEquals(0, JdmCommandLineTest.run("resume-task", task.toString()).code());
            insert(db, 20, 30);
            awaitSameRows(db, first, "first");
            assertEquals("done", list(task).path("operators").path(0).path("state").asText());
            stop(first, "first");
        } finally {
            first.destroyForcibly();
        }
    }

    /**
     * A replace written while the statement waits behind a paused reader, then kill -9 before the
     * statement arrives: the restart applies the replacing statements once, and the table ends as
     * the source's.
     */
    @Test
    void aReplaceSurvivesAKillBeforeItsStatementArrives() throws Exception {
        String db = "binlogop_killed";
        Path task = prepare(db, "binlogop-killed", "jdm_meta_binlogop_killed");
        Process first = start(task, "first");
        String at = null;
        try {
            awaitSameRows(db, first, "first");
            long syncing = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!read("first").contains("-> sync") && System.nanoTime() < syncing) {
                Thread.sleep(100); // the load's rows are in before its unit ends: pause the sync, not the load
            }
            assertTrue(read("first").contains("-> sync"), read("first"));
            target.execute("ALTER TABLE " + db + ".t ADD CONSTRAINT n_range CHECK (n >= 0)");
            assertEquals(0, JdmCommandLineTest.run("pause-task", task.toString()).code());
            source.execute("USE " + db, ADD_CHECK);
            String file = source.rows("SHOW MASTER STATUS").get(0).split("\\|")[0];
            for (String row : source.rows("SHOW BINLOG EVENTS IN '" + file + "'")) {
                String[] cols = row.split("\\|", -1);
                if (cols[2].equals("Query") && cols[5].contains("n_range CHECK (n < 1000000)")) {
                    at = file + ":" + cols[1];
                }
            }
            assertNotNull(at, "the ALTER's QUERY event");
            Run replace = JdmCommandLineTest.run("binlog", "replace", task.toString(), "--binlog-pos", at, "--sql",
                    "ALTER TABLE t DROP CONSTRAINT n_range; " + ADD_CHECK);
            assertEquals(0, replace.code(), replace.err());
        } finally {
            first.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // kill -9, the statement not yet read
        }
        insert(db, 20, 30);
        Process second = start(task, "second");
        try {
            // the pause outlived the kill: the restart starts paused until resume-task
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (JdmCommandLineTest.run("resume-task", task.toString()).code() != 0 && System.nanoTime() < until) {
                assertTrue(second.isAlive(), () -> "jdm exited: " + read("second"));
                Thread.sleep(500);
            }
            awaitSameRows(db, second, "second");
            assertEquals(showCreate(source, db), showCreate(target, db), "the replacing statements ran");
            assertEquals("done", list(task).path("operators").path(0).path("state").asText());
            stop(second, "second");
        } finally {
            second.destroyForcibly();
        }
        assertEquals(1, count(read("second"), "binlog replace at " + at), read("second"));
    }

    /**
     * A statement the reader stops at, not a DDL the target refused: an UPDATE logged as a statement
     * (binlog_format MIXED) after a row event of its transaction. The failure line names its QUERY
     * event, which the skip takes; the row event before it in the transaction is applied.
     */
    @Test
    void aStatementInsideATransactionIsSkippedAtItsQueryEvent() throws Exception {
        String db = "binlogop_stmt";
        Path task = prepare(db, "binlogop-stmt", "jdm_meta_binlogop_stmt");
        Process first = start(task, "first");
        try {
            awaitSameRows(db, first, "first");
            try (Connection c = source.connect(); Statement st = c.createStatement()) {
                st.execute("SET SESSION binlog_format = MIXED");
                st.execute("BEGIN");
                st.execute("UPDATE " + db + ".t SET v = LEFT(UUID(), 8) WHERE id = 3"); // UUID(): logged as rows
                st.execute("UPDATE " + db + ".t SET n = n + 1 WHERE id = 1"); // logged as the statement
                st.execute("COMMIT");
            }
            insert(db, 20, 30);
            assertTrue(first.waitFor(2, TimeUnit.MINUTES), "jdm did not stop at the statement");
            assertEquals(1, first.exitValue(), read("first"));
        } finally {
            first.destroyForcibly();
        }
        Matcher m = Pattern.compile("jdm binlog skip TASK.yaml --binlog-pos (\\S+:\\d+)\\)").matcher(read("first"));
        assertTrue(m.find(), read("first"));
        String query = m.group(1);

        Run noPosition = JdmCommandLineTest.run("binlog", "skip", task.toString());
        assertEquals(2, noPosition.code(), noPosition.out());
        assertTrue(noPosition.err().startsWith("jdm: binlog skip: task binlogop-stmt (source s1) is not stopped at a "
                + "DDL the target refused; give the position its failure line names: --binlog-pos FILE:POS"),
                noPosition.err());
        Run skip = JdmCommandLineTest.run("binlog", "skip", task.toString(), "--binlog-pos", query);
        assertEquals(0, skip.code(), skip.err());
        target.execute("UPDATE " + db + ".t SET n = n + 1 WHERE id = 1"); // by hand, as the failure line says

        Process second = start(task, "second");
        try {
            awaitSameRows(db, second, "second");
            stop(second, "second");
        } finally {
            second.destroyForcibly();
        }
        assertEquals(1, count(read("second"), "binlog skip at " + query), read("second"));
    }

    /**
     * A trigger on the target refuses the rows of one transaction with a lock wait timeout, which a
     * writer retries: query-status shows the transaction's position, what it is and the target's
     * error while it does, and nothing once the trigger is gone and the rows are in.
     */
    private void refusedRowsShowWhileRetried(String db, Path task, Process p) throws Exception {
        target.execute("CREATE TRIGGER " + db + ".refuse BEFORE INSERT ON " + db + ".t FOR EACH ROW "
                + "SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1205, MESSAGE_TEXT = 'refused by a trigger'");
        String[] master = source.rows("SHOW MASTER STATUS").get(0).split("\\|");
        try {
            insert(db, 100, 105);
            JsonNode s = awaitStatus(task, p, "second", q -> subTask(q).path("jdm").path("stoppedAt").isObject());
            JsonNode at = subTask(s).path("jdm").path("stoppedAt");
            assertEquals(master[0] + ":" + master[1], at.path("binlogPos").asText(), at.toString());
            assertEquals("retrying", at.path("state").asText(), at.toString());
            assertEquals(1205, at.path("errorCode").asInt(), at.toString());
            assertTrue(at.path("error").asText().contains("refused by a trigger"), at.toString());
            // the rows go to both writers by key: each retries its part
            assertTrue(at.path("statement").asText().matches("[1-5] change\\(s\\) starting with INSERT on " + db
                    + "\\.t key \\(id=10[0-4]\\)"), at.toString());
            Run text = JdmCommandLineTest.run("query-status", "--text", task.toString());
            assertTrue(text.out().contains("retrying    " + master[0] + ":" + master[1]) && text.out().contains(
                    "error       (1205) refused by a trigger"), text.out());
        } finally {
            target.execute("DROP TRIGGER IF EXISTS " + db + ".refuse");
        }
        awaitSameRows(db, p, "second");
        JsonNode passed = awaitStatus(task, p, "second", q -> subTask(q).path("jdm").path("stoppedAt").isNull());
        assertEquals("Running", subTask(passed).path("stage").asText(), passed.toString());
    }

    /**
     * Rows the target refuses outright (not retried) end the task; query-status after the exit shows
     * where, what and the target's error, kept in the stage table, and nothing once a restart has
     * passed them.
     */
    @Test
    void refusedRowsAreShownAfterTheTaskExited() throws Exception {
        String db = "binlogop_rows";
        Path task = prepare(db, "binlogop-rows", "jdm_meta_binlogop_rows");
        Process first = start(task, "first");
        try {
            awaitSameRows(db, first, "first");
            target.execute("CREATE TRIGGER " + db + ".refuse BEFORE INSERT ON " + db + ".t FOR EACH ROW "
                    + "SIGNAL SQLSTATE '45000' SET MYSQL_ERRNO = 1644, MESSAGE_TEXT = 'refused for good'");
            insert(db, 100, 101);
            assertTrue(first.waitFor(2, TimeUnit.MINUTES), "jdm did not stop at the refused rows");
            assertEquals(1, first.exitValue(), read("first"));
        } finally {
            first.destroyForcibly();
            target.execute("DROP TRIGGER IF EXISTS " + db + ".refuse");
        }
        JsonNode exited = stoppedStatus(task);
        JsonNode at = subTask(exited).path("jdm").path("stoppedAt");
        assertEquals(1644, at.path("errorCode").asInt(), exited.toString());
        assertTrue(at.path("error").asText().contains("refused for good"), exited.toString());
        assertEquals("stopped", at.path("state").asText(), exited.toString());
        assertTrue(at.path("statement").asText().contains("INSERT on " + db + ".t key (id=100)"), exited.toString());
        assertTrue(exited.path("sources").path(0).path("msg").asText().contains("refused for good"),
                exited.toString());

        Process second = start(task, "second");
        try {
            awaitSameRows(db, second, "second");
            stop(second, "second");
        } finally {
            second.destroyForcibly();
        }
        JsonNode passed = stoppedStatus(task);
        assertTrue(subTask(passed).path("jdm").path("stoppedAt").isNull(), passed.toString());
    }

    /** query-status of a task no process runs: exit 1, and what the target holds for it. */
    private JsonNode stoppedStatus(Path task) throws IOException {
        Run r = JdmCommandLineTest.run("query-status", task.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        JsonNode n = JSON.readTree(r.out());
        assertTrue(n.path("msg").asText().startsWith("no jdm answers at "), r.out());
        assertEquals("Stopped", subTask(n).path("stage").asText(), r.out());
        return n;
    }

    private static JsonNode subTask(JsonNode status) {
        return status.path("sources").path(0).path("subTaskStatus").path(0);
    }

    /** Polls query-status of the running task until {@code until} holds; the process must stay alive. */
    private JsonNode awaitStatus(Path task, Process p, String log, java.util.function.Predicate<JsonNode> until)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        Run last = null;
        while (System.nanoTime() < deadline) {
            assertTrue(p.isAlive(), () -> "jdm exited: " + read(log));
            last = JdmCommandLineTest.run("query-status", task.toString());
            if (last.code() == 0 && until.test(JSON.readTree(last.out()))) {
                return JSON.readTree(last.out());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("query-status never showed it: " + (last == null ? "" : last.out() + last.err()));
    }

    /** A synced table, a constraint the target adds by hand, the source's ALTER that adds one of that name. */
    private String runUntilRefused(Path task, String db, String log) throws Exception {
        Process first = start(task, log);
        try {
            awaitSameRows(db, first, log);
            target.execute("ALTER TABLE " + db + ".t ADD CONSTRAINT n_range CHECK (n >= 0)");
            source.execute("USE " + db, ADD_CHECK);
            insert(db, 20, 30);
            assertTrue(first.waitFor(2, TimeUnit.MINUTES), "jdm did not stop at the refused DDL");
            assertEquals(1, first.exitValue(), read(log));
        } finally {
            first.destroyForcibly();
        }
        Matcher m = REFUSED.matcher(read(log));
        assertTrue(m.find(), read(log));
        assertEquals(20, target.rows("SELECT * FROM " + db + ".t").size(), "the rows after the DDL wait");
        return m.group(1);
    }

    /**
     * The position of the QUERY event of the refused ALTER, whose transaction starts at {@code at}: on
     * MariaDB its GTID event comes first, so the two differ.
     */
    private String queryEvent(String at) throws Exception {
        int colon = at.lastIndexOf(':');
        String file = at.substring(0, colon);
        for (String row : source.rows("SHOW BINLOG EVENTS IN '" + file + "' FROM " + at.substring(colon + 1)
                + " LIMIT 4")) {
            String[] cols = row.split("\\|", -1); // Log_name, Pos, Event_type, Server_id, End_log_pos, Info
            if (cols[2].equals("Query") && cols[5].contains("n_range")) {
                return file + ":" + cols[1];
            }
        }
        throw new AssertionError("no QUERY event of the ALTER after " + at);
    }

    private Path prepare(String db, String name, String meta) throws IOException {
        source.freshDatabase(db);
        target.execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS " + meta);
        source.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, n INT, v VARCHAR(20))");
        insert(db, 0, 20);
        int port; // the status endpoint: not the default port, which another jdm on the machine may hold
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        return Files.writeString(dir.resolve("task.yaml"), String.join("\n",
                "name: " + name,
                "task-mode: all",
                "meta-schema: " + meta,
                "status-addr: \"127.0.0.1:" + port + "\"",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [" + db + "]}}",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve("dump") + "\"}}",
                "syncers: {global: {worker-count: 2, checkpoint-flush-interval: 1}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
    }

    private void insert(String db, int from, int to) {
        StringBuilder sb = new StringBuilder("INSERT INTO " + db + ".t VALUES ");
        for (int i = from; i < to; i++) {
            sb.append(i > from ? "," : "").append('(').append(i).append(',').append(i * 7).append(",'r").append(i)
                    .append("')");
        }
        source.execute(sb.toString());
    }

    private Process start(Path task, String log) throws IOException {
        return JdmChild.start(dir.resolve(log + ".log"), "run", task.toString());
    }

    /** SIGTERM: the sync drains and stores its checkpoints, and the process exits 0. */
    private void stop(Process p, String log) throws InterruptedException {
        p.destroy();
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "no exit after SIGTERM");
        assertEquals(0, p.exitValue(), read(log));
    }

    private JsonNode list(Path task) throws IOException {
        Run r = JdmCommandLineTest.run("binlog", "list", task.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode n = JSON.readTree(r.out());
        assertNotNull(n.get("operators"), r.out());
        return n;
    }

    /** Polls until the target's table equals the source's, every column as hex; the process must stay alive. */
    private void awaitSameRows(String db, Process p, String log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        List<String> want = source.hexRows(db, "t");
        List<String> got = List.of();
        while (System.nanoTime() < deadline) {
            assertTrue(p.isAlive(), () -> "jdm exited: " + read(log));
            try {
                got = target.hexRows(db, "t");
            } catch (java.sql.SQLException e) {
                // not loaded yet
            }
            if (got.equals(want)) {
                return;
            }
            Thread.sleep(200);
        }
        assertEquals(want, got, db + ".t, every column as hex");
    }

    private static String showCreate(SqlServer s, String db) throws Exception {
        return s.rows("SHOW CREATE TABLE " + db + ".t").get(0);
    }

    private static int count(String text, String what) {
        return text.split(Pattern.quote(what), -1).length - 1;
    }

    private String read(String log) {
        try {
            return Files.readString(dir.resolve(log + ".log"));
        } catch (IOException e) {
            return e.toString();
        }
    }
}
