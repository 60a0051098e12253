package io.jdm.cli;

import io.jdm.bench.BenchConfig;
import io.jdm.bench.BenchRunner;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Run the sweeps of a benchmark file (dump threads x rows x statement-size, load pool-size x "
                + "rows per statement, sync worker-count x batch under each workload mix) on the embedded pair or "
                + "the servers it names, with the peer tools found on PATH, and write report.md, report.html "
                + "(charts), samples.csv and lag.csv.")
final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BENCH.yaml", description = "The benchmark file (see conf/bench-*.yaml).")
    Path file;

    @Option(names = "--output", paramLabel = "DIR", description = "Report directory (default: the file's output key).")
    Path output;

    @Option(names = "--no-peers", description = "Measure jdm only, even where peer tools are installed.")
    boolean noPeers;

    @Override
    public Integer call() throws Exception {
        BenchConfig cfg;
        try {
            cfg = BenchConfig.load(file);
        } catch (IllegalArgumentException e) {
            throw new UsageError(file + ": " + e.getMessage());
        }
        if (output != null) {
            cfg = cfg.withOutput(output.toAbsolutePath());
        }
        if (noPeers) {
            cfg = cfg.withPeers(false);
        }
        new BenchRunner(cfg, System.out).run();
        return ExitCode.OK;
    }
}
