package io.jdm.cli.run;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.dumpdir.DumpFeed;
import io.jdm.common.error.FatalException;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpResult;
import io.jdm.dump.DumpUnit;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The dump and the load of one source at once: the dump runs on a thread of its own and announces
 * each finished file to a {@link DumpFeed}; the load follows it on the caller's thread. The dump is
 * held back while {@link #MAX_AHEAD_BYTES} of its data files wait unloaded (see there why).
 *
 * <p>The first failure wins: it stops the other unit, and {@link #run} throws it, counted for DM's
 * {@code dm_mydumper_exit_with_error_count} or {@code dm_loader_exit_with_error_count}. A stop ends
 * both units without a failure.
 */
final class DumpLoadOverlap {
    private final DumpUnit dump;
    private final LoadUnit load;
    private final DumpFeed feed;
    private final Thread dumper;
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final SourceState source;
    private volatile DumpResult dumped;
    private volatile boolean stopped;

    /** @param maxAheadBytes {@link #MAX_AHEAD_BYTES}, or less in a test of the bound */
    DumpLoadOverlap(TaskConfig task, MySqlInstance i, SourceState source, long maxAheadBytes) {
        DumpConfig d = UnitConfigs.dump(task, i);
        LoadConfig l = UnitConfigs.load(task, i);
        this.source = source;
        this.feed = new DumpFeed(maxAheadBytes);
        this.dump = new DumpUnit(d, feed);
        this.load = new LoadUnit(l);
        this.dumper = new NamedThreadFactory(task.name(), "dump", "main").newThread(this::dump);
    }

    /**
     * How many bytes of finished data files the dump may be ahead of the load before it waits: 1 GiB.
     *
     * <p>The files stay in the dump directory either way, so the bound is not about disk. It is what
     * lets a big table start loading before its dump ends: where files load as LOAD DATA the load
     * holds a table's files until the dump has written them all (one statement into the empty table
     * is what is fast), and while the dump waits the table with the most files waiting goes as far
     * as it is ({@code ArrivingFiles}). So the bound is large: a small one splits tables that a whole
     * group would fill faster (measured on 8 x 500k rows, 5 files of 19 MB a table, threads 2,
     * pool-size 4, when the bound was a count of files: 16.3-16.8 s with 10 files, 13.2-13.3 s with
     * 20, 12.2-13.2 s with 40, about 760 MB). And it is counted in bytes, not files: 40 files of a
     * schema of 1,000 tables x 100 rows are 800 KB, and holding the dump there made it wait for
     * every table the load created and filled (jdm run on two MariaDB servers with 1 GB pools,
     * alternating: 11.9-13.1 s held at 40 files against 9.0-9.6 s held at 1 GiB, which it never
     * reaches). Below 1 GiB the files the load reads were written recently, and likely still cached.
     */
    static final long MAX_AHEAD_BYTES = 1L << 30;

    DumpFeed feed() {
        return feed;
    }

    DumpLoadMetrics metrics() {
        return new DumpLoadMetrics(dump.metrics(), load.metrics());
    }

    /**
     * Runs both units to the end.
     *
     * @return what the dump produced; null when stopped
     */
    DumpResult run() {
        dumper.start();
        try {
            if (!load.runFollowing(feed).completed()) {
                dump.stop(); // the load ended early: a stop or the dump's failure
            }
        } catch (RuntimeException e) {
            fail("loader", e);
        } finally {
            awaitDump();
        }
        RuntimeException first = failure.get();
        if (first != null) {
            throw first;
        }
        if (dumped == null && !stopped) {
            throw source.exited("mydumper", new FatalException("the dump of source " + source.sourceId
                    + " ended without completing and without an error; rerun the task"));
        }
        return stopped ? null : dumped;
    }

    private void dump() {
        try {
            dumped = dump.run();
        } catch (RuntimeException e) {
            if (!stopped) {
                fail("mydumper", e);
            }
        } finally {
            if (dumped == null) {
                load.stop(); // nothing more will come to follow
            }
        }
    }

    /** Records the first failure, then stops both units; later failures are its consequences. */
    private void fail(String dmUnit, RuntimeException e) {
        if (failure.compareAndSet(null, e)) {
            source.exited(dmUnit, e);
            dump.stop();
            load.stop();
        }
    }

    /** Waits for the dump's thread; an interrupt stops both units and is kept for the caller. */
    private void awaitDump() {
        boolean interrupted = false;
        while (dumper.isAlive()) {
            try {
                dumper.join();
            } catch (InterruptedException e) {
                interrupted = true;
                stop();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops both units: the dump without writing {@code metadata}, the load after its current statements. */
    void stop() {
        stopped = true;
        dump.stop();
        load.stop();
    }
}
