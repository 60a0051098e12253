package io.jdm.cli;

import io.jdm.cli.run.UnitConfigs;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.dump.DumpResult;
import io.jdm.dump.DumpUnit;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Export the tables the task selects into a Dumpling/mydumper-layout directory, "
                + "consistently and in parallel, with the snapshot's binlog position in 'metadata'.")
final class DumpCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger("jdm");

    @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
    Path taskFile;

    @Mixin
    SourceOptions sources = new SourceOptions();

    @Override
    public Integer call() {
        TaskConfig task = TaskFiles.load(taskFile, sources);
        for (MySqlInstance i : task.mysqlInstances()) {
            DumpResult r = dump(task, i);
            LOG.info("dump of {} finished: {} -> {}", i.sourceId(), r, task.mydumper(i).dir());
        }
        return ExitCode.OK;
    }

    static DumpResult dump(TaskConfig task, MySqlInstance instance) {
        DumpUnit unit = new DumpUnit(UnitConfigs.dump(task, instance));
        Signals.onStop(task.name(), unit::stop); // a stopped dump ends in one line: it starts over when run again
        return unit.run();
    }
}
