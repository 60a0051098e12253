package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.JdmCommandLineTest.Run;
import io.jdm.cli.daemon.StatusServer;
import io.jdm.cli.run.TaskRunner;
import io.jdm.common.config.TaskConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task paused before any unit runs shows Paused in query-status and stays paused until
 * resume-task, which puts it back where it was (New, nothing started yet).
 */
class PauseBeforeAnyUnitTest {
    @TempDir
    Path dir;

    @Test
    void pauseBeforeAnyUnitRunsIsHeldUntilResume() throws Exception {
        Path f = Files.writeString(dir.resolve("task.yaml"), String.join("\n",
                "name: pause-early",
                "task-mode: all",
                "target-database: {host: 127.0.0.1, port: 4000, user: root, password: \"\"}",
                "mysql-instances:",
                "  - source-id: s1",
                "    from: {host: 127.0.0.1, port: 3306, user: root, password: \"\"}",
                ""));
        // never run: its source stays at its first stage, as before its dump starts
        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(f), TaskRunner.Stages.FROM_TASK_MODE);
        try (StatusServer http = StatusServer.start("pause-early", "127.0.0.1:0", runner)) {
            String address = "127.0.0.1:" + http.port();
            assertEquals("New", subTask(address).path("stage").asText());

            Run paused = JdmCommandLineTest.run("pause-task", "--address", address);
            assertEquals(0, paused.code(), paused.out() + paused.err());
            JsonNode sub = subTask(address);
            assertEquals("Paused", sub.path("stage").asText(), sub.toString());
            assertEquals("InvalidUnit", sub.path("unit").asText(), sub.toString()); // no unit yet, as DM prints it

            Run resumed = JdmCommandLineTest.run("resume-task", "--address", address);
            assertEquals(0, resumed.code(), resumed.out() + resumed.err());
            assertEquals("New", subTask(address).path("stage").asText());
        }
    }

    private static JsonNode subTask(String address) throws Exception {
        Run q = JdmCommandLineTest.run("query-status", "--address", address);
        assertEquals(0, q.code(), q.err());
        return new ObjectMapper().readTree(q.out()).path("sources").path(0).path("subTaskStatus").path(0);
    }
}
