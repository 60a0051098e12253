package io.jdm.cli;

import io.jdm.common.config.MySqlInstance;
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

    /** The task, run for only the sources {@code --source-id} names (all of them when it names none). */
    static TaskConfig load(Path file, SourceOptions sources, SourceIdOptions ids) {
        return runOnly(load(file, sources.files), ids.ids);
    }

    /** The task for these sources; a source-id the task does not have is a usage error naming those it has. */
    static TaskConfig runOnly(TaskConfig task, List<String> ids) {
        List<String> known = task.mysqlInstances().stream().map(MySqlInstance::sourceId).toList();
        for (String id : ids) {
            if (!known.contains(id)) {
                throw new UsageError("--source-id " + id + ": task " + task.name() + " has no such source; its "
                        + "source ids are " + String.join(", ", known));
            }
        }
        return task.withRunSourceIds(ids.stream().distinct().toList());
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
