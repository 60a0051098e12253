package io.jdm.load;

import io.jdm.common.metrics.Latency;
import io.jdm.common.metrics.MetricSource;
import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.metrics.ProcessMetrics;
import io.jdm.common.metrics.Throughput;
import io.jdm.common.retry.RetryCounter;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load unit's counters: bytes of dump files read (as stored, so progress works for compressed
 * files too), rows and statements written, files done of total, and the latency of each
 * transaction (statements plus checkpoint, through commit); on {@code /metrics} under the names of
 * DM's loader unit (the one before DM loaded with Lightning, which jdm's load is like).
 */
public final class LoadMetrics implements MetricSource {
    private final Labels labels;
    private final Throughput bytes = new Throughput("bytes");
    private final Throughput rows = new Throughput("rows");
    private final Throughput statements = new Throughput("statements");
    private final Latency transactions = new Latency("transaction");
    private final AtomicInteger filesDone = new AtomicInteger();
    private final AtomicInteger filesTotal = new AtomicInteger();
    private final AtomicInteger tablesTotal = new AtomicInteger();
    private final AtomicLong bytesTotal = new AtomicLong();
    private final AtomicLong bytesAlreadyDone = new AtomicLong();
    private final RetryCounter retries = new RetryCounter();
    private final long startNanos = System.nanoTime();
    private volatile long endNanos;

    LoadMetrics(String task, String sourceId) {
        this.labels = ProcessMetrics.unitLabels(task, sourceId);
    }

    void plan(int tables, int files, long totalBytes, int finishedFiles, long finishedBytes) {
        tablesTotal.set(tables);
        filesTotal.set(files);
        bytesTotal.set(totalBytes);
        filesDone.set(finishedFiles);
        bytesAlreadyDone.set(finishedBytes);
    }

    /** A data file of a dump that is still being written arrived: the totals grow with the dump. */
    void arrived(long size) {
        filesTotal.incrementAndGet();
        bytesTotal.addAndGet(size);
    }

    /** The schema of a table of a dump that is still being written arrived. */
    void tableArrived() {
        tablesTotal.incrementAndGet();
    }

    void addBytes(long n) {
        bytes.add(n);
    }

    void addRows(long n) {
        rows.add(n);
    }

    void addStatements(long n) {
        statements.add(n);
    }

    void fileDone() {
        filesDone.incrementAndGet();
    }

    /** Retries of statements and files, by the target's error code. */
    RetryCounter retries() {
        return retries;
    }

    void recordTransaction(long startNanos) {
        transactions.recordSince(startNanos);
    }

    void end() {
        endNanos = System.nanoTime();
    }

    public long rows() {
        return rows.total();
    }

    public long bytes() {
        return bytes.total();
    }

    /** Bytes of the dump loaded, before this run included. */
    public long finishedBytes() {
        return bytesAlreadyDone.get() + bytes.total();
    }

    /** Bytes of the whole dump. */
    public long totalBytes() {
        return bytesTotal.get();
    }

    /** Bytes read per second lately. */
    public double recentBytesPerSecond() {
        return bytes.sampleRate();
    }

    public int filesDone() {
        return filesDone.get();
    }

    public int filesTotal() {
        return filesTotal.get();
    }

    public Latency transactionLatency() {
        return transactions;
    }

    /** Fraction 0..1 of the dump's bytes that are loaded (finished before this run included). */
    public double progress() {
        long total = bytesTotal.get();
        if (total <= 0) {
            return filesTotal.get() == 0 ? 1.0 : (double) filesDone.get() / filesTotal.get();
        }
        return Math.min(1.0, (bytesAlreadyDone.get() + bytes.total()) / (double) total);
    }

    /**
     * Seconds left at the bytes per second of this run so far; 0 when everything is loaded, -1 (no
     * estimate) before anything was read or known, or once the run ended short of the end.
     */
    private double remainingSeconds() {
        long left = bytesTotal.get() - bytesAlreadyDone.get() - bytes.total();
        if (left <= 0) {
            return bytesTotal.get() == 0 && endNanos == 0 ? -1 : 0;
        }
        double rate = bytes.overallRate();
        return rate <= 0 || endNanos != 0 ? -1 : left / rate;
    }

    private double elapsedSeconds() {
        long end = endNanos == 0 ? System.nanoTime() : endNanos;
        return (end - startNanos) / 1e9;
    }

    @Override
    public String progressLine() {
        double mbps = bytes.sampleRate() / 1e6;
        double left = remainingSeconds();
        String eta = left <= 0 ? "-" : Math.round(left) + "s";
        return String.format(Locale.ROOT, "files %d/%d %.1f%% %.1f MB/s %.0f rows/s ETA %s txn %s",
                filesDone.get(), filesTotal.get(), progress() * 100, mbps, rows.sampleRate(), eta,
                transactions.summary());
    }

    @Override
    public String summaryLine() {
        double secs = elapsedSeconds();
        return String.format(Locale.ROOT,
                "loaded %d/%d files, %d rows, %.1f MB in %.1fs: %.1f MB/s %.0f rows/s, %d statements, "
                        + "%d retries, txn %s",
                filesDone.get(), filesTotal.get(), rows.total(), bytes.total() / 1e6, secs,
                secs <= 0 ? 0 : bytes.total() / 1e6 / secs, secs <= 0 ? 0 : rows.total() / secs,
                statements.total(), retries.total(), transactions.summary());
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("unit", "load");
        m.put("filesDone", filesDone.get());
        m.put("filesTotal", filesTotal.get());
        m.put("bytes", bytes.total());
        m.put("bytesTotal", bytesTotal.get());
        m.put("rows", rows.total());
        m.put("progress", progress());
        m.put("retries", retries.total());
        m.put("transactionP95Ms", transactions.percentileMillis(95));
        m.put("transactionP99Ms", transactions.percentileMillis(99));
        return m;
    }

    @Override
    public void collect(MetricFamilies f) {
        f.counter("jdm_load_bytes_total", "Bytes of dump files read", labels, bytes.total());
        f.counter("jdm_load_rows_total", "Rows written to the target", labels, rows.total());
        f.counter("jdm_load_statements_total", "Statements executed on the target", labels, statements.total());
        f.gauge("jdm_load_files_done", "Data files finished", labels, filesDone.get());
        retries.byReason().forEach((code, n) -> f.counter("jdm_load_retries_total",
                "retries by the target's error code", labels.add("code", code), n));
        f.gauge("dm_loader_data_file_gauge", "data files in total", labels, filesTotal.get());
        f.gauge("dm_loader_data_size_gauge", "data size in total", labels, bytesTotal.get());
        f.gauge("dm_loader_table_gauge", "tables in total", labels, tablesTotal.get());
        f.gauge("dm_loader_progress", "the processing progress of loader, 0 to 1 as in DM", labels, progress());
        double left = remainingSeconds();
        if (left >= 0) { // no estimate before the first bytes are read
            f.gauge("dm_loader_remaining_time", "the remaining time in second to finish load process",
                    labels.add("worker", ProcessMetrics.worker()), left);
        }
        f.histogram("dm_loader_query_duration_time", "Bucketed histogram of query time (s) of a txn.", labels,
                transactions);
        f.histogram("dm_loader_txn_duration_time", "Bucketed histogram of processing time (s) of a txn.",
                labels.add("worker", ProcessMetrics.worker()), transactions);
    }
}
