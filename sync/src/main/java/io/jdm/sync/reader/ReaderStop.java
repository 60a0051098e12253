package io.jdm.sync.reader;

import io.jdm.common.error.JdmException;
import java.util.function.Consumer;

/**
 * The two ways the reader ends: its owner stops it, or it fails. A failure goes to the owner
 * unless the reader was stopping already (a stop closes the connection, which is no failure).
 * Read by the reader thread between events and while it waits; set from any thread.
 */
final class ReaderStop {
    private final Consumer<JdmException> onFailure;
    private volatile boolean stopping;
    private volatile boolean failed;

    ReaderStop(Consumer<JdmException> onFailure) {
        this.onFailure = onFailure;
    }

    void stop() {
        stopping = true;
    }

    void fail(JdmException e) {
        if (!stopping) {
            failed = true;
            onFailure.accept(e);
        }
    }

    /** Failed (not merely stopped). */
    boolean failed() {
        return failed;
    }

    /** Stopped or failed: no event may be handed on any more, and no connection opened. */
    boolean ended() {
        return stopping || failed;
    }
}
