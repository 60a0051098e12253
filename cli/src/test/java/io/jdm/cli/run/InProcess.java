package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.cli.Jdm;
import io.jdm.common.config.TaskConfigLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the tests of a whole task use in their own JVM: the task run in the background until its sync
 * runs, jdm's commands with their JSON answer, and the files of one of DM's integration cases copied
 * under {@code src/test/resources/<case>/} (its task file and its data).
 */
final class InProcess {
    private static final ObjectMapper JSON = new ObjectMapper();

    private InProcess() {
    }

    /** The task of {@code task} running in this JVM, its sync started (2 minutes at most). */
    static BackgroundTask started(Path task, String threadName) throws Exception {
        TaskRunner runner = new TaskRunner(new TaskConfigLoader().load(task), TaskRunner.Stages.FROM_TASK_MODE);
        BackgroundTask run = BackgroundTask.start(runner, threadName);
        try {
            assertNotNull(run.awaitSync(Duration.ofMinutes(2)), "sync never started: " + run.failure());
        } catch (AssertionError | RuntimeException e) {
            run.stop(Duration.ofSeconds(60));
            throw e;
        }
        return run;
    }

    /** Runs jdm with {@code args} in this JVM and reads what it printed as JSON (a missing node when nothing). */
    static JsonNode json(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            Jdm.execute(args);
        } finally {
            System.setOut(old);
        }
        try {
            return JSON.readTree(out.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file of DM's case {@code dmCase}, as text. */
    static String dmFile(String dmCase, String file) throws IOException {
        try (InputStream in = InProcess.class.getResourceAsStream("/" + dmCase + "/" + file)) {
            if (in == null) {
                throw new IOException("no test resource /" + dmCase + "/" + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The statements of a data file of DM's case {@code dmCase} (one per line ending in ';'), to run in one session. */
    static String[] dmStatements(String dmCase, String file) throws IOException {
        List<String> statements = new ArrayList<>();
        for (String s : dmFile(dmCase, file).split(";\n")) {
            if (!s.isBlank()) {
                statements.add(s.strip().replaceAll(";$", ""));
            }
        }
        return statements.toArray(String[]::new);
    }
}
