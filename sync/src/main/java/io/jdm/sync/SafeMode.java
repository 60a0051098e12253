package io.jdm.sync;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Whether the writers replay changes idempotently (DM's safe mode: INSERT as REPLACE, UPDATE as
 * DELETE + REPLACE). The one place that decides it; the writers ask once per batch. On when the
 * task sets {@code safe-mode}, and for {@code safe-mode-duration} after each start.
 */
final class SafeMode implements BooleanSupplier {
    private final boolean always;
    private final Duration afterStart;
    private volatile long untilNanos;

    SafeMode(boolean always, Duration afterStart) {
        this.always = always;
        this.afterStart = afterStart;
    }

    /** The unit starts streaming now: the {@code safe-mode-duration} counts from here. */
    void started() {
        untilNanos = System.nanoTime() + afterStart.toNanos();
    }

    @Override
    public boolean getAsBoolean() {
        return always || System.nanoTime() < untilNanos;
    }
}
