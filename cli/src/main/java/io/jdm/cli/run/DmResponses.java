package io.jdm.cli.run;

import io.jdm.cli.daemon.TaskOp;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.JdmException;
import io.jdm.common.metrics.MetricSource;
import io.jdm.common.position.BinlogPosition;
import io.jdm.dump.DumpMetrics;
import io.jdm.load.LoadMetrics;
import io.jdm.sync.SyncMetrics;
import io.jdm.sync.SyncUnit;
import io.jdm.sync.ring.StoppedStatement;
import io.jdm.sync.shard.ShardCoordinator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The daemon's answers in the shapes dmctl prints. {@code /status} is query-status's
 * {@code QueryStatusListResponse} (DM's dmmaster.proto, printed by jsonpb with defaults): DM's
 * field names, its int64 fields as strings, positions as {@code (file, pos)}, progress as
 * {@code "45.00 %"}, and only the section of the unit that runs. Fields jdm has no notion of
 * (relay, sharding groups, DDL locks) are there with DM's empty values. pause-task, resume-task and
 * stop-task answer DM's {@code OperateTaskResponse}. Each subtask carries, apart under {@code "jdm"},
 * its unit's own numbers (queue depths, reader reconnects, latency percentiles, verify hold) and, in
 * sync, {@code stoppedAt} and {@code operators} ({@link StatementStatus}).
 */
final class DmResponses {
    private DmResponses() {
    }

    /** {@code OperateTaskResponse}: the operation done for every source. */
    static Map<String, Object> operated(TaskOp op, String worker, Collection<String> sourceIds) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (String id : sourceIds) {
            Map<String, Object> w = new LinkedHashMap<>();
            w.put("result", true);
            w.put("msg", "");
            w.put("source", id);
            w.put("worker", worker);
            list.add(w);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("op", op.dmName);
        m.put("result", true);
        m.put("msg", "");
        m.put("sources", list);
        return m;
    }

    /** {@code {"result": true, "msg": "", "sources": [...]}}. */
    static Map<String, Object> response(List<Map<String, Object>> sources) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("result", true);
        m.put("msg", "");
        m.put("sources", sources);
        return m;
    }

    /** One source with its one subtask (a jdm process runs one task). */
    static Map<String, Object> source(String worker, String task, DmStage stage, SourceState s,
                                      BinlogPosition master) {
        Map<String, Object> sourceStatus = new LinkedHashMap<>();
        sourceStatus.put("source", s.sourceId);
        sourceStatus.put("worker", worker);
        sourceStatus.put("result", null);
        sourceStatus.put("relayStatus", null);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("result", true);
        m.put("msg", "");
        m.put("sourceStatus", sourceStatus);
        m.put("subTaskStatus", List.of(subTask(task, stage, s, master)));
        return m;
    }

    private static Map<String, Object> subTask(String task, DmStage stage, SourceState s, BinlogPosition master) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", task);
        m.put("stage", stage.dmName);
        m.put("unit", switch (s.unitName) {
            case "dump" -> "Dump";
            case "load" -> "Load";
            case "sync" -> "Sync";
            default -> "InvalidUnit"; // nothing started yet, as DM prints unit 0
        });
        m.put("result", s.failure == null ? null : result(s.unitName, s.failure));
        m.put("unresolvedDDLLockID", "");
        if (s.unit instanceof DumpMetrics d) {
            m.put("dump", dump(d));
        } else if (s.unit instanceof LoadMetrics l) {
            m.put("load", load(l, s.position));
        } else if (s.unit instanceof DumpLoadMetrics both) {
            m.put("load", load(both.load(), s.position)); // the dump's numbers are under "jdm"
        } else if (s.sync != null) {
            m.put("sync", sync(s.sync, master));
        }
        m.put("validation", s.sync == null ? null : s.sync.validationStatus());
        m.put("jdm", own(s)); // jdm's own numbers of the unit, not DM's
        return m;
    }

    /**
     * jdm's own numbers of the unit that runs; for a sync also the statement it stands at (one the
     * target refused, or a writer retries) and the source's binlog operators ({@link StatementStatus}).
     */
    private static Map<String, Object> own(SourceState s) {
        MetricSource unit = s.unit;
        if (unit == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>(unit.status());
        SyncUnit sync = s.sync;
        if (sync != null && unit == sync.metrics()) {
            StoppedStatement at = sync.stoppedAt();
            m.put("stoppedAt", at == null ? null : StatementStatus.stoppedAt(at));
            m.put("operators", StatementStatus.operators(sync.operators()));
        }
        return m;
    }

    /** DM's {@code ProcessResult}: jdm has no DM error codes, so ErrCode is 0 and the text says it all. */
    private static Map<String, Object> result(String unit, JdmException e) {
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("ErrCode", 0);
        err.put("ErrClass", unit.isEmpty() ? "not-set" : unit + "-unit");
        err.put("ErrScope", "not-set");
        err.put("ErrLevel", "high");
        err.put("Message", e.getMessage());
        err.put("RawCause", e.getCause() == null ? "" : ErrorClassifier.oneLine(e.getCause()));
        err.put("Workaround", e.isRetriable() ? "the error may pass: run the task again, it resumes from its "
                + "checkpoints" : "");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("isCanceled", false);
        m.put("errors", List.of(err));
        m.put("detail", null);
        return m;
    }

    /** DM's {@code DumpStatus}: totalTables and bps are int64 (strings), the rest doubles. */
    static Map<String, Object> dump(DumpMetrics d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("totalTables", int64(d.tablesTotal()));
        m.put("completedTables", d.tablesDone());
        m.put("finishedBytes", d.bytes());
        m.put("finishedRows", d.rows());
        m.put("estimateTotalRows", d.estimatedRows());
        m.put("bps", int64((long) d.recentBytesPerSecond()));
        m.put("progress", d.chunksTotal() == 0 ? percent(0) : percent(100.0 * d.chunksDone() / d.chunksTotal()));
        return m;
    }

    /** DM's {@code LoadStatus}; metaBinlog is the dump's position the loaded data stands at. */
    static Map<String, Object> load(LoadMetrics l, BinlogPosition meta) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("finishedBytes", int64(l.finishedBytes()));
        m.put("totalBytes", int64(l.totalBytes()));
        m.put("progress", percent(100 * l.progress()));
        m.put("metaBinlog", position(meta));
        m.put("metaBinlogGTID", gtid(meta));
        m.put("bps", int64((long) l.recentBytesPerSecond()));
        return m;
    }

    /**
     * DM's {@code SyncStatus}. As in DM, totalEvents/totalTps/recentTps repeat the row counts, and
     * syncerBinlog is the position a restart reads from. synced: everything up to the source's current
     * position is read and committed (the restart position may trail it until the next transaction
     * boundary is stored).
     */
    static Map<String, Object> sync(SyncUnit unit, BinlogPosition master) {
        SyncMetrics s = unit.metrics();
        BinlogPosition checkpoint = unit.checkpoint();
        String rows = int64(s.rowsApplied());
        String totalRps = int64(Math.round(s.rowsPerSecond()));
        String recentRps = int64(Math.round(s.recentRowsPerSecond()));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("totalEvents", rows);
        m.put("totalTps", totalRps);
        m.put("recentTps", recentRps);
        m.put("masterBinlog", position(master));
        m.put("masterBinlogGtid", gtid(master));
        m.put("syncerBinlog", position(checkpoint));
        m.put("syncerBinlogGtid", gtid(checkpoint));
        List<Object> blocking = new ArrayList<>();
        List<Object> groups = new ArrayList<>();
        for (ShardCoordinator.Group g : unit.unresolvedShardGroups()) {
            blocking.add(g.ddl());
            Map<String, Object> group = new LinkedHashMap<>();
            group.put("target", g.target().quoted());
            group.put("DDLs", List.of(g.ddl()));
            group.put("firstLocation", g.firstLocation());
            group.put("synced", g.synced());
            group.put("unsynced", g.unsynced());
            groups.add(group);
        }
        m.put("blockingDDLs", blocking);
        m.put("unresolvedGroups", groups);
        m.put("synced", master != null && unit.caughtUp(master));
        m.put("binlogType", "remote");
        m.put("secondsBehindMaster", int64(Math.round(s.lagSeconds())));
        m.put("blockDDLOwner", "");
        m.put("conflictMsg", "");
        m.put("totalRows", rows);
        m.put("totalRps", totalRps);
        m.put("recentRps", recentRps);
        return m;
    }

    /** jsonpb prints int64 as a JSON string. */
    private static String int64(long v) {
        return Long.toString(v);
    }

    /** As go-mysql's {@code Position.String()}. */
    static String position(BinlogPosition p) {
        return p == null ? "" : p.dmText();
    }

    static String gtid(BinlogPosition p) {
        return p == null ? "" : p.gtidSet();
    }

    /** As DM's loader and dumpling print progress. */
    private static String percent(double pct) {
        return String.format(Locale.ROOT, "%.2f %%", Math.min(100.0, pct));
    }
}
