package io.jdm.cli.daemon;

import java.util.Map;

/** What the daemon's endpoints show; implemented by the task runner. */
public interface StatusProvider {
    /** A JSON-friendly tree: stage, unit, progress, positions, lag, errors. */
    Map<String, Object> status();

    /** Prometheus text exposition of every unit's counters and latencies. */
    String metrics();
}
