package io.jdm.sync.ring;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Blocks while nothing has been published (the reader signals each publish), and waits for an
 * earlier stage (causality, for the writers) by spinning briefly, then yielding, then parking with a
 * growing pause. The Disruptor's own BlockingWaitStrategy busy-spins on earlier stages: with 32
 * writers on two cores the spinning writers starved the causality stage, the reader and the target
 * itself, and sync at worker-count 32 ran at half the speed of worker-count 8.
 */
public final class ParkingWaitStrategy implements WaitStrategy {
    private static final int SPINS = 100;
    private static final int YIELDS = 100;
    private static final long MAX_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition published = lock.newCondition();

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException, InterruptedException {
        if (cursor.get() < sequence) {
            lock.lock();
            try {
                while (cursor.get() < sequence) {
                    barrier.checkAlert();
                    published.await(100, TimeUnit.MILLISECONDS); // publish and halt signal; the timeout is a safety net
                }
            } finally {
                lock.unlock();
            }
        }
        long available;
        int tries = 0;
        long park = 1_000;
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            if (tries < SPINS) {
                Thread.onSpinWait();
            } else if (tries < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, MAX_PARK_NANOS);
            }
            tries++;
        }
        return available;
    }

    @Override
    public void signalAllWhenBlocking() {
        lock.lock();
        try {
            published.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
