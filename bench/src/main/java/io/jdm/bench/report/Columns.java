package io.jdm.bench.report;

import io.jdm.bench.result.Sample;
import java.util.List;
import java.util.Map;

/** Which metrics each sweep's tables and charts show, and the one its ratios compare. */
final class Columns {
    record Col(String metric, String header) {
    }

    private static final Map<String, List<Col>> BY_SWEEP = Map.of(
            "dump", List.of(new Col(Sample.MB_PER_S, "MB/s"), new Col(Sample.ROWS_PER_S, "rows/s"),
                    new Col(Sample.SECONDS, "wall s"), new Col(Sample.CPU_S, "CPU s"),
                    new Col(Sample.RSS_MB, "peak RSS MB"), new Col(Sample.SERVER_CPU_S, "server CPU s")),
            "load", List.of(new Col(Sample.MB_PER_S, "MB/s"), new Col(Sample.ROWS_PER_S, "rows/s"),
                    new Col(Sample.TXN_P95_MS, "txn p95 ms"), new Col(Sample.TXN_P99_MS, "txn p99 ms"),
                    new Col(Sample.SECONDS, "wall s"), new Col(Sample.CPU_S, "CPU s"),
                    new Col(Sample.RSS_MB, "peak RSS MB"), new Col(Sample.SERVER_CPU_S, "server CPU s")),
            "run", List.of(new Col(Sample.MB_PER_S, "MB/s"), new Col(Sample.ROWS_PER_S, "rows/s"),
                    new Col(Sample.SECONDS, "wall s"), new Col(Sample.CPU_S, "CPU s"),
                    new Col(Sample.RSS_MB, "peak RSS MB"), new Col(Sample.SERVER_CPU_S, "server CPU s")),
            "sync", List.of(new Col(Sample.EVENTS_PER_S, "events/s"), new Col(Sample.ROWS_PER_S, "rows/s"),
                    new Col(Sample.FIRST_10S_ROWS_PER_S, "rows/s first 10 s"),
                    new Col(Sample.LAG_P95_S, "lag p95 s"), new Col(Sample.LAG_P99_S, "lag p99 s"),
                    new Col(Sample.CATCH_UP_S, "catch-up s"), new Col(Sample.TXN_P99_MS, "txn p99 ms"),
                    new Col(Sample.SOURCE_TPS, "source TPS"), new Col(Sample.CPU_S, "CPU s"),
                    new Col(Sample.RSS_MB, "peak RSS MB")),
            "verify", List.of(new Col(Sample.ROWS_PER_S, "rows/s"), new Col(Sample.SECONDS, "wall s"),
                    new Col(Sample.CPU_S, "CPU s"), new Col(Sample.RSS_MB, "peak RSS MB"),
                    new Col(Sample.SERVER_CPU_S, "server CPU s")));

    private Columns() {
    }

    static List<Col> of(String sweep) {
        return BY_SWEEP.getOrDefault(sweep, List.of(new Col(Sample.SECONDS, "seconds")));
    }

    /** The throughput that ratios and the "vs setting" chart use. */
    static Col main(String sweep) {
        // sync moves row changes and verify writes nothing: neither has bytes of its own to count
        return sweep.equals("sync") || sweep.equals("verify") ? new Col(Sample.ROWS_PER_S, "rows/s")
                : new Col(Sample.MB_PER_S, "MB/s");
    }

    /** The setting each sweep's chart puts on its x axis. */
    static String xParam(String sweep) {
        return switch (sweep) {
            case "dump", "verify" -> "threads";
            case "load", "run" -> "pool-size";
            case "sync" -> "worker-count";
            default -> "";
        };
    }

    static final List<String> SWEEPS = List.of("dump", "load", "run", "verify", "sync");
}
