package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** A task that is not syncing yet cannot be paused: one line, exit 2, and it stays as it was. */
class PauseRefusedTest {
    @TempDir
    Path dir;

    @Test
    void pauseBeforeSyncIsRefusedInOneLine() throws Exception {
        Path f = Files.writeString(dir.resolve("task.yaml"), String.join("\n",
                "name: pause-early",
                "task-mode: all",
                "target-database: {host: 127.0.0.1, port: 4000, user: root, password: \"\"}",
                "mysql-instances:",
                "  - source-id: s1",
                "    from: {host: 127.0.0.1, port: 3306, user: root, password: \"\"}",
                ""));
        // never run: its source stays at its first stage, as while a dump starts
        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(f), TaskRunner.Stages.FROM_TASK_MODE);
        try (StatusServer http = StatusServer.start("pause-early", "127.0.0.1:0", runner)) {
            String address = "127.0.0.1:" + http.port();
            Run r = JdmCommandLineTest.run("pause-task", "--address", address);
            assertEquals(2, r.code(), r.out() + r.err());
            assertTrue(r.err().startsWith("jdm: pause-task: not supported while dumping/loading (source s1 "),
                    r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());

            Run q = JdmCommandLineTest.run("query-status", "--address", address);
            assertEquals(0, q.code(), q.err());
            JsonNode sub = new ObjectMapper().readTree(q.out()).path("sources").path(0).path("subTaskStatus").path(0);
            assertEquals("New", sub.path("stage").asText(), q.out());
        }
    }
}
