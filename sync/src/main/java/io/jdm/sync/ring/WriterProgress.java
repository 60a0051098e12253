package io.jdm.sync.ring;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * What each writer has committed: the ring sequence below which none of its changes is pending,
 * and the binlog position that goes with it. Writers set; causality, the global checkpoint and
 * {@code awaitCaughtUp} read, and a pause or a caught-up wait sleeps in {@link #awaitCommitted} until
 * a commit wakes it.
 */
public final class WriterProgress {
    private final AtomicLongArray sequence;
    private final AtomicReferenceArray<ChangePos> position;
    /** Threads in {@link #awaitCommitted}: a commit takes the monitor only when there is one. */
    private final AtomicInteger waiting = new AtomicInteger();
    private final Object commits = new Object();

    public WriterProgress(int writers) {
        sequence = new AtomicLongArray(writers);
        position = new AtomicReferenceArray<>(writers);
        for (int i = 0; i < writers; i++) {
            sequence.set(i, -1);
        }
    }

    public int writers() {
        return sequence.length();
    }

    public void committed(int writer, long seq, ChangePos pos) {
        if (pos != null) {
            position.set(writer, pos);
        }
        sequence.set(writer, seq);
        // the sequence is written before the count is read and a waiter counts itself before it reads
        // the sequence, so either the waiter sees this commit or this commit sees the waiter
        if (waiting.get() > 0) {
            wakeWaiters();
        }
    }

    /** Wakes every {@link #awaitCommitted} so it looks again (a commit does; so does a failure). */
    public void wakeWaiters() {
        synchronized (commits) {
            commits.notifyAll();
        }
    }

    /**
     * Waits until {@link #minSequence()} reaches {@code target} (read again after every commit).
     * False when {@code giveUp} turns true (looked at whenever woken) or at {@code deadlineNanos}
     * ({@link System#nanoTime()}).
     */
    public boolean awaitCommitted(LongSupplier target, BooleanSupplier giveUp, long deadlineNanos)
            throws InterruptedException {
        waiting.incrementAndGet();
        try {
            synchronized (commits) {
                while (!giveUp.getAsBoolean()) {
                    if (minSequence() >= target.getAsLong()) {
                        return true;
                    }
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(commits, left);
                }
                return false;
            }
        } finally {
            waiting.decrementAndGet();
        }
    }

    public long sequence(int writer) {
        return sequence.get(writer);
    }

    public ChangePos position(int writer) {
        return position.get(writer);
    }

    /** The lowest committed sequence over all writers. */
    public long minSequence() {
        long m = Long.MAX_VALUE;
        for (int i = 0; i < sequence.length(); i++) {
            m = Math.min(m, sequence.get(i));
        }
        return m;
    }

    /** The lowest committed position over all writers (null until every writer has one). */
    public ChangePos minPosition() {
        ChangePos m = null;
        for (int i = 0; i < position.length(); i++) {
            ChangePos p = position.get(i);
            if (p == null) {
                return null;
            }
            if (m == null || p.compareTo(m) < 0) {
                m = p;
            }
        }
        return m;
    }
}
