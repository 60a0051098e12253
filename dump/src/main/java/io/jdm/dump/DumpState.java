package io.jdm.dump;

import io.jdm.common.error.JdmException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the coordinator and the workers share: the first failure (it wins and halts everyone), the
 * stop request, and whether the planner has handed out every chunk.
 */
final class DumpState {
    private final AtomicReference<JdmException> failure = new AtomicReference<>();
    private volatile boolean stopRequested;

    /** Records the failure if it is the first; later ones are consequences and are dropped. */
    void fail(JdmException e) {
        failure.compareAndSet(null, e);
    }

    JdmException failure() {
        return failure.get();
    }

    void requestStop() {
        stopRequested = true;
    }

    boolean stopRequested() {
        return stopRequested;
    }

    /** True once the dump must end early: a failure or a stop request. */
    boolean halted() {
        return stopRequested || failure.get() != null;
    }
}
