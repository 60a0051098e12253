package io.jdm.common.metrics;

import java.util.concurrent.atomic.LongAdder;

/** A monotonically growing count with its rate since start and since the last sample. */
public final class Throughput {
    private final String name;
    private final LongAdder total = new LongAdder();
    private final long startNanos = System.nanoTime();
    private long lastNanos = startNanos;
    private long lastTotal;
    private double lastRate;

    public Throughput(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public void add(long n) {
        total.add(n);
    }

    public void increment() {
        total.increment();
    }

    public long total() {
        return total.sum();
    }

    /** Average per second since creation. */
    public double overallRate() {
        double secs = (System.nanoTime() - startNanos) / 1e9;
        return secs <= 0 ? 0 : total() / secs;
    }

    /** Per second since the previous call (the progress line's "recent" rate). */
    public synchronized double sampleRate() {
        long now = System.nanoTime();
        long t = total();
        double secs = (now - lastNanos) / 1e9;
        if (secs >= 0.5) {
            lastRate = (t - lastTotal) / secs;
            lastNanos = now;
            lastTotal = t;
        }
        return lastRate;
    }
}
