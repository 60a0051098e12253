package io.jdm.common.dumpdir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The hand-off from a running dump to a load that follows it: the files the dump has finished, in
 * the order it announced them, and the back-pressure that keeps the dump at most {@code maxAhead}
 * data files ahead of the load.
 *
 * <pre>
 *  dump: schema files ─────────────────────────┐ (never wait: one per table)
 *  dump: chunk workers ── data file ── wait while maxAhead announced files are not loaded yet
 *                                              ▼
 *                                   events, in announced order ──► load: create, register, hand to workers
 *                                                                         │
 *                           ahead - 1 ◄── {@link #fileLoaded()} ◄─────────────┘ a worker finished a file
 * </pre>
 *
 * Only names and {@code jdm-files} entries pass through here; the files stay on disk. A
 * {@link #close() closed} feed (the load failed or stopped) lets every waiting dump worker go on.
 */
public final class DumpFeed implements DumpListener {
    /** Something the dump announced. */
    public sealed interface Event {
    }

    /** A database or table schema file, by its name in the dump directory. */
    public record SchemaFile(String name) implements Event {
    }

    /** A complete data file, as {@code jdm-files} records it. */
    public record DataFile(FileManifest.Entry entry) implements Event {
    }

    /** Every data file of a table is written ({@link DumpListener#tableWritten}). */
    public record TableWritten(io.jdm.common.sql.TableName table) implements Event {
    }

    /** The dump is complete: {@code metadata} is written. */
    public record Complete(DumpMetadata metadata) implements Event {
    }

    private final int maxAhead;
    private final ArrayDeque<Event> events = new ArrayDeque<>();
    private int ahead;
    private int mostAhead;
    private int loaded;
    private int loadedWhenComplete = -1;
    private int begun;
    private int begunWhenComplete = -1;
    private boolean closed;

    /** @param maxAhead how many announced data files may wait unloaded before the dump waits */
    public DumpFeed(int maxAhead) {
        if (maxAhead < 1) {
            throw new IllegalArgumentException("maxAhead must be at least 1, got " + maxAhead);
        }
        this.maxAhead = maxAhead;
    }

    public int maxAhead() {
        return maxAhead;
    }

    @Override
    public synchronized void schemaWritten(String fileName) {
        add(new SchemaFile(fileName));
    }

    @Override
    public synchronized boolean dataWritten(FileManifest.Entry file, long timeout, TimeUnit unit)
            throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!closed && ahead >= maxAhead) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        if (!closed) {
            ahead++;
            mostAhead = Math.max(mostAhead, ahead);
            add(new DataFile(file));
        }
        return true;
    }

    @Override
    public synchronized void tableWritten(io.jdm.common.sql.TableName table) {
        add(new TableWritten(table));
    }

    /** True while the dump cannot announce another data file before the load finishes one. */
    public synchronized boolean dumpWaits() {
        return !closed && ahead >= maxAhead;
    }

    @Override
    public synchronized void completed(DumpMetadata metadata) {
        loadedWhenComplete = loaded;
        begunWhenComplete = begun;
        add(new Complete(metadata));
    }

    private void add(Event e) {
        if (!closed) {
            events.add(e);
            notifyAll();
        }
    }

    /**
     * Waits up to {@code timeout} for the next events and returns all that are there, in order;
     * empty when none came in time or the feed is closed.
     */
    public synchronized List<Event> take(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!closed && events.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return List.of();
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        List<Event> out = new ArrayList<>(events);
        events.clear();
        return out;
    }

    /** A worker of the load took {@code files} announced data files to load (one group). */
    public synchronized void filesBegun(int files) {
        begun += files;
    }

    /** One announced data file is loaded: the dump may write one more. */
    public synchronized void fileLoaded() {
        ahead--;
        loaded++;
        notifyAll();
    }

    /** The load is gone (failed or stopped): nothing waits for it any more. */
    public synchronized void close() {
        closed = true;
        events.clear();
        notifyAll();
    }

    /** The most data files that were ever announced and not yet loaded at once; never above {@link #maxAhead()}. */
    public synchronized int mostAhead() {
        return mostAhead;
    }

    /** Announced data files loaded so far. */
    public synchronized int filesLoaded() {
        return loaded;
    }

    /**
     * Data files the load had begun (taken by a worker, finished or not) when the dump completed; -1
     * while it has not. A table loaded as one LOAD DATA finishes all its files at its end, so this,
     * not {@link #loadedWhenComplete}, tells how far the load overlapped the dump.
     */
    public synchronized int begunWhenComplete() {
        return begunWhenComplete;
    }

    /** Data files already loaded when the dump completed; -1 while it has not. */
    public synchronized int loadedWhenComplete() {
        return loadedWhenComplete;
    }
}
