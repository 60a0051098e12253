package io.jdm.cli.run;

import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.metrics.MetricSource;
import io.jdm.dump.DumpMetrics;
import io.jdm.load.LoadMetrics;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The numbers of a source whose load follows its dump: {@code /metrics} carries both units' series,
 * {@code /status} shows the unit as Load (DM's load section) with the dump's own numbers under
 * {@code jdm.dump}. Each unit logs its own progress line; this adds none.
 */
record DumpLoadMetrics(DumpMetrics dump, LoadMetrics load) implements MetricSource {
    @Override
    public String progressLine() {
        return load.progressLine();
    }

    @Override
    public String summaryLine() {
        return load.summaryLine();
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>(load.status());
        m.put("dump", dump.status());
        return m;
    }

    @Override
    public void collect(MetricFamilies f) {
        dump.collect(f);
        load.collect(f);
    }
}
