package io.jdm.cli;

import io.jdm.cli.run.TaskRunner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "sync", mixinStandardHelpOptions = true,
        description = "Replicate row changes from the source's binlog, from the task's meta position or from "
                + "the last checkpoint, until stopped (Ctrl-C or SIGTERM drains and flushes the checkpoint).")
final class SyncCommand implements Callable<Integer> {
    @Mixin
    TaskArgs task = new TaskArgs();

    @Mixin
    StartArgs start = new StartArgs();

    @Override
    public Integer call() throws Exception {
        return start.run(task, TaskRunner.Stages.SYNC_ONLY);
    }
}
