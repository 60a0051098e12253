package io.jdm.bench.result;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One timed run of one tool at one setting: the unit of the CSV and of every median.
 *
 * @param sweep dump, load or sync
 * @param tool jdm or a peer's name
 * @param mix the workload mix for sync samples, "-" otherwise
 * @param params the setting, in sweep order (e.g. pool-size=8, rows-per-statement=1000)
 * @param metrics measured values by name (see the constants); absent when a tool cannot report one
 */
public record Sample(String sweep, String tool, String mix, Map<String, Long> params, int repetition,
                     Map<String, Double> metrics) {
    public static final String SECONDS = "seconds";
    public static final String ROWS = "rows";
    public static final String BYTES = "bytes";
    public static final String MB_PER_S = "mb_per_s";
    public static final String ROWS_PER_S = "rows_per_s";
    public static final String EVENTS_PER_S = "events_per_s";
    public static final String TXN_P95_MS = "txn_p95_ms";
    public static final String TXN_P99_MS = "txn_p99_ms";
    public static final String LAG_P95_S = "lag_p95_s";
    public static final String LAG_P99_S = "lag_p99_s";
    public static final String CATCH_UP_S = "catch_up_s";
    public static final String SOURCE_TPS = "source_tps";
    /**
     * Row changes applied per second in a sync's first 10 seconds from its process start, or over
     * its whole catch-up when that is shorter: whether start-up slows the beginning of a sync.
     */
    public static final String FIRST_10S_ROWS_PER_S = "first_10s_rows_per_s";
    /** CPU seconds (user + system) of a whole process. */
    public static final String CPU_S = "cpu_s";
    /** Peak resident memory of a whole process, MB. */
    public static final String RSS_MB = "rss_mb";
    /** CPU seconds the embedded servers spent while a process ran (both servers together). */
    public static final String SERVER_CPU_S = "server_cpu_s";

    /** Every metric, in the order the CSV writes them. */
    public static final List<String> METRICS = List.of(SECONDS, ROWS, BYTES, MB_PER_S, ROWS_PER_S, EVENTS_PER_S,
            TXN_P95_MS, TXN_P99_MS, LAG_P95_S, LAG_P99_S, CATCH_UP_S, SOURCE_TPS, CPU_S, RSS_MB,
            SERVER_CPU_S, FIRST_10S_ROWS_PER_S);

    public Sample {
        Objects.requireNonNull(sweep, "sweep");
        Objects.requireNonNull(tool, "tool");
        mix = mix == null ? "-" : mix;
        params = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
        metrics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /** The setting as text, {@code pool-size=8 rows-per-statement=1000}. */
    public String setting() {
        StringBuilder sb = new StringBuilder();
        params.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    public double metric(String name) {
        return metrics.getOrDefault(name, Double.NaN);
    }
}
