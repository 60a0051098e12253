package io.jdm.cli;

import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loads the task file a subcommand was given; every problem surfaces as a ConfigException (exit 2). */
final class TaskFiles {
    private TaskFiles() {
    }

    static TaskConfig load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UsageError("task file " + file + " does not exist or is not a file");
        }
        return new TaskConfigLoader().load(file);
    }
}
