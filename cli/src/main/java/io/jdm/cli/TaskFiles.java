package io.jdm.cli;

import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads the task file a subcommand was given, with its {@code --source} files; every problem
 * surfaces as a ConfigException (exit 2), and each warning is printed once here.
 */
final class TaskFiles {
    private TaskFiles() {
    }

    static TaskConfig load(Path file, SourceOptions sources) {
        return load(file, sources.files);
    }

    static TaskConfig load(Path file, List<Path> sources) {
        if (!Files.isRegularFile(file)) {
            throw new UsageError("task file " + file + " does not exist or is not a file");
        }
        TaskConfig task = new TaskConfigLoader().load(file, sources);
        for (String w : task.warnings()) {
            System.err.println("jdm: warning: " + w);
        }
        System.err.flush();
        return task;
    }
}
