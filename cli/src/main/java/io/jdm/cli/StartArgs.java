package io.jdm.cli;

import io.jdm.cli.run.TaskRunner;
import java.time.Instant;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** How {@code jdm run} and {@code jdm sync} start a task: dmctl start-task's flags and the lease wait. */
final class StartArgs {
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
    Instant startTime;

    /** Runs the task's {@code stages} as the command does: with its endpoint and signal handling. */
    int run(TaskArgs task, TaskRunner.Stages stages) throws java.io.IOException {
        return TaskRunner.runStages(task.load(), stages, lease.leaseWait(),
                new TaskRunner.StartOptions(removeMeta, startTime), Signals::onStop);
    }
}
