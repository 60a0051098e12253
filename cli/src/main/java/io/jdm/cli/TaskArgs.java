package io.jdm.cli;

import io.jdm.common.config.TaskConfig;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * What every command that runs a task's units takes: the task file, DM source files
 * ({@code --source}) and the sources this process runs ({@code --source-id}).
 */
final class TaskArgs {
    @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
    Path taskFile;

    @Mixin
    SourceOptions sources = new SourceOptions();

    @Mixin
    SourceIdOptions sourceIds = new SourceIdOptions();

    /** The task, read and checked, with the sources this process runs. */
    TaskConfig load() {
        return TaskFiles.load(taskFile, sources, sourceIds);
    }
}
