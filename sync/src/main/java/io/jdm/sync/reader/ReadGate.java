package io.jdm.sync.reader;

import io.jdm.common.position.BinlogPosition;
import java.util.function.BooleanSupplier;

/**
 * Stops the reader at a transaction boundary for {@code jdm verify --snapshot}. Closed at nothing
 * (paused): no transaction starts. Closed at P: transactions that start before P go through, the
 * reader stops at the first boundary at or after P. Open: everything goes through. Only the reader
 * thread waits here; the hold watcher opens and closes it.
 */
public final class ReadGate {
    private static final BinlogPosition EVERYTHING = BinlogPosition.of("", 0);

    private volatile boolean closed;
    private BinlogPosition limit = EVERYTHING;
    private boolean waiting;

    /** No transaction starts from now on. */
    public synchronized void pause() {
        limit = EVERYTHING;
        closed = true;
        notifyAll();
    }

    /** Transactions before {@code p} go through; the reader stops at the first boundary at or after it. */
    public synchronized void stopAt(BinlogPosition p) {
        limit = BinlogPosition.of(p.file(), p.pos());
        closed = true;
        notifyAll();
    }

    public synchronized void open() {
        closed = false;
        notifyAll();
    }

    public boolean isClosed() {
        return closed;
    }

    /** True while the reader waits at the gate. */
    public synchronized boolean readerWaiting() {
        return waiting;
    }

    /**
     * Called by the reader before an event that starts at {@code file:pos} outside any transaction;
     * returns once the event may be read, or once {@code stop} says so.
     */
    void before(String file, long pos, BooleanSupplier stop) throws InterruptedException {
        if (!closed) {
            return;
        }
        BinlogPosition at = BinlogPosition.of(file, pos);
        synchronized (this) {
            try {
                while (closed && (limit == EVERYTHING || at.compareTo(limit) >= 0) && !stop.getAsBoolean()) {
                    waiting = true;
                    wait(100);
                }
            } finally {
                waiting = false;
            }
        }
    }
}
