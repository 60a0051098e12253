package io.jdm.cli.run;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.error.FatalException;
import io.jdm.common.position.BinlogPosition;
import io.jdm.dump.DumpResult;
import io.jdm.dump.DumpUnit;
import io.jdm.load.LoadUnit;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dump and load stages of one source, from where its row of the stage table says they stopped
 * (see the package documentation): nothing, the load from its checkpoint, or the dump from scratch
 * after undoing what a load following an incomplete dump wrote. A stop ends the running unit; a
 * pause ends it too and, once resumed, these stages run again from the stage table, as a restart
 * would run them.
 */
final class SourceStages {
    private static final Logger LOG = LoggerFactory.getLogger("jdm");

    private final TaskConfig task;
    private final StageStore store;
    private final PauseGate gate;
    private final BooleanSupplier stopping;
    private final Consumer<DumpLoadOverlap> onOverlap;
    private final long maxAheadBytes;

    /** @param maxAheadBytes how far the dump may run ahead of the load ({@link DumpLoadOverlap#MAX_AHEAD_BYTES}) */
    SourceStages(TaskConfig task, StageStore store, PauseGate gate, BooleanSupplier stopping,
                 Consumer<DumpLoadOverlap> onOverlap, long maxAheadBytes) {
        this.task = task;
        this.store = store;
        this.gate = gate;
        this.stopping = stopping;
        this.onOverlap = onOverlap;
        this.maxAheadBytes = maxAheadBytes;
    }

    /**
     * Dumps and loads one source, again from its recorded stage after every pause once resumed.
     *
     * @return the position sync starts from; null when stopping
     * @throws InterruptedException while waiting for resume-task
     */
    BinlogPosition run(MySqlInstance i, SourceState s) throws SQLException, InterruptedException {
        while (true) {
            long since = gate.awaitResumed();
            if (since == PauseGate.CLOSED) {
                return null;
            }
            BinlogPosition pos = fullStages(i, s, since);
            if (stopping.getAsBoolean()) {
                return null;
            }
            if (gate.pauses() == since) {
                return pos;
            }
            LOG.info("source {}: paused in its {} unit; resume-task runs it again from its stage", i.sourceId(),
                    s.unitName);
        }
    }

    /** A stop, or a pause since {@code since}: the source's stages end here. */
    private boolean interrupted(long since) {
        return stopping.getAsBoolean() || gate.pauses() != since;
    }

    /**
     * Dump and load one source unless already done; returns the position sync starts from.
     *
     * @param since the pause count when these stages started: a later pause ends them
     */
    private BinlogPosition fullStages(MySqlInstance i, SourceState s, long since) throws SQLException {
        Optional<StageStore.Entry> entry = store.read(i.sourceId());
        if (entry.isPresent() && (entry.get().stage() == StageStore.Stage.SYNC
                || entry.get().stage() == StageStore.Stage.DONE)) {
            LOG.info("source {}: dump and load already finished (position {})", i.sourceId(), entry.get().position());
            s.enter("loaded");
            return entry.get().position();
        }
        BinlogPosition pos = completeDumpPosition(i);
        if (!task.taskMode().dumps() && !hasCompleteDump(i)) {
            throw new FatalException("task-mode " + task.taskMode().yamlName() + ": no complete dump of source "
                    + i.sourceId() + " in " + task.mydumper(i).dir() + "; dump it first (task-mode dump or jdm dump)");
        }
        if (pos == null && task.taskMode().dumps() && task.taskMode().loads() && loadFollowsDump(i)) {
            return dumpAndLoad(i, s, since);
        }
        if (pos == null && task.taskMode().dumps()) {
            store.write(i.sourceId(), StageStore.Stage.DUMP, null);
            s.enter("dump");
            DumpUnit dump = new DumpUnit(UnitConfigs.dump(task, i));
            s.running("dump", dump.metrics());
            if (!gate.enter(dump::stop)) {
                return null;
            }
            try {
                DumpResult r = dump.run();
                pos = r.position();
            } catch (RuntimeException e) {
                if (!interrupted(since)) {
                    throw s.exited("mydumper", e);
                }
                // stopped on purpose: the directory has no metadata, and the next run dumps again
                LOG.info("source {}: {}", i.sourceId(), e.getMessage());
                return null;
            } finally {
                gate.exit();
            }
        } else {
            LOG.info("source {}: complete dump found in {}", i.sourceId(), task.mydumper(i).dir());
        }
        s.position = pos;
        if (!task.taskMode().loads()) {
            // the stage stays DUMP: a task-mode load of this task then loads this dump
            s.enter("done");
            return pos;
        }
        if (interrupted(since)) {
            return null;
        }
        store.write(i.sourceId(), StageStore.Stage.LOAD, pos);
        s.enter("load");
        LoadUnit load = new LoadUnit(UnitConfigs.load(task, i));
        s.running("load", load.metrics());
        if (!gate.enter(load::stop)) {
            return null;
        }
        boolean completed;
        try {
            completed = load.run().completed();
        } catch (RuntimeException e) {
            throw s.exited("loader", e);
        } finally {
            gate.exit();
        }
        if (!completed) {
            return null;
        }
        return loaded(i, s, pos);
    }

    /** The load is complete: the next stage is recorded with the position the loaded data stands at. */
    private BinlogPosition loaded(MySqlInstance i, SourceState s, BinlogPosition pos) throws SQLException {
        boolean syncNext = task.taskMode().syncs();
        store.write(i.sourceId(), syncNext ? StageStore.Stage.SYNC : StageStore.Stage.DONE, pos);
        s.enter(syncNext ? "loaded" : "done");
        return pos;
    }

    /** The load reads the directory the dump writes (unless loaders.dir names another one). */
    private boolean loadFollowsDump(MySqlInstance i) {
        return task.mydumper(i).dir().toAbsolutePath().normalize()
                .equals(task.loader(i).dir().orElseThrow().toAbsolutePath().normalize());
    }

    /**
     * Dumps and loads at once, the load following the dump file by file (see {@link DumpLoadOverlap}).
     * A new dump takes a new snapshot, so whatever a load of an earlier, incomplete dump wrote is
     * undone first; a restart after this dump completed finds its metadata and resumes the load. An
     * incomplete lock-free dump is not new: it resumes, and what was loaded from its chunks stays.
     */
    private BinlogPosition dumpAndLoad(MySqlInstance i, SourceState s, long since) throws SQLException {
        if (DumpUnit.resumes(UnitConfigs.dump(task, i))) {
            LOG.info("source {}: its lock-free dump did not complete; it resumes, and the rows loaded from its"
                    + " finished chunks stay", i.sourceId());
        } else {
            AbandonedLoad.undo(task, i);
        }
        store.write(i.sourceId(), StageStore.Stage.DUMP_LOAD, null);
        s.enter("dump&load");
        DumpLoadOverlap run = new DumpLoadOverlap(task, i, s, maxAheadBytes);
        s.running("load", run.metrics());
        if (!gate.enter(run::stop)) {
            return null;
        }
        DumpResult r;
        try {
            onOverlap.accept(run);
            r = run.run();
            if (r == null && !stopping.getAsBoolean() && gate.pauses() != since && !hasCompleteDump(i)) {
                // what resume-task runs again is the dump (DM's Dump unit), not the load that followed
                // it; shown before the gate lets pause-task return
                s.running("dump", run.metrics().dump());
            }
        } finally {
            gate.exit();
        }
        if (r == null || interrupted(since)) {
            return null;
        }
        s.position = r.position();
        return loaded(i, s, r.position());
    }

    private boolean hasCompleteDump(MySqlInstance i) {
        try {
            return DumpMetadata.readFrom(task.mydumper(i).dir()).isPresent();
        } catch (IOException e) {
            throw new FatalException("cannot read " + task.mydumper(i).dir() + "/metadata: " + e.getMessage(), e);
        }
    }

    private BinlogPosition completeDumpPosition(MySqlInstance i) {
        try {
            Optional<DumpMetadata> m = DumpMetadata.readFrom(task.mydumper(i).dir());
            if (m.isEmpty()) {
                return null;
            }
            if (m.get().position() == null && task.taskMode().syncs()) {
                throw new FatalException("source " + i.sourceId() + ": the dump in " + task.mydumper(i).dir()
                        + " has no binlog position, so sync cannot start after it: enable the binlog and dump again");
            }
            return m.get().position();
        } catch (IOException e) {
            throw new FatalException("cannot read " + task.mydumper(i).dir() + "/metadata: " + e.getMessage(), e);
        }
    }
}
