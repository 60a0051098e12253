package io.jdm.cli.daemon;

import io.jdm.common.config.TaskConfig;
import java.util.Map;

/** What the daemon's endpoints show and do; implemented by the task runner. */
public interface StatusProvider {
    /** The task this process runs, as its file says: what DM's OpenAPI shows of the task and its sources. */
    TaskConfig task();

    /** A JSON-friendly tree in the shape of DM's query-status answer. */
    Map<String, Object> status();

    /** Prometheus text exposition of every unit's counters and latencies. */
    String metrics();

    /**
     * Pauses, resumes or stops the task and returns DM's {@code OperateTaskResponse} for it; a stop
     * only starts the stop (drain, checkpoints) and answers at once.
     *
     * @throws TaskOpRefused when the task cannot do it now
     */
    Map<String, Object> operate(TaskOp op);

    /**
     * Called once the answer to {@link #operate} has been sent: what must not start before it (a
     * stop that closes this endpoint would cut the answer off).
     */
    default void afterOperate(TaskOp op) {
    }
}
