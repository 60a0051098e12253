package io.jdm.cli;

import io.jdm.cli.run.TaskRunner;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "run", aliases = "start-task", mixinStandardHelpOptions = true,
        description = "Run the task's task-mode: full (dump, load), incremental (sync) or all (dump, load, then "
                + "sync from the dump's position), serving /status, /metrics and the "
                + "pause/resume/stop endpoints on status-addr. A restart resumes the stage it stopped in.")
final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
    Path taskFile;

    @Mixin
    SourceOptions sources = new SourceOptions();

    @Mixin
    SourceIdOptions sourceIds = new SourceIdOptions();

    @Mixin
    LeaseOptions lease = new LeaseOptions();

    @Option(names = "--remove-meta", description = "Drop the task's tables in meta-schema first (its checkpoints, "
            + "stages, DDL markers, operators, shard locks), so it starts as a new task, as dmctl start-task "
            + "--remove-meta does. Needs every source of the task.")
    boolean removeMeta;

    @Option(names = "--start-time", paramLabel = "TIME", converter = StartTimeConverter.class,
            description = "Start the sync at the first transaction of the binlog at or after this time "
                    + "('2021-10-21 00:01:00' or 2021-10-21T00:01:00, this host's time zone unless it ends with an "
                    + "offset), whatever the checkpoint or meta says, as dmctl start-task --start-time does; what "
                    + "comes before the old checkpoint is replayed in safe mode. For a sync only.")
    java.time.Instant startTime;

    @Override
    public Integer call() throws Exception {
        return TaskRunner.runStages(TaskFiles.load(taskFile, sources, sourceIds), TaskRunner.Stages.FROM_TASK_MODE,
                lease.leaseWait(), new TaskRunner.StartOptions(removeMeta, startTime), Signals::onStop);
    }
}
