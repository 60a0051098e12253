package io.jdm.bench;

import java.util.List;

/**
 * What a bench run measured: every sample, the lag traces, and notes (dataset, skipped peers and why).
 */
public record BenchResults(BenchConfig config, List<Sample> samples, List<LagTrace> lags, List<String> notes) {
    public BenchResults {
        samples = List.copyOf(samples);
        lags = List.copyOf(lags);
        notes = List.copyOf(notes);
    }
}
