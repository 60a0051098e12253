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
 * held back while {@link #maxAhead} of its data files wait unloaded, so the disk holds at most that
 * many files (plus those the dump threads are writing) ahead of the load.
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

    DumpLoadOverlap(TaskConfig task, MySqlInstance i, SourceState source) {
        DumpConfig d = UnitConfigs.dump(task, i);
        LoadConfig l = UnitConfigs.load(task, i);
        this.source = source;
        this.feed = new DumpFeed(maxAhead(l.poolSize(), d.threads()));
        this.dump = new DumpUnit(d, feed);
        this.load = new LoadUnit(l);
        this.dumper = new NamedThreadFactory(task.name(), "dump", "main").newThread(this::dump);
    }

    /**
     * How many finished data files the dump may be ahead of the load: four times every worker busy
     * with one and as many waiting for it, plus one per dump thread. Where files load as LOAD DATA
     * the load holds a table's files until the dump has written them all (one statement into the
     * empty table is what is fast), so a bound of a few files would make the dump wait before tables
     * are complete and split them (measured on 8 x 500k rows, threads 2, pool-size 4, 5 files per
     * table: 16.3-16.8 s with 10 files, 13.2-13.3 s with 20, 12.2-13.2 s with 40).
     */
    static int maxAhead(int poolSize, int threads) {
        return 4 * (2 * poolSize + threads);
    }

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
