package io.jdm.sync.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A wait for the writers' commits ends on the commit that reaches it, on give-up, or at its deadline. */
class WriterProgressTest {
    private static final long LONG_DEADLINE = TimeUnit.SECONDS.toNanos(60);

    @Test
    void aWaitEndsOnTheCommitThatReachesItsTarget() throws Exception {
        WriterProgress p = new WriterProgress(2);
        CompletableFuture<Boolean> waited = waitFor(p, 5, () -> false);
        p.committed(0, 9, null);
        Thread.sleep(50);
        assertFalse(waited.isDone(), "writer 1 has not committed yet");
        p.committed(1, 5, null);
        // far sooner than the deadline: the commit woke it
        assertTrue(waited.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aWaitAlreadyReachedReturnsAtOnce() throws Exception {
        WriterProgress p = new WriterProgress(1);
        p.committed(0, 3, null);
        assertTrue(p.awaitCommitted(() -> 3, () -> false, System.nanoTime()));
    }

    @Test
    void aWaitGivesUpWhenWokenWithItsReasonSet() throws Exception {
        WriterProgress p = new WriterProgress(1);
        AtomicBoolean failed = new AtomicBoolean();
        CompletableFuture<Boolean> waited = waitFor(p, 5, failed::get);
        Thread.sleep(50);
        failed.set(true);
        p.wakeWaiters();
        assertFalse(waited.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aWaitEndsAtItsDeadline() throws Exception {
        WriterProgress p = new WriterProgress(1);
        long t0 = System.nanoTime();
        assertFalse(p.awaitCommitted(() -> 0, () -> false, t0 + TimeUnit.MILLISECONDS.toNanos(100)));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(100));
        assertEquals(-1, p.minSequence());
    }

    private static CompletableFuture<Boolean> waitFor(WriterProgress p, long target,
                                                      java.util.function.BooleanSupplier giveUp)
            throws InterruptedException {
        CompletableFuture<Boolean> f = new CompletableFuture<>();
        CountDownLatch running = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            running.countDown();
            try {
                f.complete(p.awaitCommitted(() -> target, giveUp, System.nanoTime() + LONG_DEADLINE));
            } catch (InterruptedException e) {
                f.completeExceptionally(e);
            }
        }, "writer-progress-test-waiter");
        t.setDaemon(true);
        t.start();
        running.await();
        return f;
    }
}
