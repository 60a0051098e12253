package io.jdm.bench.result;

import java.util.List;

/**
 * What a bench run measured: every sample, the lag traces, and notes (dataset, skipped peers and why).
 *
 * @param name the bench file's {@code name}
 * @param repetitions how many times each setting was measured (each median is over this many samples)
 * @param runner how jdm's samples ran: {@link #PROCESS}, the figure a user gets, or {@link #IN_JVM}, a
 *        profiling aid that every report says it is in its header
 */
public record BenchResults(String name, int repetitions, String runner, List<Sample> samples, List<LagTrace> lags,
                           List<String> notes) {
    public static final String PROCESS = "process";
    public static final String IN_JVM = "in-jvm";

    public BenchResults {
        if (!runner.equals(PROCESS) && !runner.equals(IN_JVM)) {
            throw new IllegalArgumentException("runner: must be process or in-jvm, got " + runner);
        }
        samples = List.copyOf(samples);
        lags = List.copyOf(lags);
        notes = List.copyOf(notes);
    }
}
