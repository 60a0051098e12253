package io.jdm.cli;

import io.jdm.cli.demo.Demo;
import io.jdm.embedded.ServerFlavor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the whole job on embedded servers (MariaDB 11.4 by default, or real MySQL 8.0 or 5.7): create a sysbench-shaped dataset, run "
                + "task-mode all (dump, load, sync) while writes continue on the source, wait for zero lag, "
                + "verify. Exit 0 when the target equals the source.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--tables", description = "sbtest tables (default ${DEFAULT-VALUE}).")
    int tables = 4;

    @Option(names = "--rows", description = "Rows per table (default ${DEFAULT-VALUE}).")
    long rows = 25_000;

    @Option(names = "--writers", description = "Write workload threads on the source (default ${DEFAULT-VALUE}).")
    int writers = 4;

    @Option(names = "--sync-seconds", description = "Seconds of writes once sync streams (default ${DEFAULT-VALUE}).")
    int syncSeconds = 10;

    @Option(names = "--source", paramLabel = "FLAVOUR",
            description = "The source server: mariadb (MariaDB 11.4), mysql8 (MySQL 8.0.31) or mysql57 (MySQL 5.7.22) "
                    + "(default ${DEFAULT-VALUE}).")
    String source = "mariadb";

    @Option(names = "--target", paramLabel = "FLAVOUR",
            description = "The target server, as --source (default: the source's flavour).")
    String target;

    @Option(names = "--dir", description = "Work directory for the dump (default: a new temporary directory).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        if (tables < 1 || tables > 64) {
            throw new UsageError("--tables: must be 1..64, got " + tables);
        }
        if (rows < 1 || writers < 1 || syncSeconds < 0) {
            throw new UsageError("--rows and --writers must be positive and --sync-seconds >= 0");
        }
        ServerFlavor from = flavour("--source", source);
        ServerFlavor to = target == null ? from : flavour("--target", target);
        Path work = dir != null ? dir : Files.createTempDirectory("jdm-demo-");
        Demo.Options o = new Demo.Options(tables, rows, writers, Duration.ofSeconds(syncSeconds),
                Duration.ofMinutes(5), work, from, to);
        return new Demo(o, System.out).run() ? ExitCode.OK : ExitCode.FAILED;
    }

    private static ServerFlavor flavour(String option, String value) {
        try {
            return ServerFlavor.of(value);
        } catch (IllegalArgumentException e) {
            throw new UsageError(option + ": must be one of " + ServerFlavor.keys() + ", got '" + value + "'");
        }
    }
}
