package io.jdm.cli;

import io.jdm.cli.run.TaskRunner;
import io.jdm.cli.run.UnitConfigs;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.FatalException;
import io.jdm.common.lease.LeaseWait;
import io.jdm.common.lease.TaskLease;
import io.jdm.load.LoadResult;
import io.jdm.load.LoadUnit;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "load", mixinStandardHelpOptions = true,
        description = "Replay a dump directory into the target with pool-size connections. "
                + "A rerun after a crash resumes exactly where the last committed statement ended.")
final class LoadCommand implements Callable<Integer> {
    @Mixin
    TaskArgs args = new TaskArgs();

    @Mixin
    LeaseOptions lease = new LeaseOptions();

    @Override
    public Integer call() {
        TaskConfig task = args.load();
        for (MySqlInstance i : task.runInstances()) {
            LoadResult r;
            try {
                r = load(task, i, lease.leaseWait());
            } catch (LeaseWait.Stopped e) {
                System.err.println("jdm: load of " + i.sourceId() + " stopped while waiting for its lease;"
                        + " nothing of it was loaded");
                return Signals.STOPPED;
            }
            if (!r.completed()) {
                System.err.println("jdm: load of " + i.sourceId() + " stopped before it finished;"
                        + " run it again to resume where the last committed statement ended");
                return Signals.STOPPED;
            }
        }
        return ExitCode.OK;
    }

    /** Loads one source under its lease; a signal while waiting for the lease ends with {@link LeaseWait.Stopped}. */
    static LoadResult load(TaskConfig task, MySqlInstance instance, LeaseWait wait) {
        AtomicReference<LoadUnit> running = new AtomicReference<>();
        Signals.onStop(task.name(), () -> {
            wait.stop();
            LoadUnit u = running.get();
            if (u != null) {
                u.stop();
            }
        });
        try (TaskLease lease = TaskRunner.acquireLease(task, instance, wait)) {
            LoadUnit unit = new LoadUnit(UnitConfigs.load(task, instance));
            AtomicReference<String> lost = new AtomicReference<>();
            lease.keepRenewing(message -> {
                lost.set(message);
                unit.stop();
            });
            running.set(unit);
            if (wait.isStopped()) {
                unit.stop(); // the signal came between the lease and the unit
            }
            LoadResult r;
            try (TerminalProgress bar = TerminalProgress.load(task.name(), unit.metrics())) {
                r = unit.run();
            }
            if (lost.get() != null) {
                throw new FatalException(lost.get());
            }
            return r;
        }
    }
}
