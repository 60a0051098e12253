package io.jdm.cli.run;

import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.meta.MetaTable;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.StatementText;
import io.jdm.sync.checkpoint.CheckpointStore;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.ring.StoppedStatement;
import io.jdm.sync.operator.BinlogOperator;
import io.jdm.sync.operator.OperatorStore;
import io.jdm.sync.ring.ChangePos;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * query-status of a task that no process runs: what the target holds for it, in the shape of
 * {@code /status} with {@code result} false and stage {@code Stopped}. A sync that stopped at a
 * statement has exited (a refused statement ends {@code jdm run}), and what it knew in memory went
 * with it; what stays is read from the tables it keeps on the target: each source's checkpoint
 * (where {@code jdm run} resumes), the DDL it stopped in (its marker in {@code {task}_syncer_ddl},
 * kept until the checkpoint passes it) and the binlog operators. The error itself, and a row
 * change the target refused, are in the last line of the task's log, which {@code msg} says.
 */
public final class TargetStatus {
    private TargetStatus() {
    }

    /** @param why why no running process answered, for {@code msg} */
    public static Map<String, Object> read(TaskConfig task, String why) {
        List<Map<String, Object>> sources = new ArrayList<>();
        OperatorStore operators = new OperatorStore(OperatorStore.table(task.metaSchema(), task.name()));
        try (Connection c = DataSources.connect(task.targetDatabase().toConnectionSpec())) {
            c.setAutoCommit(false); // plain reads: nothing here may wait for, or hold, a lock of a running sync
            for (MySqlInstance i : task.runInstances()) {
                String id = i.sourceId();
                CheckpointStore.Saved saved = checkpoint(c, task, id);
                DdlMarkers.Marker marker = saved == null ? null : marker(c, task, id);
                StoppedStatement refused = saved == null ? null
                        : StageStore.stoppedAt(c, task.metaSchema(), task.name(), id).orElse(null);
                sources.add(source(task, id, saved == null ? null : saved.resumePoint(marker), marker, refused,
                        operators.list(c, id)));
            }
            c.commit();
        } catch (SQLException e) {
            throw ErrorClassifier.wrap(why + "; and the task's tables in " + task.metaSchema() + " on the target "
                    + task.targetDatabase().toConnectionSpec().address() + " cannot be read", e);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("result", false);
        m.put("msg", why + ": task " + task.name() + " is not running; what the target holds for it follows");
        m.put("sources", sources);
        return m;
    }

    /** What is stored for the source, or null when its sync never stored a checkpoint. */
    private static CheckpointStore.Saved checkpoint(Connection c, TaskConfig task, String id) throws SQLException {
        try {
            CheckpointStore.Saved saved = new CheckpointStore(MetaTable.SYNCER_CHECKPOINT.of(task.metaSchema(),
                    task.name()), id).load(c);
            return saved.lowest() == null ? null : saved;
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTableOrDatabase(e)) {
                return null;
            }
            throw e;
        }
    }

    private static DdlMarkers.Marker marker(Connection c, TaskConfig task, String id) throws SQLException {
        try {
            return new DdlMarkers(DdlMarkers.table(task.metaSchema(), task.name()), id).load(c);
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTableOrDatabase(e)) {
                return null;
            }
            throw e;
        }
    }

    /**
     * @param refused the statement the target refused, where the sync stopped last (kept in the stage
     *     table with its error), or null
     */
    private static Map<String, Object> source(TaskConfig task, String id, BinlogPosition resume,
                                              DdlMarkers.Marker marker, StoppedStatement refused,
                                              List<BinlogOperator> operators) {
        Map<String, Object> sourceStatus = new LinkedHashMap<>();
        sourceStatus.put("source", id);
        sourceStatus.put("worker", "");
        sourceStatus.put("result", null);
        sourceStatus.put("relayStatus", null);
        Map<String, Object> own = new LinkedHashMap<>();
        own.put("checkpoint", resume == null ? null : String.valueOf(resume));
        own.put("stoppedAt", refused != null ? StatementStatus.stoppedAt(refused)
                : marker == null ? null : stoppedAt(marker));
        own.put("operators", StatementStatus.operators(operators));
        Map<String, Object> sub = new LinkedHashMap<>();
        sub.put("name", task.name());
        sub.put("stage", DmStage.STOPPED.dmName);
        sub.put("unit", resume == null ? "InvalidUnit" : "Sync");
        sub.put("result", null);
        sub.put("unresolvedDDLLockID", "");
        if (resume != null) {
            Map<String, Object> sync = new LinkedHashMap<>();
            sync.put("syncerBinlog", DmResponses.position(resume));
            sync.put("syncerBinlogGtid", DmResponses.gtid(resume));
            sub.put("sync", sync);
        }
        sub.put("validation", null);
        sub.put("jdm", own);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("result", false);
        m.put("msg", msg(resume, marker, refused));
        m.put("sourceStatus", sourceStatus);
        m.put("subTaskStatus", List.of(sub));
        return m;
    }

    /** The DDL the sync stopped in: refused by the target, or running when the process ended. */
    private static Map<String, Object> stoppedAt(DdlMarkers.Marker m) {
        ChangePos p = m.pos();
        return StatementStatus.stoppedAt(p.file() + ":" + p.txnPos(), ChangePos.restartGtids(p.gtidBefore()),
                StatementText.shown(m.statement()), "", 0, StatementStatus.STOPPED);
    }

    private static String msg(BinlogPosition resume, DdlMarkers.Marker marker, StoppedStatement refused) {
        if (resume == null) {
            return "no sync checkpoint: its sync has not run; jdm run TASK.yaml starts the task";
        }
        String at = resume.file() + ":" + resume.pos() + (resume.hasGtid() ? " (GTID " + resume.gtidSet() + ")" : "");
        if (refused != null) {
            return "not running; the sync stopped at " + refused.binlogPos() + ", where the target refused "
                    + refused.statement() + ": " + refused.error() + "; jdm run TASK.yaml resumes it from the "
                    + "checkpoint " + at + " (jdm binlog skip|replace for a statement the target cannot take)";
        }
        return "not running; jdm run TASK.yaml resumes its sync from the checkpoint " + at + (marker != null
                ? ", the DDL the sync stopped in (the error is in the last line of the task's log)"
                : "; if the sync stopped at a statement, the last line of the task's log names it and the error");
    }
}
