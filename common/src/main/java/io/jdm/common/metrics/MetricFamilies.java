package io.jdm.common.metrics;

import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot.UnknownDataPointSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * One scrape's series, gathered into one family per name whichever unit or source adds them, so
 * every name has one HELP and one TYPE however many sources and writers report it. The text is
 * written by the Prometheus client from the snapshots built here.
 */
public final class MetricFamilies {
    private final Map<String, Family> families = new LinkedHashMap<>();

    private record Family(String help, BiFunction<MetricMetadata, List<DataPointSnapshot>, MetricSnapshot> type,
                          List<DataPointSnapshot> points) {
    }

    /** A count that only grows; {@code name} ends in {@code _total}. */
    public MetricFamilies counter(String name, String help, Labels labels, double value) {
        if (!name.endsWith("_total")) {
            throw new IllegalArgumentException("counter " + name + ": the name must end in _total");
        }
        String base = name.substring(0, name.length() - "_total".length());
        return add(base, help, MetricFamilies::counters, new CounterDataPointSnapshot(value, labels, null, 0));
    }

    /** A value that goes up and down; never named {@code _total}. */
    public MetricFamilies gauge(String name, String help, Labels labels, double value) {
        if (name.endsWith("_total")) {
            throw new IllegalArgumentException("gauge " + name + ": a gauge is not named _total");
        }
        return add(name, help, MetricFamilies::gauges, new GaugeDataPointSnapshot(value, labels, null));
    }

    /**
     * A count exposed untyped under DM's name ending in {@code _count}
     * ({@code dm_syncer_exit_with_error_count}): the format reserves that suffix for histograms and
     * summaries, so typed a counter promtool rejects it; renamed, DM's alert rules would not find it.
     */
    public MetricFamilies untyped(String name, String help, Labels labels, double value) {
        return add(name, help, MetricFamilies::unknowns, new UnknownDataPointSnapshot(value, labels, null));
    }

    /** A latency in seconds, in the buckets {@link Latency} records it in. */
    public MetricFamilies histogram(String name, String help, Labels labels, Latency latency) {
        return histogram(name, help, labels, latency.buckets());
    }

    /** The buckets, sum and count of an unlabelled histogram, under {@code labels}. */
    public MetricFamilies histogram(String name, String help, Labels labels, Histogram h) {
        HistogramDataPointSnapshot p = h.collect().getDataPoints().get(0);
        return add(name, help, MetricFamilies::histograms,
                new HistogramDataPointSnapshot(p.getClassicBuckets(), p.getSum(), labels, null, 0));
    }

    private MetricFamilies add(String name, String help,
                               BiFunction<MetricMetadata, List<DataPointSnapshot>, MetricSnapshot> type,
                               DataPointSnapshot point) {
        families.computeIfAbsent(name, n -> new Family(help, type, new ArrayList<>())).points().add(point);
        return this;
    }

    /** These series in the Prometheus text format (0.0.4). */
    public String text() {
        return text(snapshots());
    }

    static String text(MetricSnapshots snapshots) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, snapshots);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    MetricSnapshots snapshots() {
        List<MetricSnapshot> out = new ArrayList<>();
        families.forEach((name, f) -> out.add(f.type().apply(new MetricMetadata(name, f.help()), f.points())));
        return new MetricSnapshots(out);
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> cast(List<DataPointSnapshot> points) {
        return (List<T>) (List<?>) points;
    }

    private static MetricSnapshot counters(MetricMetadata m, List<DataPointSnapshot> p) {
        return new CounterSnapshot(m, cast(p));
    }

    private static MetricSnapshot gauges(MetricMetadata m, List<DataPointSnapshot> p) {
        return new GaugeSnapshot(m, cast(p));
    }

    private static MetricSnapshot unknowns(MetricMetadata m, List<DataPointSnapshot> p) {
        return new UnknownSnapshot(m, cast(p));
    }

    private static MetricSnapshot histograms(MetricMetadata m, List<DataPointSnapshot> p) {
        return new HistogramSnapshot(m, cast(p));
    }
}
