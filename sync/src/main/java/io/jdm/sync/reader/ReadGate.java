package io.jdm.sync.reader;

import io.jdm.common.position.BinlogPosition;
import java.util.function.BooleanSupplier;

/**
 * Stops the reader at a transaction boundary, for {@code jdm verify --snapshot} and for
 * {@code jdm pause-task}. Closed at nothing (paused): no transaction starts. Closed at P:
 * transactions that start before P go through, the reader stops at the first boundary at or after
 * P. Open: everything goes through. Only the reader thread waits here; the hold watcher opens and
 * closes it for verify. A paused task holds it closed on its own, so a verify hold that ends while
 * the task is paused does not start the reader again.
 */
public final class ReadGate {
    private static final BinlogPosition EVERYTHING = BinlogPosition.of("", 0);

    private volatile boolean closed;
    private volatile boolean taskPaused;
    private BinlogPosition limit = EVERYTHING;

    /** No transaction starts from now on. */
    public synchronized void pause() {
        limit = EVERYTHING;
        closed = true;
        notifyAll();
    }

    /** Transactions before {@code p} go through; the reader stops at the first boundary at or after it. */
    public synchronized void stopAt(BinlogPosition p) {
        limit = p;
        closed = true;
        notifyAll();
    }

    public synchronized void open() {
        closed = false;
        notifyAll();
    }

    /** No transaction starts until {@link #resumeTask()}, whatever verify asks. */
    public synchronized void pauseTask() {
        taskPaused = true;
        notifyAll();
    }

    public synchronized void resumeTask() {
        taskPaused = false;
        notifyAll();
    }

    /** Closed for verify (paused or at a position). */
    public boolean isClosed() {
        return closed;
    }

    public boolean isTaskPaused() {
        return taskPaused;
    }

    /** Closed for verify or for a paused task: the reader checks {@link #before} at each boundary. */
    boolean mayHold() {
        return closed || taskPaused;
    }

    /**
     * Called by the reader before an event that starts at {@code file:pos} outside any transaction;
     * returns true once the event may be read, false when the gate stayed closed for
     * {@code maxWaitNanos} (the reader then drops its connection rather than leave the source's binlog
     * stream blocked, see {@link EventDispatcher}), or when {@code stop} says so.
     */
    boolean before(String file, long pos, BooleanSupplier stop, long maxWaitNanos) throws InterruptedException {
        if (!closed && !taskPaused) {
            return true;
        }
        BinlogPosition at = BinlogPosition.of(file, pos);
        long deadline = System.nanoTime() + maxWaitNanos;
        synchronized (this) {
            while (holds(at) && !stop.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                wait(100);
            }
        }
        return !stop.getAsBoolean();
    }

    /** Waits, without a connection, until reading from {@code at} may go on (or {@code stop} says so). */
    void awaitPassable(BinlogPosition at, BooleanSupplier stop) throws InterruptedException {
        synchronized (this) {
            while (holds(at) && !stop.getAsBoolean()) {
                wait(100);
            }
        }
    }

    private boolean holds(BinlogPosition at) {
        return taskPaused
                || closed && (limit == EVERYTHING || at.compareTo(limit) >= 0); // positions compare by file and offset
    }
}
