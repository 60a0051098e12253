package io.jdm.common.metrics;

import java.util.Map;

/** What every unit's metrics offer to the progress line, the summary and the daemon. */
public interface MetricSource {
    /** One line for the log every few seconds. */
    String progressLine();

    /** The final line: totals, seconds, rates and latency percentiles. */
    String summaryLine();

    /** jdm's own numbers of the unit as a JSON-friendly map: {@code /status} shows them apart from DM's fields. */
    Map<String, Object> status();

    /** This unit's series for {@code /metrics}, each labelled {@code task} and {@code source_id}. */
    void collect(MetricFamilies f);
}
