package io.jdm.cli;

import io.jdm.cli.run.UnitConfigs;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.metrics.ProgressLogger;
import io.jdm.common.verify.Verifier;
import io.jdm.common.verify.VerifyConfig;
import io.jdm.common.verify.VerifyReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Compare every table the task selects (through its routes) between source and target by "
                + "chunked checksums, narrowing differences to rows. Exit 0 all match, 1 something differs, "
                + "2 usage or task-file errors.")
final class VerifyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
    Path taskFile;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Option(names = "--threads", description = "Parallel chunk comparisons (default ${DEFAULT-VALUE}).")
    int threads = 4;

    @Option(names = "--chunk-rows", description = "Rows per checksum chunk (default ${DEFAULT-VALUE}).")
    long chunkRows = 50_000;

    @Option(names = "--fix-sql", paramLabel = "DIR",
            description = "Write the REPLACE/DELETE statements that would make the target equal the source.")
    Path fixSql;

    @Override
    public Integer call() {
        TaskConfig task = TaskFiles.load(taskFile);
        boolean allMatch = true;
        for (MySqlInstance i : task.mysqlInstances()) {
            VerifyConfig cfg = UnitConfigs.verify(task, i).withThreads(threads).withChunkRows(chunkRows);
            if (fixSql != null) {
                cfg = cfg.withFixSqlDir(fixSql);
            }
            Verifier v = new Verifier(cfg);
            VerifyReport report;
            try (ProgressLogger p = new ProgressLogger(task.name(), "verify", v.metrics(), 5)) {
                report = v.run();
            }
            System.out.print(json ? report.toJson() + "\n" : report.renderTable());
            allMatch &= report.matches();
        }
        System.out.flush();
        return allMatch ? ExitCode.OK : ExitCode.FAILED;
    }
}
