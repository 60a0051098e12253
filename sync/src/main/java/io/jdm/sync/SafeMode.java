package io.jdm.sync;

import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.ring.ChangePos;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Whether the writers replay a batch idempotently (DM's safe mode: INSERT as REPLACE, UPDATE as
 * DELETE + REPLACE). The one place that decides it; the writers ask once per batch, with the
 * position of the batch's first change. On when the task sets {@code safe-mode}, for
 * {@code safe-mode-duration} after each start, and for every change whose transaction starts
 * before {@code until}: a lock-free dump's highest HIGH, up to which its chunks' images and the
 * binlog overlap.
 */
final class SafeMode implements Predicate<ChangePos> {
    private final boolean always;
    private final Duration afterStart;
    private final BinlogPosition until;
    private volatile long untilNanos;

    SafeMode(boolean always, Duration afterStart, BinlogPosition until) {
        this.always = always;
        this.afterStart = afterStart;
        this.until = until;
    }

    SafeMode(SyncConfig cfg) {
        this(cfg.safeMode(), cfg.safeModeDuration(), cfg.safeModeUntil());
    }

    /** The unit starts streaming now: the {@code safe-mode-duration} counts from here. */
    void started() {
        untilNanos = System.nanoTime() + afterStart.toNanos();
    }

    @Override
    public boolean test(ChangePos first) {
        return always || System.nanoTime() < untilNanos || before(first);
    }

    /** True when a batch starting with {@code first} overlaps a lock-free dump: its transaction starts before {@code until}. */
    boolean before(ChangePos first) {
        return until != null && first.restartPoint().compareTo(until) < 0;
    }
}
