package io.jdm.cli;

import io.jdm.cli.run.UnitConfigs;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.verify.hold.SyncHoldClient;
import io.jdm.common.hold.SyncHoldTable;
import io.jdm.common.sql.TableName;
import io.jdm.verify.MergedTable;
import io.jdm.verify.SnapshotOptions;
import io.jdm.verify.TablePair;
import io.jdm.verify.Verifier;
import io.jdm.verify.VerifyConfig;
import io.jdm.verify.VerifyReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Compare every table the task selects (through its routes) between source and target by "
                + "chunked checksums, narrowing differences to rows. A target table that routes merge from several "
                + "source tables (on one or several sources) is compared with the union of its shards, and a key "
                + "two shards hold is reported as a collision. A source row that the task's expression filters keep "
                + "from the target (insert-value-expr) is not compared, only counted as filtered. Exit 0 all match, "
                + "1 something differs, 2 the comparison could not be done (a table or server error, usage or "
                + "task-file errors).")
final class VerifyCommand implements Callable<Integer> {
    /** How long a sync keeps holding without hearing from this verify (a killed verify holds no longer). */
    private static final Duration HOLD_LEASE = Duration.ofSeconds(30);
    /** How long a running sync has to answer the pause (it polls ten times a second). */
    private static final Duration HOLD_ANSWER = Duration.ofSeconds(15);

    @Mixin
    TaskArgs args = new TaskArgs();

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
        TaskConfig task = args.load();
        // a merged table is the union of its shards on every source of the task, whichever ones --source-id names
        List<MySqlInstance> instances = task.mysqlInstances();
        List<VerifyConfig> configs = new ArrayList<>();
        for (MySqlInstance i : instances) {
            VerifyConfig cfg = UnitConfigs.verify(task, i).withThreads(threads).withChunkRows(chunkRows);
            configs.add(fixSql == null ? cfg : cfg.withFixSqlDir(fixSql));
        }
        List<MergedTable> merges = merges(instances, configs);
        Set<TableName> merged = new HashSet<>();
        merges.forEach(m -> merged.add(m.target()));
        List<MySqlInstance> run = task.runInstances();
        int worst = ExitCode.OK;
        for (int n = 0; n < instances.size(); n++) {
            MySqlInstance i = instances.get(n);
            if (!run.contains(i)) {
                continue;
            }
            VerifyConfig cfg = configs.get(n);
            List<TablePair> single = cfg.tables().stream()
                    .filter(p -> p.filtered() || !merged.contains(p.target())).toList();
            if (single.isEmpty() && !cfg.tables().isEmpty()) {
                continue; // all its tables are shards of merges, compared below
            }
            cfg = cfg.withTables(single, List.of());
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
        if (!merges.isEmpty()) {
            VerifyConfig cfg = configs.get(0).withTables(List.of(), merges);
            if (snapshot) {
                // Only marks the merged tables as not comparable at a snapshot: nothing is held for them.
                cfg = cfg.withSnapshot(SnapshotOptions.waitFor(p -> true, Duration.ofSeconds(snapshotTimeoutSeconds),
                        1));
            }
            VerifyReport report = new Verifier(cfg).run();
            System.out.print(json ? report.toJson() + "\n" : report.renderTable());
            worst = Math.max(worst, report.exitCode());
        }
        System.out.flush();
        return worst;
    }

    /**
     * The target tables that routes fill from more than one source table, on one source or several,
     * each with its shards read from their own source (named by source-id when the task has several).
     * Tables whose routes add extra columns are no shards of these: each is compared with its own rows.
     */
    static List<MergedTable> merges(List<MySqlInstance> instances, List<VerifyConfig> configs) {
        Map<TableName, List<MergedTable.Shard>> byTarget = new LinkedHashMap<>();
        for (int n = 0; n < instances.size(); n++) {
            String name = instances.size() > 1 ? instances.get(n).sourceId() : null;
            VerifyConfig cfg = configs.get(n);
            for (TablePair p : VerifyConfig.merging(cfg.tables())) {
                byTarget.computeIfAbsent(p.target(), t -> new ArrayList<>())
                        .add(new MergedTable.Shard(name, cfg.source(), p.source(), cfg.tableWhere()));
            }
        }
        List<MergedTable> out = new ArrayList<>();
        byTarget.forEach((t, shards) -> {
            if (shards.size() > 1) {
                out.add(new MergedTable(t, shards));
            }
        });
        return out;
    }
}
