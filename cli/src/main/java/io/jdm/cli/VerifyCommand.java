package io.jdm.cli;

import io.jdm.cli.run.UnitConfigs;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.verify.hold.SyncHoldClient;
import io.jdm.common.hold.SyncHoldTable;
import io.jdm.verify.SnapshotOptions;
import io.jdm.verify.Verifier;
import io.jdm.verify.VerifyConfig;
import io.jdm.verify.VerifyReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Compare every table the task selects (through its routes) between source and target by "
                + "chunked checksums, narrowing differences to rows. Exit 0 all match, 1 something differs, "
                + "2 the comparison could not be done (a table or server error, usage or task-file errors).")
final class VerifyCommand implements Callable<Integer> {
    /** How long a sync keeps holding without hearing from this verify (a killed verify holds no longer). */
    private static final Duration HOLD_LEASE = Duration.ofSeconds(30);
    /** How long a running sync has to answer the pause (it polls ten times a second). */
    private static final Duration HOLD_ANSWER = Duration.ofSeconds(15);

    @Parameters(index = "0", paramLabel = "TASK.yaml", description = "The task file.")
    Path taskFile;

    @Mixin
    SourceOptions sources = new SourceOptions();

    @Mixin
    SourceIdOptions sourceIds = new SourceIdOptions();

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Option(names = "--threads", description = "Parallel chunk comparisons (default ${DEFAULT-VALUE}).")
    int threads = 4;

    @Option(names = "--chunk-rows", description = "Rows per checksum chunk (default ${DEFAULT-VALUE}).")
    long chunkRows = 50_000;

    @Option(names = "--fix-sql", paramLabel = "DIR",
            description = "Write the REPLACE/DELETE statements that would make the target equal the source.")
    Path fixSql;

    @Option(names = "--snapshot",
            description = "Compare at one consistent point while the source is being written and the task's sync "
                    + "(`jdm sync` or `jdm run`) is running: the source is read in a consistent snapshot at "
                    + "binlog position P, and the sync is held at exactly P until the comparison ends.")
    boolean snapshot;

    @Option(names = "--snapshot-timeout", paramLabel = "SECONDS",
            description = "With --snapshot: how long to wait for the sync to reach P (default ${DEFAULT-VALUE}).")
    long snapshotTimeoutSeconds = 600;

    @Override
    public Integer call() {
        if (snapshotTimeoutSeconds < 1 || snapshotTimeoutSeconds > 86_400) {
            throw new UsageError("--snapshot-timeout: must be 1..86400 seconds, got " + snapshotTimeoutSeconds);
        }
        TaskConfig task = TaskFiles.load(taskFile, sources, sourceIds);
        int worst = ExitCode.OK;
        for (MySqlInstance i : task.runInstances()) {
            VerifyConfig cfg = UnitConfigs.verify(task, i).withThreads(threads).withChunkRows(chunkRows);
            if (fixSql != null) {
                cfg = cfg.withFixSqlDir(fixSql);
            }
            if (snapshot) {
                SyncHoldClient hold = new SyncHoldClient(cfg.target(), SyncHoldTable.of(task.metaSchema(), task.name()),
                        task.name(), i.sourceId(), HOLD_LEASE, HOLD_ANSWER);
                cfg = cfg.withSnapshot(SnapshotOptions.held(hold, Duration.ofSeconds(snapshotTimeoutSeconds)));
            }
            Verifier v = new Verifier(cfg);
            VerifyReport report = v.run();
            System.out.print(json ? report.toJson() + "\n" : report.renderTable());
            worst = Math.max(worst, report.exitCode());
        }
        System.out.flush();
        return worst;
    }
}
