package io.jdm.cli.run;

import java.time.Duration;

/**
 * pause-task and resume-task while a source dumps or loads, as DM does it: a pause ends the unit
 * that runs (the load after its current statement, its checkpoint committed; the dump without its
 * {@code metadata}), and the runner's thread waits here until resume-task or stop-task. Once
 * resumed, the runner runs the source's stages again from the stage table, exactly as a restart
 * does: the load goes on from its checkpoint, an incomplete dump starts over. stop-task and a lost
 * lease end the running unit here too ({@link #close}).
 *
 * <p>Every pause counts: the runner takes the count when it starts a source's stages
 * ({@link #awaitResumed}) and runs them again if a pause came meanwhile, whatever the unit made of
 * its stop. Running them again is harmless (what is recorded done is not done twice), so no pause
 * can slip between a unit's end and the runner's look at it.
 */
final class PauseGate {
    /** What {@link #awaitResumed} returns once the task is stopping: nothing more may start. */
    static final long CLOSED = -1;

    private boolean paused;
    private boolean closed;
    private long pauses;
    /** Ends the dump or load that runs now; null while none does. */
    private Runnable running;

    /**
     * Registers the unit the runner is about to start.
     *
     * @param stop ends it at its next safe point
     * @return false when paused or stopping: the unit must not start
     */
    synchronized boolean enter(Runnable stop) {
        if (paused || closed) {
            return false;
        }
        running = stop;
        return true;
    }

    /** The unit registered by {@link #enter} has ended. */
    synchronized void exit() {
        running = null;
        notifyAll();
    }

    /**
     * Pauses: ends the running unit and waits until it has.
     *
     * @return false when it is still ending after {@code timeout}
     */
    boolean pause(Duration timeout) throws InterruptedException {
        Runnable stop;
        synchronized (this) {
            paused = true;
            pauses++;
            stop = running;
        }
        if (stop != null) {
            stop.run();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            while (running != null && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        }
        return true;
    }

    synchronized void resume() {
        paused = false;
        notifyAll();
    }

    /** The task stops: the running unit ends, nothing waits here any longer and nothing starts. */
    void close() {
        Runnable stop;
        synchronized (this) {
            closed = true;
            notifyAll();
            stop = running;
        }
        if (stop != null) {
            stop.run();
        }
    }

    synchronized boolean paused() {
        return paused && !closed;
    }

    synchronized long pauses() {
        return pauses;
    }

    /**
     * Waits while paused.
     *
     * @return the number of pauses so far, to compare with {@link #pauses()} later; {@link #CLOSED}
     *         when the task is stopping
     */
    synchronized long awaitResumed() throws InterruptedException {
        while (paused && !closed) {
            wait();
        }
        return closed ? CLOSED : pauses;
    }
}
