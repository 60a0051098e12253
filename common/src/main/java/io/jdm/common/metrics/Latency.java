package io.jdm.common.metrics;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** A latency distribution (nanoseconds recorded, milliseconds reported), safe for many writers. */
public final class Latency {
    private static final long MAX_NANOS = TimeUnit.HOURS.toNanos(1);
    private final String name;
    private final ConcurrentHistogram histogram = new ConcurrentHistogram(MAX_NANOS, 3);

    public Latency(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public void recordNanos(long nanos) {
        histogram.recordValue(Math.min(Math.max(nanos, 0), MAX_NANOS));
    }

    /** Records the time since {@code startNanos} (a {@link System#nanoTime()} value). */
    public void recordSince(long startNanos) {
        recordNanos(System.nanoTime() - startNanos);
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** The value at the given percentile (0..100) in milliseconds. */
    public double percentileMillis(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1_000_000.0;
    }

    public double maxMillis() {
        return histogram.getMaxValue() / 1_000_000.0;
    }

    public double meanMillis() {
        return histogram.getMean() / 1_000_000.0;
    }

    /** A copy, for reports that must not see later values. */
    public Histogram copy() {
        return histogram.copy();
    }

    /** {@code p50=1.2ms p95=3.4ms p99=8.0ms}. */
    public String summary() {
        return String.format("p50=%.1fms p95=%.1fms p99=%.1fms", percentileMillis(50), percentileMillis(95),
                percentileMillis(99));
    }
}
