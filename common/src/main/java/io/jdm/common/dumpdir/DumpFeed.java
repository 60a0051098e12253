package io.jdm.common.dumpdir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The hand-off from a running dump to a load that follows it: the files the dump has finished, in
 * the order it announced them, and the back-pressure that holds the dump back while the data files
 * it announced and the load has not finished hold {@code maxAheadBytes} or more.
 *
 * <pre>
 *  dump: schema files ─────────────────────────┐ (never wait: one per table)
 *  dump: chunk workers ── data file ── wait while maxAheadBytes of announced files are not loaded yet
 *                                              ▼
 *                                   events, in announced order ──► load: create, register, hand to workers
 *                                                                         │
 *                   ahead - its bytes ◄── {@link #fileLoaded} ◄─────────────┘ a worker finished a file
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

    private final long maxAheadBytes;
    private final ArrayDeque<Event> events = new ArrayDeque<>();
    /** The size of each announced data file not loaded yet, by name. */
    private final Map<String, Long> ahead = new HashMap<>();
    private long aheadBytes;
    private int mostAhead;
    private long mostAheadBytes;
    private int loaded;
    private int loadedWhenComplete = -1;
    private int begun;
    private int begunWhenComplete = -1;
    private boolean closed;

    /**
     * @param maxAheadBytes how many bytes of announced data files may wait unloaded before the dump
     *                      waits (the file that reaches it is announced: 1 holds the dump to one file)
     */
    public DumpFeed(long maxAheadBytes) {
        if (maxAheadBytes < 1) {
            throw new IllegalArgumentException("maxAheadBytes must be at least 1, got " + maxAheadBytes);
        }
        this.maxAheadBytes = maxAheadBytes;
    }

    @Override
    public synchronized void schemaWritten(String fileName) {
        add(new SchemaFile(fileName));
    }

    @Override
    public synchronized boolean dataWritten(FileManifest.Entry file, long timeout, TimeUnit unit)
            throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!closed && aheadBytes >= maxAheadBytes) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        if (!closed) {
            if (ahead.put(file.name(), file.size()) != null) {
                throw new IllegalStateException("data file " + file.name() + " announced twice");
            }
            aheadBytes += file.size();
            mostAhead = Math.max(mostAhead, ahead.size());
            mostAheadBytes = Math.max(mostAheadBytes, aheadBytes);
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
        return !closed && aheadBytes >= maxAheadBytes;
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

    /** The announced data file {@code name} is loaded (or is not this load's): its bytes wait no more. */
    public synchronized void fileLoaded(String name) {
        Long size = ahead.remove(name);
        if (size == null) {
            if (closed) {
                return; // announced after the load was gone: never counted
            }
            throw new IllegalStateException("data file " + name + " was not announced, or was loaded already");
        }
        aheadBytes -= size;
        loaded++;
        notifyAll();
    }

    /** The load is gone (failed or stopped): nothing waits for it any more. */
    public synchronized void close() {
        closed = true;
        events.clear();
        notifyAll();
    }

    /** The most data files that were ever announced and not yet loaded at once. */
    public synchronized int mostAhead() {
        return mostAhead;
    }

    /**
     * The most bytes of data files that were ever announced and not yet loaded at once: below the
     * bound plus the size of the file that reached it.
     */
    public synchronized long mostAheadBytes() {
        return mostAheadBytes;
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

    /** Data files the load has begun so far (taken by a worker, finished or not). */
    public synchronized int begun() {
        return begun;
    }

    /** Data files already loaded when the dump completed; -1 while it has not. */
    public synchronized int loadedWhenComplete() {
        return loadedWhenComplete;
    }
}
