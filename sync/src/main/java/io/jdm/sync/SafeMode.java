package io.jdm.sync;

import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.ring.ChangePos;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Whether the writers replay a batch idempotently (DM's safe mode: INSERT as REPLACE, UPDATE as
 * REPLACE, after a DELETE of the old key when the key changes). The one place that decides it; the
 * writers ask once per batch, with the position of the batch's first change. On when the task sets
 * {@code safe-mode}; for {@code safe-mode-duration} after a start whose position may not be exact
 * (the task's {@code meta}, or a dump that took no lock); and for every change whose transaction
 * starts before {@code until}: a lock-free dump's highest HIGH, up to which its chunks' images and
 * the binlog overlap.
 *
 * <p>Unlike DM, a start from the unit's own checkpoints, or from the position of a dump that
 * held a consistent snapshot, runs no safe mode at all: each writer commits its position in the
 * transaction of its rows, so nothing before the start is applied twice and nothing after it is
 * on the target yet. DM writes its checkpoint apart from the data and so needs the first
 * minute's safe mode after every start.
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
        this(cfg.syncer().safeMode(), cfg.syncer().safeModeDuration(), cfg.safeModeUntil());
    }

    /**
     * The unit starts streaming now: the {@code safe-mode-duration} counts from here, unless the
     * start is exact.
     *
     * @param exact the start is the unit's own checkpoint or a consistent dump's position
     * @return whether the start-up safe mode runs
     */
    boolean started(boolean exact) {
        if (exact || afterStart.isZero()) {
            untilNanos = System.nanoTime();
            return false;
        }
        untilNanos = System.nanoTime() + afterStart.toNanos();
        return true;
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
