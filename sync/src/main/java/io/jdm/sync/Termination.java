package io.jdm.sync;

import io.jdm.common.error.JdmException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * How the unit ended: the first failure wins and is kept, later ones are its consequences; and
 * once the unit has stopped, after a stop or a failure, anyone waiting is told. Both are futures,
 * so a supervisor waits on "any unit failed" without polling.
 */
final class Termination {
    private final CompletableFuture<JdmException> failed = new CompletableFuture<>();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    /** Records {@code e} as the unit's failure; true when it is the first. */
    boolean fail(JdmException e) {
        return failed.complete(e);
    }

    boolean hasFailed() {
        return failed.isDone();
    }

    Optional<JdmException> failure() {
        return Optional.ofNullable(failed.getNow(null));
    }

    /** The unit has stopped: nothing of it runs any more. */
    void terminated() {
        terminated.complete(null);
    }

    /** Blocks until {@link #terminated()}; an interrupt ends the wait and stays set. */
    void await() {
        try {
            terminated.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("never completed exceptionally", e);
        }
    }

    /** Completes with the first failure; never when the unit stops cleanly. A copy: callers cannot complete it. */
    CompletableFuture<JdmException> failedFuture() {
        return failed.copy();
    }

    /** Completes once the unit has stopped. A copy: callers cannot complete it. */
    CompletableFuture<Void> terminatedFuture() {
        return terminated.copy();
    }
}
