package io.jdm.dump;

import io.jdm.common.metrics.Latency;
import io.jdm.common.metrics.MetricSource;
import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.metrics.ProcessMetrics;
import io.jdm.common.metrics.Throughput;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The dump's counters and latencies: rows/s, MB/s, tables and chunks done, per-chunk query and write
 * time; on {@code /metrics} as jdm's own series and Dumpling's rows done and estimated.
 */
public final class DumpMetrics implements MetricSource {
    private final Labels labels;
    private final Throughput rows = new Throughput("rows");
    private final Throughput bytes = new Throughput("bytes");
    private final AtomicInteger tablesTotal = new AtomicInteger();
    private final AtomicInteger tablesDone = new AtomicInteger();
    private final AtomicInteger chunksTotal = new AtomicInteger();
    private final AtomicInteger chunksDone = new AtomicInteger();
    private final AtomicLong estimatedRows = new AtomicLong();
    private final Latency chunkQuery = new Latency("chunk_query");
    private final Latency chunkWrite = new Latency("chunk_write");
    private final long startNanos = System.nanoTime();
    private volatile long endNanos;

    DumpMetrics(String task, String sourceId) {
        this.labels = ProcessMetrics.unitLabels(task, sourceId);
    }

    Throughput rowsCounter() {
        return rows;
    }

    Throughput bytesCounter() {
        return bytes;
    }

    Latency chunkQueryLatency() {
        return chunkQuery;
    }

    Latency chunkWriteLatency() {
        return chunkWrite;
    }

    void tableAdded(long estimate) {
        tablesTotal.incrementAndGet();
        estimatedRows.addAndGet(Math.max(0, estimate));
    }

    void tableDone() {
        tablesDone.incrementAndGet();
    }

    void chunksPlanned(int n) {
        chunksTotal.addAndGet(n);
    }

    void chunkDone() {
        chunksDone.incrementAndGet();
    }

    void finished() {
        endNanos = System.nanoTime();
    }

    public long rows() {
        return rows.total();
    }

    public long bytes() {
        return bytes.total();
    }

    public int tablesDone() {
        return tablesDone.get();
    }

    public int tablesTotal() {
        return tablesTotal.get();
    }

    /** Rows the source estimates for the selected tables (planned so far). */
    public long estimatedRows() {
        return estimatedRows.get();
    }

    public int chunksDone() {
        return chunksDone.get();
    }

    public int chunksTotal() {
        return chunksTotal.get();
    }

    /** Bytes written per second lately. */
    public double recentBytesPerSecond() {
        return bytes.sampleRate();
    }

    public double seconds() {
        long end = endNanos == 0 ? System.nanoTime() : endNanos;
        return (end - startNanos) / 1e9;
    }

    @Override
    public String progressLine() {
        long est = estimatedRows.get();
        String pct = est > 0 ? String.format(Locale.ROOT, " (~%.0f%%)", Math.min(100.0, 100.0 * rows() / est)) : "";
        return String.format(Locale.ROOT,
                "tables %d/%d, chunks %d/%d, rows %d of ~%d%s, %.0f rows/s, %.1f MB/s",
                tablesDone.get(), tablesTotal.get(), chunksDone.get(), chunksTotal.get(), rows(), est, pct,
                rows.sampleRate(), bytes.sampleRate() / 1e6);
    }

    @Override
    public String summaryLine() {
        double s = Math.max(seconds(), 1e-9);
        return String.format(Locale.ROOT,
                "dumped %d tables, %d rows, %.1f MB in %.1f s (%.0f rows/s, %.1f MB/s); chunk query %s; chunk write %s",
                tablesDone.get(), rows(), bytes() / 1e6, s, rows() / s, bytes() / 1e6 / s, chunkQuery.summary(),
                chunkWrite.summary());
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("unit", "dump");
        m.put("tablesDone", tablesDone.get());
        m.put("tablesTotal", tablesTotal.get());
        m.put("chunksDone", chunksDone.get());
        m.put("chunksTotal", chunksTotal.get());
        m.put("rows", rows());
        m.put("estimatedRows", estimatedRows.get());
        m.put("bytes", bytes());
        m.put("seconds", seconds());
        m.put("rowsPerSecond", rows.overallRate());
        m.put("chunkQueryP99Ms", chunkQuery.percentileMillis(99));
        m.put("chunkWriteP99Ms", chunkWrite.percentileMillis(99));
        return m;
    }

    @Override
    public void collect(MetricFamilies f) {
        f.counter("jdm_dump_rows_total", "Rows written to dump files", labels, rows());
        f.counter("jdm_dump_bytes_total", "SQL bytes written to dump files, before compression", labels, bytes());
        f.gauge("jdm_dump_tables_done", "Tables completely dumped", labels, tablesDone.get());
        f.gauge("jdm_dump_tables", "Tables selected for the dump", labels, tablesTotal.get());
        f.gauge("jdm_dump_chunks_done", "Chunks completely dumped", labels, chunksDone.get());
        f.gauge("jdm_dump_chunks_planned", "Chunks planned so far", labels, chunksTotal.get());
        f.gauge("jdm_dump_estimated_rows", "Rows the source estimates for the selected tables", labels,
                estimatedRows.get());
        f.histogram("jdm_dump_chunk_query_seconds", "Time from sending a chunk's SELECT to its first row", labels,
                chunkQuery);
        f.histogram("jdm_dump_chunk_write_seconds", "Time a chunk spent writing its files", labels, chunkWrite);
        // Dumpling's own series, which DM labels with task and source_id: its dashboards divide them for the
        // dump's progress. Dumpling types the estimate a counter; it is exposed as a gauge here, since the
        // format names a counter ..._total and DM's dashboards ask for the name without it
        f.gauge("dumpling_dump_finished_rows", "counter for dumpling finished rows", labels, rows());
        f.gauge("dumpling_dump_estimate_total_rows", "estimate total rows for dumpling tables", labels,
                estimatedRows.get());
    }
}
