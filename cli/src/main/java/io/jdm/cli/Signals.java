package io.jdm.cli;

import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT / SIGTERM while a task or a one-shot dump or load runs: the first asks it to stop cleanly
 * on a separate thread (a sync stops reading, drains its writers and flushes its checkpoints; a load
 * commits what ran with its offset; a dump leaves no metadata); a second exits at once. Exiting at
 * once loses nothing: every checkpoint commits in the same transaction as the data it describes, so
 * the next run resumes from there (in safe mode where a unit needs it).
 *
 * <p>Uses {@code sun.misc.Signal} because a JVM shutdown hook cannot see a second signal.
 */
final class Signals {
    private static final Logger LOG = LoggerFactory.getLogger("jdm");
    /** The exit code of a one-shot command that a signal stopped before it finished (128 + SIGINT). */
    static final int STOPPED = 130;

    private Signals() {
    }

    static void onStop(String task, Runnable stop) {
        AtomicInteger count = new AtomicInteger();
        SignalHandler h = sig -> {
            if (count.incrementAndGet() == 1) {
                LOG.info("task {}: SIG{} received, stopping cleanly (send it again to exit at once)", task,
                        sig.getName());
                Thread t = new Thread(stop, task + "-stop");
                t.setDaemon(true);
                t.start();
            } else {
                LOG.warn("task {}: second SIG{}, exiting now; the next run resumes from the checkpoints",
                        task, sig.getName());
                Runtime.getRuntime().halt(STOPPED);
            }
        };
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                Signal.handle(new Signal(name), h);
            } catch (IllegalArgumentException e) {
                LOG.debug("signal {} not available: {}", name, e.getMessage());
            }
        }
    }
}
