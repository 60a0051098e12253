package io.jdm.bench;

import io.jdm.bench.result.BenchResults;
import io.jdm.bench.result.LagTrace;
import io.jdm.bench.result.Sample;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Collects samples, lag traces and notes as the sweeps produce them, printing one line per sample. */
final class Recorder {
    private final PrintStream out;
    private final List<Sample> samples = new ArrayList<>();
    private final List<LagTrace> lags = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Recorder(PrintStream out) {
        this.out = out;
    }

    synchronized void sample(Sample s) {
        samples.add(s);
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Double> e : s.metrics().entrySet()) {
            sb.append(String.format(Locale.ROOT, " %s=%.2f", e.getKey(), e.getValue()));
        }
        out.printf(Locale.ROOT, "  %-5s %-28s %-16s %-40s #%d%s%n", s.sweep(), s.tool(), s.mix(), s.setting(),
                s.repetition(), sb);
    }

    synchronized void lag(LagTrace t) {
        lags.add(t);
    }

    synchronized void note(String n) {
        notes.add(n);
        out.println("jdm bench: " + n);
    }

    synchronized BenchResults results(BenchConfig cfg) {
        return new BenchResults(cfg.name(), cfg.repetitions(),
                cfg.runner() == BenchConfig.Runner.IN_JVM ? BenchResults.IN_JVM : BenchResults.PROCESS, samples, lags,
                notes);
    }
}
