package io.jdm.bench;

import io.jdm.bench.result.Sample;
import java.util.LinkedHashMap;
import java.util.Map;

/** One timed operation: what it moved and how long it took, as sample metrics. */
record Timed(double seconds, long rows, long bytes) {
    Map<String, Double> metrics() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(Sample.SECONDS, seconds);
        m.put(Sample.ROWS, (double) rows);
        m.put(Sample.BYTES, (double) bytes);
        m.put(Sample.MB_PER_S, bytes / 1e6 / seconds);
        m.put(Sample.ROWS_PER_S, rows / seconds);
        return m;
    }

    static double since(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
