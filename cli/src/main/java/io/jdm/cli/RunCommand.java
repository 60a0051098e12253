package io.jdm.cli;

import io.jdm.cli.run.TaskRunner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "run", aliases = "start-task", mixinStandardHelpOptions = true,
        description = "Run the task's task-mode: full (dump, load), incremental (sync) or all (dump, load, then "
                + "sync from the dump's position), serving /status, /metrics and the "
                + "pause/resume/stop endpoints on status-addr. A restart resumes the stage it stopped in.")
final class RunCommand implements Callable<Integer> {
    @Mixin
    TaskArgs task = new TaskArgs();

    @Mixin
    StartArgs start = new StartArgs();

    @Override
    public Integer call() throws Exception {
        return start.run(task, TaskRunner.Stages.FROM_TASK_MODE);
    }
}
