package io.jdm.common.metrics;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * A latency distribution (nanoseconds recorded, milliseconds reported), safe for many writers:
 * percentiles for the progress line, and Prometheus buckets in seconds for {@code /metrics}.
 */
public final class Latency {
    private static final long MAX_NANOS = TimeUnit.HOURS.toNanos(1);
    private final String name;
    private final ConcurrentHistogram histogram = new ConcurrentHistogram(MAX_NANOS, 3);
    /** DM's buckets for every duration ({@code ExponentialBuckets(0.000005, 2, 25)}: 5µs to 84s). */
    private final io.prometheus.metrics.core.metrics.Histogram buckets = io.prometheus.metrics.core.metrics.Histogram
            .builder().name("latency").classicOnly().classicExponentialUpperBounds(0.000005, 2, 25).build();

    public Latency(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public void recordNanos(long nanos) {
        long n = Math.min(Math.max(nanos, 0), MAX_NANOS);
        histogram.recordValue(n);
        buckets.observe(n / 1e9);
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

    /** The same values in seconds, in DM's duration buckets, for {@link MetricFamilies}. */
    io.prometheus.metrics.core.metrics.Histogram buckets() {
        return buckets;
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
