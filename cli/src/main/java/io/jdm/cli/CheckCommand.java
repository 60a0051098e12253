package io.jdm.cli;

import io.jdm.cli.check.CheckReport;
import io.jdm.cli.check.PrecheckInput;
import io.jdm.cli.check.Prechecker;
import io.jdm.cli.run.UnitConfigs;
import io.jdm.common.config.Consistency;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.filter.TableFilter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "check", aliases = "check-task", mixinStandardHelpOptions = true,
        description = "Check a task before migrating: connectivity, versions, binlog settings, privileges, "
                + "tables without keys, collations the target lacks. Exit 0 when nothing fails, 1 when a check "
                + "fails, 2 for usage or task-file errors.")
final class CheckCommand implements Callable<Integer> {
    @Mixin
    TaskArgs args = new TaskArgs();

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Override
    public Integer call() {
        TaskConfig task = args.load();
        CheckReport report = new CheckReport(new Prechecker(input(task)).run());
        System.out.print(json ? report.json() + "\n" : report.table());
        System.out.flush();
        return report.anyFailed() ? ExitCode.FAILED : ExitCode.OK;
    }

    static PrecheckInput input(TaskConfig task) {
        List<PrecheckInput.Source> sources = new ArrayList<>();
        boolean dump = task.taskMode().dumps();
        boolean binlog = task.taskMode().syncs();
        for (MySqlInstance i : task.runInstances()) {
            TableFilter filter = TableFilter.forInstance(task, i);
            // dump: its threads plus the connection holding the snapshot's metadata; sync: the binlog
            // stream and the schema tracker's reads. Load: its pool plus checkpoint and schema work;
            // sync: its writers plus checkpoint, DDL and the tracker's scratch schemas.
            int onSource = Math.max(dump ? task.mydumper(i).threads() + 1 : 0, binlog ? 2 : 0);
            int onTarget = Math.max(dump ? task.loader(i).poolSize() + 2 : 0,
                    binlog ? task.syncer(i).workerCount() + 3 : 0);
            sources.add(new PrecheckInput.Source(i.sourceId(), i.from().toConnectionSpec(), filter,
                    task.syncer(i).enableGtid(), onSource, onTarget,
                    dump ? task.mydumper(i).consistency() : Consistency.AUTO, UnitConfigs.router(task, i),
                    task.taskMode().loads() ? task.loader(i).dir().orElseThrow() : null));
        }
        return new PrecheckInput(dump, binlog, sources, task.targetDatabase().toConnectionSpec(), task.metaSchema(),
                new HashSet<>(task.ignoreCheckingItems()), task.shardMode(), task.name());
    }
}
