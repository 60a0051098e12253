package io.jdm.dump;

import io.jdm.common.util.NamedThreadFactory;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A read on a connection of the dump's other than its own, started at once on a thread of its own,
 * while the dump's thread reads something else: the lock held, or the tables waiting, for the
 * longer of the two reads instead of both. Its connection is idle again once {@link #awaitQuietly}
 * or {@link #get} returns, and only then may it be closed or lent.
 */
final class SideRead<T> {
    private final FutureTask<T> task;

    /** @param what the thread's name after the task's and "dump" */
    SideRead(String taskName, String what, Callable<T> read) {
        task = new FutureTask<>(read);
        new NamedThreadFactory(taskName, "dump", what, true).newThread(task).start();
    }

    /** Waits for the read to end, however it ends: for a failure of the caller's own to speak first. */
    void awaitQuietly() {
        boolean interrupted = false;
        while (true) {
            try {
                task.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The read's result; its SQLException or unchecked failure thrown as it was. */
    T get() throws SQLException, InterruptedException {
        try {
            return task.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException s) {
                throw s;
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
