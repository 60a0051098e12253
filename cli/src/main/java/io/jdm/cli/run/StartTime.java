package io.jdm.cli.run;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.SyncConfig;
import io.jdm.sync.checkpoint.CheckpointStore;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.checkpoint.Generation;
import io.jdm.sync.reader.TimePosition;
import io.jdm.sync.ring.ChangePos;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DM's {@code start-task --start-time}: the sync of a source starts at the first transaction of its
 * binlog at or after a time, whatever its checkpoint or {@code meta} says. The checkpoint is
 * replaced by that position; changes before the old checkpoint are replayed in safe mode (they may
 * be on the target already), as DM does, and the first {@code safe-mode-duration} too, as for any
 * start that is not a consistent dump's position.
 */
final class StartTime {
    private static final Logger LOG = LoggerFactory.getLogger(StartTime.class);

    private StartTime() {
    }

    static SyncConfig sync(TaskConfig task, MySqlInstance instance, Instant time) {
        SyncConfig.Builder b = UnitConfigs.syncBuilder(task, instance, null);
        SyncConfig base = b.build();
        BinlogPosition at = TimePosition.find(base.source(), base.serverId(), time);
        BinlogPosition old;
        try (Connection c = DataSources.connect(base.target())) {
            CheckpointStore store = new CheckpointStore(base.checkpointTable(), base.sourceId());
            store.ensureTable(c);
            CheckpointStore.Saved saved = store.load(c);
            old = saved.isEmpty() ? null : furthest(saved);
            store.clear(c);
            DdlMarkers markers = new DdlMarkers(base.ddlMarkerTable(), base.sourceId());
            markers.ensureTable(c);
            markers.clear(c);
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("--start-time: cannot replace the checkpoint of source " + base.sourceId()
                    + " in " + base.checkpointTable(), e);
        }
        LOG.info("source {}: --start-time {}: sync starts at {}{}", base.sourceId(), time, at, old == null ? ""
                : ", in safe mode up to the checkpoint it replaces (" + old + ")");
        return b.serverId(base.serverId()).start(at).safeModeUntil(old).build();
    }

    /** The furthest position any writer of the latest generation stored. */
    private static BinlogPosition furthest(CheckpointStore.Saved saved) {
        ChangePos best = saved.global();
        Generation g = saved.latest();
        for (ChangePos p : g.positions()) {
            if (p != null && (best == null || p.compareTo(best) > 0)) {
                best = p;
            }
        }
        return best == null ? null : new BinlogPosition(best.file(), best.txnPos(), best.gtidBefore());
    }
}
