package io.jdm.cli.run;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.error.JdmException;
import io.jdm.common.error.RetriableException;
import io.jdm.common.metrics.MetricSource;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.sync.SyncUnit;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Where one source of a running task is: what {@code /status} and {@code /metrics} show for it. */
final class SourceState {
    private static final Logger LOG = LoggerFactory.getLogger("jdm");

    final String sourceId;
    volatile String stage = "pending";
    volatile BinlogPosition master;
    volatile long masterReadNanos;
    volatile MetricSource unit;
    volatile String unitName = "";
    volatile SyncUnit sync;
    /** What stopped the task, shown on every source as DM shows a paused subtask's result. */
    volatile JdmException failure;
    /** The dump's position: where the load's data stands and sync starts. */
    volatile BinlogPosition position;
    /** Units that stopped with an error, by DM's metric name and whether it was resumable. */
    final Map<List<String>, Integer> exits = new ConcurrentHashMap<>();

    SourceState(String sourceId) {
        this.sourceId = sourceId;
    }

    /** One log line per state change. */
    void enter(String next) {
        if (!next.equals(stage)) {
            LOG.info("source {}: stage {} -> {}", sourceId, stage, next);
            stage = next;
        }
    }

    /** The source's current binlog position, read at most once a second for /status and /metrics. */
    BinlogPosition master(MySqlInstance i) {
        long now = System.nanoTime();
        if (master == null || now - masterReadNanos > 1_000_000_000L) {
            try (Connection c = DataSources.connect(i.from().toConnectionSpec())) {
                master = Flavor.detect(c).currentPosition(c);
                masterReadNanos = now;
            } catch (SQLException e) {
                LOG.debug("cannot read the master position of {}: {}", i.sourceId(), e.getMessage());
            }
        }
        return master;
    }

    /** Counts a unit's failure for DM's {@code dm_<unit>_exit_with_error_count}, then rethrows it. */
    RuntimeException exited(String dmUnit, RuntimeException e) {
        exits.merge(List.of(dmUnit, String.valueOf(e instanceof RetriableException)), 1, Integer::sum);
        return e;
    }
}
