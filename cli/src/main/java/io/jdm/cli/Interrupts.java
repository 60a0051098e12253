package io.jdm.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ctrl-C / SIGTERM while a unit runs: the first signal asks the unit to stop cleanly (drain,
 * flush checkpoints) and waits for it; the JVM exits when the unit returns. A second signal
 * exits at once (checkpoints in the target stay consistent because they commit with the data).
 */
final class Interrupts implements AutoCloseable {
    private final Thread hook;
    private final AtomicBoolean done = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    /** How long the hook waits for the unit to drain before the JVM exits anyway. */
    private static final long DRAIN_SECONDS = 60;

    private Interrupts(Runnable stop) {
        this.hook = new Thread(() -> {
            if (!done.get()) {
                System.err.println("jdm: stopping (signal received); a second Ctrl-C exits at once");
                stop.run();
                try {
                    if (!finished.await(DRAIN_SECONDS, TimeUnit.SECONDS)) {
                        System.err.println("jdm: the unit did not stop within " + DRAIN_SECONDS + "s; exiting");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "jdm-signal");
    }

    static Interrupts onSignal(Runnable stop) {
        Interrupts i = new Interrupts(stop);
        Runtime.getRuntime().addShutdownHook(i.hook);
        return i;
    }

    @Override
    public void close() {
        done.set(true);
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // Shutdown already in progress: the hook is running or ran.
        }
    }
}
