package io.jdm.sync;

import io.jdm.common.meta.MetaTable;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.checkpoint.AppliedFilter;
import io.jdm.sync.checkpoint.CheckpointStore;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.checkpoint.SourceServer;
import io.jdm.sync.reader.StartGtids;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.WriterProgress;
import io.prometheus.metrics.core.metrics.Histogram;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The unit's side of the checkpoint table: at start, where to read from, which generation of
 * writer rows this run writes and what counts as applied; while running, the global checkpoint
 * (the lowest writer position) stored on a timer, on a pause and on a clean stop, and the old
 * generations' rows dropped once every new writer is past them (see the package documentation).
 */
final class GlobalCheckpoint {
    private static final Logger LOG = LoggerFactory.getLogger(GlobalCheckpoint.class);

    private final SyncConfig cfg;
    private final WriterProgress progress;
    private final CheckpointStore store;
    private final DdlMarkers markers;
    /** Held while storing: the timer, a pause and the stop store one at a time. */
    private final Object flushLock = new Object();
    /** The DDL that was running when the last run stopped, or null. */
    private DdlMarkers.Marker pendingDdl;
    private volatile BinlogPosition startPosition;
    private boolean resumed;
    private volatile ChangePos saved;
    private int generation;
    private int oldestGeneration;
    private ChangePos oldGenerationsHorizon;
    private ScheduledExecutorService flusher;
    /** DM's dm_syncer_flush_checkpoints_time_interval: seconds from one store to the next. */
    private final Histogram flushIntervals;
    private long lastStoreNanos;

    GlobalCheckpoint(SyncConfig cfg, WriterProgress progress, Histogram flushIntervals) {
        this.cfg = cfg;
        this.progress = progress;
        this.flushIntervals = flushIntervals;
        this.store = new CheckpointStore(cfg.checkpointTable(), cfg.sourceId());
        this.markers = new DdlMarkers(cfg.ddlMarkerTable(), cfg.sourceId());
    }

    /** Reads the checkpoint table: decides where to read from and what counts as applied. */
    AppliedFilter prepare(Connection c) throws SQLException {
        store.ensureTable(c);
        markers.ensureTable(c);
        CheckpointStore.Saved saved = store.load(c);
        pendingDdl = saved.isEmpty() ? null : markers.load(c);
        if (saved.isEmpty()) {
            markers.clear(c);
            if (cfg.start() == null) {
                throw new FatalException("sync: task " + cfg.task() + " has no checkpoint in "
                        + store.table() + " and no start position; set meta (binlog-name/binlog-pos or "
                        + "binlog-gtid) in the task file, or run the full migration first (task-mode all)");
            }
            startPosition = StartGtids.complete(cfg.source(), cfg.start());
            store.server(sourceServer(startPosition.hasGtid()).id());
            generation = 1;
            oldestGeneration = 1;
            store.startGeneration(c, generation, cfg.syncer().workerCount(), marker(startPosition));
            return AppliedFilter.none();
        }
        resumed = true;
        startPosition = saved.resumePoint(null);
        SourceServer server = sourceServer(startPosition.hasGtid());
        String mismatch = server.mismatch(startPosition, saved.server());
        if (mismatch != null) {
            throw new FatalException("sync: task " + cfg.task() + " cannot resume: " + mismatch + "; without GTIDs a "
                    + "binlog position means nothing on another server or file series. Point the task back at the "
                    + "server and log-bin it read, or turn GTIDs on at the source and start over (" + startOver()
                    + "); the checkpoint is kept");
        }
        store.server(server.id());
        if (pendingDdl != null && pendingDdl.pos().isAfter(saved.lowest())) {
            startPosition = saved.resumePoint(pendingDdl);
            LOG.info("sync: the last run stopped while running the DDL at {}; resuming from it: {}",
                    pendingDdl.pos(), pendingDdl.statement());
        }
        if (cfg.start() != null) {
            LOG.info("sync: a checkpoint exists; resuming from it ({}) instead of meta ({})", startPosition,
                    cfg.start());
        }
        var latest = saved.latest();
        oldestGeneration = saved.generations().get(0).id();
        if (latest.workerCount() == cfg.syncer().workerCount()) {
            generation = latest.id();
        } else {
            generation = latest.id() + 1;
            LOG.info("sync: worker-count changed from {} to {}: the old writers' positions stay in use until "
                    + "every writer has passed them", latest.workerCount(), cfg.syncer().workerCount());
            store.startGeneration(c, generation, cfg.syncer().workerCount(), marker(startPosition));
        }
        AppliedFilter f = new AppliedFilter(saved.generations());
        oldGenerationsHorizon = saved.generations().stream().filter(g -> g.id() != generation)
                .map(g -> g.max()).filter(Objects::nonNull).max(ChangePos::compareTo).orElse(null);
        return f;
    }

    /**
     * The source server this run reads. When it cannot be read and the position has GTIDs it is
     * not needed (a warning, the positions name no server); without GTIDs the task cannot start.
     */
    private SourceServer sourceServer(boolean hasGtid) {
        try (Connection s = DataSources.connect(cfg.source())) {
            return SourceServer.read(s);
        } catch (SQLException e) {
            if (!hasGtid) {
                throw ErrorClassifier.wrap("sync: cannot read which server the source " + cfg.source().address()
                        + " is", e);
            }
            LOG.warn("sync: cannot read which server the source {} is: {}", cfg.source().address(),
                    ErrorClassifier.oneLine(e));
            return new SourceServer("", "");
        }
    }

    /** A writer position meaning "nothing at or after {@code p} applied". */
    private static ChangePos marker(BinlogPosition p) {
        return new ChangePos(p.file(), p.pos(), -1, -1, p.gtidSet());
    }

    /**
     * What removes this source's progress of the task on the target, so that task-mode all dumps
     * afresh: the sync checkpoint, its DDL marker and binlog operators, the load checkpoint and the
     * task's stage row (names as the load unit and the task runner keep them, beside this unit's
     * tables in the meta schema).
     */
    String startOver() {
        String where = " WHERE source_id = " + Identifiers.literal(cfg.sourceId());
        return "on the target DELETE FROM " + store.table().quoted() + where + "; DELETE FROM "
                + markers.table().quoted() + where + "; DELETE FROM " + cfg.operatorTable().quoted() + where
                + "; DELETE FROM " + MetaTable.LOADER_CHECKPOINT.of(cfg.metaSchema(), cfg.task()).quoted() + where
                + "; DELETE FROM " + MetaTable.STAGE.of(cfg.metaSchema(), cfg.task()).quoted() + where
                + "; remove the task's dump directory";
    }

    CheckpointStore store() {
        return store;
    }

    DdlMarkers markers() {
        return markers;
    }

    /** The DDL the last run stopped in, or null; known after {@link #prepare}. */
    DdlMarkers.Marker pendingDdl() {
        return pendingDdl;
    }

    /** The generation of writer rows this run writes; known after {@link #prepare}. */
    int generation() {
        return generation;
    }

    /** True when this run resumes from the checkpoint table's rows; known after {@link #prepare}. */
    boolean resumed() {
        return resumed;
    }

    /** Where this run reads from; known after {@link #prepare}. */
    BinlogPosition startPosition() {
        return startPosition;
    }

    /** The global checkpoint: restarting from here loses nothing (every change before it is applied). */
    BinlogPosition current() {
        ChangePos p = progress.minPosition();
        if (p != null) {
            return p.restartPoint();
        }
        return saved != null ? saved.restartPoint() : startPosition;
    }

    /** Stores the global checkpoint every {@code checkpoint-flush-interval} from now on, on a thread of its own. */
    void startFlushing() {
        flusher = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(cfg.task(), "sync",
                "checkpoint", true));
        long ms = cfg.syncer().checkpointFlushInterval().toMillis();
        flusher.scheduleWithFixedDelay(this::flush, ms, ms, TimeUnit.MILLISECONDS);
    }

    void stopFlushing() {
        if (flusher != null) {
            flusher.shutdownNow();
        }
    }

    /** A store of the global checkpoint succeeded: the time since the one before it, as DM observes it. */
    private void stored() {
        long now = System.nanoTime();
        if (lastStoreNanos != 0) {
            flushIntervals.observe((now - lastStoreNanos) / 1e9);
        }
        lastStoreNanos = now;
    }

    /** Stores the global checkpoint if it moved; a failure to write it is a warning, the next flush tries again. */
    void flush() {
        synchronized (flushLock) {
            ChangePos global = progress.minPosition();
            if (global == null || !global.isAfter(saved)) {
                return;
            }
            int keepFrom = oldGenerationsHorizon == null || global.isAfter(oldGenerationsHorizon) ? generation
                    : oldestGeneration;
            try (Connection c = DataSources.connect(cfg.target())) {
                store.saveGlobal(c, global, cfg.syncer().workerCount(), keepFrom);
                saved = global;
                stored();
                if (keepFrom == generation) {
                    oldGenerationsHorizon = null;
                }
            } catch (SQLException e) {
                LOG.warn("sync: could not write the global checkpoint {}: {}", global, ErrorClassifier.oneLine(e));
            }
        }
    }
}
