package io.jdm.bench.result;

import java.util.List;

/**
 * What a bench run measured: every sample, the lag traces, and notes (dataset, skipped peers and why).
 *
 * @param name the bench file's {@code name}
 * @param repetitions how many times each setting was measured (each median is over this many samples)
 */
public record BenchResults(String name, int repetitions, List<Sample> samples, List<LagTrace> lags,
                           List<String> notes) {
    public BenchResults {
        samples = List.copyOf(samples);
        lags = List.copyOf(lags);
        notes = List.copyOf(notes);
    }
}
