package io.jdm.cli.run;

import io.jdm.sync.SyncUnit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link TaskRunner} on a thread of its own, for the demo (and tests) that start a task, wait until
 * its sync streams, work against it and stop it.
 */
public final class BackgroundTask {
    private final TaskRunner runner;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** Completes when the task's thread ends, however it ends. */
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    private BackgroundTask(TaskRunner runner, String threadName) {
        this.runner = runner;
        this.thread = new Thread(() -> {
            try {
                runner.run();
            } catch (Throwable e) {
                failure.set(e);
            } finally {
                ended.complete(null);
            }
        }, threadName);
    }

    public static BackgroundTask start(TaskRunner runner, String threadName) {
        BackgroundTask t = new BackgroundTask(runner, threadName);
        t.thread.start();
        return t;
    }

    public TaskRunner runner() {
        return runner;
    }

    /** The first sync unit once the task reached its sync stage; null if the task ended first or time ran out. */
    public SyncUnit awaitSync(Duration timeout) throws InterruptedException {
        try {
            CompletableFuture.anyOf(runner.firstSyncUnit(), ended).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException("neither future completes exceptionally", e);
        }
        List<SyncUnit> syncs = runner.syncUnits();
        return syncs.isEmpty() ? null : syncs.get(0);
    }

    /** What ended the task, if it failed. */
    public Throwable failure() {
        return failure.get();
    }

    /** Asks the task to stop and waits for it; false if it is still running after {@code timeout}. */
    public boolean stop(Duration timeout) throws InterruptedException {
        runner.requestStop();
        thread.join(timeout.toMillis());
        return !thread.isAlive();
    }
}
