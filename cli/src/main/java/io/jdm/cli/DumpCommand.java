package io.jdm.cli;

import io.jdm.cli.run.UnitConfigs;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.JdmException;
import io.jdm.dump.DumpResult;
import io.jdm.dump.DumpUnit;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Export the tables the task selects into a Dumpling/mydumper-layout directory, "
                + "consistently and in parallel, with the snapshot's binlog position in 'metadata'.")
final class DumpCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger("jdm");

    @Mixin
    TaskArgs args = new TaskArgs();

    @Override
    public Integer call() {
        TaskConfig task = args.load();
        for (MySqlInstance i : task.runInstances()) {
            DumpUnit unit = new DumpUnit(UnitConfigs.dump(task, i));
            AtomicBoolean signalled = new AtomicBoolean();
            Signals.onStop(task.name(), () -> {
                signalled.set(true);
                unit.stop();
            });
            DumpResult r;
            try (TerminalProgress bar = TerminalProgress.dump(task.name(), unit.metrics())) {
                r = unit.run();
            } catch (JdmException e) {
                if (!signalled.get()) {
                    throw e;
                }
                // stopped by the signal: the one line says the directory has no metadata and a rerun starts clean
                System.err.println("jdm: " + e.getMessage());
                return Signals.STOPPED;
            }
            LOG.info("dump of {} finished: {} -> {}", i.sourceId(), r, task.mydumper(i).dir());
        }
        return ExitCode.OK;
    }
}
