package io.jdm.common.metrics;

import java.util.Map;

/** What every unit's metrics offer to the progress line, the summary and the daemon. */
public interface MetricSource {
    /** One line for the log every few seconds. */
    String progressLine();

    /** The final line: totals, seconds, rates and latency percentiles. */
    String summaryLine();

    /** A JSON-friendly map for {@code /status}. */
    Map<String, Object> status();

    /** This unit's series for {@code /metrics}, each labelled {@code task} and {@code source_id}. */
    void collect(MetricFamilies f);
}
