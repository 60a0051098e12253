package io.jdm.common.lease;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How long a start waits for a source's lease that another live process holds, and the stop that
 * ends the wait (a signal). Waiting in the process, not exiting, is what lets a scheduler's restart
 * converge: systemd's start limits and a pod's back-off would otherwise stretch a 30 s lease into
 * minutes. {@link #refuse()} keeps the old answer: one line naming the owner, at once.
 */
public final class LeaseWait {
    private final Duration limit;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private LeaseWait(Duration limit) {
        if (limit != null && limit.isNegative()) {
            throw new IllegalArgumentException("lease wait: must be 0 or more, got " + limit);
        }
        this.limit = limit;
    }

    /** Refuses a held lease at once. */
    public static LeaseWait refuse() {
        return new LeaseWait(Duration.ZERO);
    }

    /** Waits at most {@code limit} (0: refuses at once). */
    public static LeaseWait upTo(Duration limit) {
        return new LeaseWait(limit);
    }

    /** Waits until the lease is taken or {@link #stop()} is called. */
    public static LeaseWait untilTaken() {
        return new LeaseWait(null);
    }

    /** The longest wait; empty when there is none. */
    public Optional<Duration> limit() {
        return Optional.ofNullable(limit);
    }

    /** Ends a wait that runs, and any later one, with {@link Stopped}. */
    public void stop() {
        stopped.countDown();
    }

    public boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /** Whether a wait that began {@code waitedNanos} ago may go on. */
    boolean allows(long waitedNanos) {
        return limit == null || waitedNanos < limit.toNanos();
    }

    /** Sleeps {@code pause} unless stopped first; throws {@link Stopped} when stopped. */
    void pause(Duration pause) {
        try {
            if (stopped.await(pause.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new Stopped();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Stopped();
        }
    }

    /** What people read: {@code at most 90s}, {@code until it is free}. */
    String describe() {
        return limit == null ? "until it is free" : "at most " + limit.toString().substring(2).toLowerCase();
    }

    /** A wait for a lease that was ended by {@link #stop()} (or an interrupt): nothing was taken. */
    public static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("stopped while waiting for the lease", null, false, false);
        }
    }
}
