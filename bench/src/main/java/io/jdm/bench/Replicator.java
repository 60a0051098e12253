package io.jdm.bench;

import io.jdm.common.position.BinlogPosition;
import java.util.Map;

/** What the sync sweep drives: jdm's SyncUnit or the target's own parallel replication. */
interface Replicator extends AutoCloseable {
    /** Starts applying the source's binlog from {@code from}; the target equals the source there. */
    void start(BinlogPosition from) throws Exception;

    /** True once every change up to {@code end} is applied; waits at most about {@code waitMillis}. */
    boolean caughtUp(BinlogPosition end, long waitMillis) throws Exception;

    /** Metrics only this replicator can report (e.g. events read, transaction latency), over {@code seconds}. */
    Map<String, Double> extra(double seconds);

    /** Metrics known only once it has stopped (a whole process's CPU and peak RSS). */
    default Map<String, Double> afterClose() throws Exception {
        return Map.of();
    }

    @Override
    void close() throws Exception;
}
