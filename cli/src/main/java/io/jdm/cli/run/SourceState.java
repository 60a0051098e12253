package io.jdm.cli.run;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.error.JdmException;
import io.jdm.common.error.RetriableException;
import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.metrics.MetricSource;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinaryLogs;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.sync.SyncUnit;
import io.prometheus.metrics.model.snapshots.Labels;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Where one source of a running task is: what {@code /status} and {@code /metrics} show for it. */
final class SourceState {
    private static final Logger LOG = LoggerFactory.getLogger("jdm");

    final String sourceId;
    volatile String stage = "pending";
    volatile BinlogPosition master;
    /** The source's binary logs, read with {@link #master}. */
    volatile BinaryLogs logs;
    volatile long masterReadNanos;
    volatile MetricSource unit;
    volatile String unitName = "";
    /**
     * The series of each unit this source ran in this process, by unit: a dump's and a load's stay
     * on {@code /metrics} once the next unit runs (DM's dashboards show load progress 1, not nothing).
     */
    private final Map<String, MetricSource> series = new ConcurrentHashMap<>();
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

    /** The unit that runs now (what {@code /status} shows); its series join those of the units before it. */
    void running(String name, MetricSource m) {
        unit = m;
        unitName = name;
        if (m instanceof DumpLoadMetrics both) {
            series.put("dump", both.dump());
            series.put("load", both.load());
        } else {
            series.put(name, m);
        }
    }

    /** Every unit's series ({@link #running}). */
    Collection<MetricSource> series() {
        return series.values();
    }

    /**
     * The source's current binlog position, read at most once a second for /status and /metrics,
     * with its list of binary logs.
     */
    BinlogPosition master(MySqlInstance i) {
        long now = System.nanoTime();
        if (master == null || now - masterReadNanos > 1_000_000_000L) {
            try (Connection c = DataSources.connect(i.from().toConnectionSpec())) {
                master = Flavor.detect(c).currentPosition(c);
                masterReadNanos = now;
                logs = binaryLogs(c, i);
            } catch (SQLException e) {
                LOG.debug("cannot read the master position of {}: {}", i.sourceId(), e.getMessage());
            }
        }
        return master;
    }

    /** The binary logs, or null when they cannot be read: the position alone still serves. */
    private static BinaryLogs binaryLogs(Connection c, MySqlInstance i) {
        try {
            return BinaryLogs.read(c);
        } catch (SQLException e) {
            LOG.debug("cannot list the binary logs of {}: {}", i.sourceId(), e.getMessage());
            return null;
        }
    }

    /** Counts a unit's failure for DM's {@code dm_<unit>_exit_with_error_count}, then rethrows it. */
    RuntimeException exited(String dmUnit, RuntimeException e) {
        exits.merge(List.of(dmUnit, String.valueOf(e instanceof RetriableException)), 1, Integer::sum);
        return e;
    }

    /**
     * DM's {@code dm_<unit>_exit_with_error_count{resumable_err}} of each of {@code dmUnits} (those
     * the task runs) and of any unit that exited: 0 from the start, as DM's syncer has it, so that
     * the alert rules' {@code changes(...[1m])} sees the first exit. The dump's count goes out under
     * both of DM's names: {@code mydumper} (what its alert rules ask for) and {@code dumpling} (what
     * its dump unit exports since it runs Dumpling, and its dashboards ask for).
     */
    void exitSeries(MetricFamilies f, Labels unit, List<String> dmUnits) {
        Set<String> units = new LinkedHashSet<>(dmUnits);
        exits.keySet().forEach(k -> units.add(k.get(0)));
        for (String u : units) {
            for (String resumable : List.of("true", "false")) {
                int n = exits.getOrDefault(List.of(u, resumable), 0);
                for (String name : "mydumper".equals(u) ? List.of("mydumper", "dumpling") : List.of(u)) {
                    f.untyped("dm_" + name + "_exit_with_error_count", "counter for " + name + " exits with error",
                            unit.add("resumable_err", resumable), n);
                }
            }
        }
    }
}
