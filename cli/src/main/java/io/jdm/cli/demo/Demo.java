package io.jdm.cli.demo;

import com.zaxxer.hikari.HikariDataSource;
import io.jdm.bench.workload.KeyDistribution;
import io.jdm.bench.workload.Mix;
import io.jdm.bench.workload.Workload;
import io.jdm.cli.run.BackgroundTask;
import io.jdm.cli.run.TaskRunner;
import io.jdm.cli.run.UnitConfigs;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.config.TaskConfigLoader;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.verify.Verifier;
import io.jdm.verify.VerifyReport;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.sync.SyncUnit;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the demo; {@link #run()} returns true when verify found the target equal to the source. */
public final class Demo {
    private static final Logger LOG = LoggerFactory.getLogger("jdm.demo");
    private static final String DB = "demo";

    /** Demo settings; defaults finish in about a minute on two cores. */
    public record Options(int tables, long rowsPerTable, int writerThreads, Duration syncWrites, Duration lagTimeout,
                          Path workDir, ServerFlavor sourceFlavor, ServerFlavor targetFlavor) {
    }

    private final Options options;
    private final PrintStream out;

    public Demo(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    public boolean run() throws Exception {
        long t0 = System.nanoTime();
        out.printf("jdm demo: starting an embedded %s source (ROW binlog, GTID) and %s target on 127.0.0.1 ...%n",
                options.sourceFlavor().label(), options.targetFlavor().label());
        ServerPair pair = ServerPair.startEmbedded("demo", options.sourceFlavor(), options.targetFlavor());
        try {
            return migrate(pair.source(), pair.target(), t0);
        } finally {
            pair.closeQuietly();
        }
    }

    private boolean migrate(SqlServer source, SqlServer target, long t0) throws Exception {
        ConnectionSpec src = ConnectionSpec.of(source.host(), source.port(), source.user(), source.password());
        out.printf("  source 127.0.0.1:%d, target 127.0.0.1:%d%n", source.port(), target.port());
        try (HikariDataSource ds = DataSources.pool(src, options.writerThreads() + 4, "demo-workload")) {
            Workload workload = new Workload(ds, DB, options.tables());
            out.printf("jdm demo: creating %d sysbench-shaped tables x %d rows ...%n", options.tables(),
                    options.rowsPerTable());
            workload.prepare(options.rowsPerTable(), Math.min(4, options.tables()));
            TaskConfig task = taskFile(source, target);
            out.printf("jdm demo: task-mode all (dump -> load -> sync) with %d writers changing the source "
                    + "(oltp_write_only) ...%n", options.writerThreads());
            workload.start(Mix.OLTP_WRITE_ONLY, KeyDistribution.UNIFORM, options.writerThreads());
            BackgroundTask run = BackgroundTask.start(new TaskRunner(task, TaskRunner.Stages.FROM_TASK_MODE),
                    "demo-task");
            SyncUnit sync = run.awaitSync(Duration.ofHours(1));
            if (sync == null) {
                throw failureOf(run, "the task ended before sync started");
            }
            out.printf("jdm demo: sync is streaming; writes continue for %ds ...%n", options.syncWrites().toSeconds());
            Thread.sleep(options.syncWrites().toMillis());
            workload.stop();
            BinlogPosition end;
            try (Connection c = DataSources.connect(src)) {
                end = Flavor.detect(c).currentPosition(c);
            }
            long lag0 = System.nanoTime();
            if (!sync.awaitCaughtUp(end, options.lagTimeout())) {
                run.runner().requestStop();
                throw sync.failure().map(f -> (RuntimeException) f).orElseGet(() -> new FatalException(
                        "demo: sync did not catch up with " + end + " within " + options.lagTimeout().toSeconds() + "s"));
            }
            double catchUp = (System.nanoTime() - lag0) / 1e9;
            out.printf("jdm demo: lag is zero (caught up with %s %.1fs after writes stopped); "
                    + "workload committed %d transactions, %d row changes%n", end, catchUp,
                    workload.transactions().total(), workload.rowChanges().total());
            VerifyReport report = new Verifier(UnitConfigs.verify(task, task.mysqlInstances().get(0))).run();
            run.stop(Duration.ofSeconds(60));
            if (run.failure() != null) {
                throw failureOf(run, "the task failed");
            }
            out.println();
            out.println("sync:   " + sync.metrics().summaryLine());
            out.println();
            out.print(report.renderTable());
            out.printf("%njdm demo: %s in %.0fs%n", report.matches() ? "target equals source (verified)"
                    : "TARGET DIFFERS FROM SOURCE", (System.nanoTime() - t0) / 1e9);
            return report.matches();
        }
    }

    private static Exception failureOf(BackgroundTask run, String otherwise) {
        Throwable f = run.failure();
        return f instanceof Exception e ? e : new IllegalStateException(otherwise, f);
    }

    private TaskConfig taskFile(SqlServer source, SqlServer target) throws Exception {
        Path dir = options.workDir();
        Files.createDirectories(dir);
        String yaml = String.join("\n",
                "name: demo",
                "task-mode: all",
                "target-database:",
                "  host: 127.0.0.1",
                "  port: " + target.port(),
                "  user: " + target.user(),
                "  password: \"" + target.password() + "\"",
                "block-allow-list:",
                "  demo-only:",
                "    do-dbs: [\"" + DB + "\"]",
                "mydumpers:",
                "  global:",
                "    threads: 4",
                "    rows: " + Math.max(1000, options.rowsPerTable() / 4),
                "    dir: \"" + dir.resolve("dump").toString().replace("\\", "/") + "\"",
                "loaders:",
                "  global:",
                "    pool-size: 4",
                "syncers:",
                "  global:",
                "    worker-count: 8",
                "    batch: 100",
                "mysql-instances:",
                "  - source-id: embedded-source",
                "    block-allow-list: demo-only",
                "    from:",
                "      host: 127.0.0.1",
                "      port: " + source.port(),
                "      user: " + source.user(),
                "      password: \"" + source.password() + "\"",
                "");
        Path f = dir.resolve("demo-task.yaml");
        Files.writeString(f, yaml);
        LOG.debug("demo task file {}", f);
        return new TaskConfigLoader().load(f);
    }
}
