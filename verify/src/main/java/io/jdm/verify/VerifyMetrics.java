package io.jdm.verify;

import io.jdm.common.metrics.MetricSource;
import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.metrics.Throughput;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Rows checked per second (source rows whose chunk was compared), chunks done, rows found different. */
public final class VerifyMetrics implements MetricSource {
    private final String task;
    private final Throughput rows = new Throughput("rows");
    private final AtomicLong chunksPlanned = new AtomicLong();
    private final AtomicLong chunksDone = new AtomicLong();
    private final AtomicLong chunksDifferent = new AtomicLong();
    private final AtomicLong rowsDifferent = new AtomicLong();
    private final AtomicLong tables = new AtomicLong();

    VerifyMetrics(String task) {
        this.task = task;
    }

    void tables(long n) {
        tables.set(n);
    }

    void planned(long chunks) {
        chunksPlanned.addAndGet(chunks);
    }

    void chunkDone(long sourceRows, boolean differed, long differingRows) {
        rows.add(sourceRows);
        chunksDone.incrementAndGet();
        if (differed) {
            chunksDifferent.incrementAndGet();
        }
        rowsDifferent.addAndGet(differingRows);
    }

    public long rowsChecked() {
        return rows.total();
    }

    public double rowsPerSecond() {
        return rows.overallRate();
    }

    public long chunksDone() {
        return chunksDone.get();
    }

    public long rowsDifferent() {
        return rowsDifferent.get();
    }

    @Override
    public String progressLine() {
        return String.format(Locale.ROOT, "verify: %d/%d chunks of %d tables, %d rows checked (%.0f rows/s),"
                        + " %d chunks differ, %d rows differ", chunksDone.get(), chunksPlanned.get(), tables.get(),
                rows.total(), rows.sampleRate(), chunksDifferent.get(), rowsDifferent.get());
    }

    @Override
    public String summaryLine() {
        return String.format(Locale.ROOT, "verify: %d rows checked in %d chunks at %.0f rows/s, %d rows differ",
                rows.total(), chunksDone.get(), rows.overallRate(), rowsDifferent.get());
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tables", tables.get());
        m.put("chunksPlanned", chunksPlanned.get());
        m.put("chunksDone", chunksDone.get());
        m.put("chunksDifferent", chunksDifferent.get());
        m.put("rowsChecked", rows.total());
        m.put("rowsPerSecond", Math.round(rows.overallRate()));
        m.put("rowsDifferent", rowsDifferent.get());
        return m;
    }

    @Override
    public void collect(MetricFamilies f) {
        Labels l = Labels.of("task", task);
        f.counter("jdm_verify_rows_checked_total", "Source rows whose chunk was compared", l, rows.total());
        f.counter("jdm_verify_chunks_done_total", "Chunks compared", l, chunksDone.get());
        f.gauge("jdm_verify_chunks_planned", "Chunks planned so far", l, chunksPlanned.get());
        f.counter("jdm_verify_chunks_different_total", "Chunks whose checksums differed", l, chunksDifferent.get());
        f.counter("jdm_verify_rows_different_total", "Rows found missing, extra or changed", l, rowsDifferent.get());
    }
}
