package io.jdm.cli;

import io.jdm.cli.run.TaskRunner;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "sync", mixinStandardHelpOptions = true,
        description = "Replicate row changes from the source's binlog, from the task's meta position or from "
                + "the last checkpoint, until stopped (Ctrl-C or SIGTERM drains and flushes the checkpoint).")
final class SyncCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
    Path taskFile;

    @Mixin
    SourceOptions sources = new SourceOptions();

    @Mixin
    SourceIdOptions sourceIds = new SourceIdOptions();

    @Mixin
    LeaseOptions lease = new LeaseOptions();

    @Override
    public Integer call() throws Exception {
        return TaskRunner.runStages(TaskFiles.load(taskFile, sources, sourceIds), TaskRunner.Stages.SYNC_ONLY,
                lease.leaseWait(), Signals::onStop);
    }
}
