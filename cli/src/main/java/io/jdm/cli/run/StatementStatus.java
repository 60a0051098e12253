package io.jdm.cli.run;

import io.jdm.common.sql.StatementText;
import io.jdm.sync.operator.BinlogOperator;
import io.jdm.sync.ring.StoppedStatement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How query-status and {@code jdm binlog list} show the statement a sync stands at and a task's
 * binlog operators: one shape for the running task's {@code /status}, for a task no process runs
 * ({@link TargetStatus}) and for the operator list. The keys are dmctl's where it has them: an
 * operator's {@code binlogPos}, {@code op} and {@code sqls} are those of DM's handle-error request,
 * which its {@code binlog list} prints.
 */
public final class StatementStatus {
    /** {@code state} of a statement a writer retries: the error may pass. */
    public static final String RETRYING = "retrying";
    /** {@code state} of a statement the sync stopped at. */
    public static final String STOPPED = "stopped";

    private StatementStatus() {
    }

    /**
     * {@code {"binlogPos", "binlogGtid", "statement", "error", "errorCode", "state"}}: where it is
     * ({@code file:pos} as {@code jdm binlog --binlog-pos} takes it, and the GTID set before its
     * transaction), the statement on one line, the error and the target's code for it (0 when none),
     * and {@value #RETRYING} or {@value #STOPPED}.
     */
    public static Map<String, Object> stoppedAt(StoppedStatement s) {
        return stoppedAt(s.binlogPos(), s.binlogGtid(), s.statement(), s.error(), s.errorCode(),
                s.retrying() ? RETRYING : STOPPED);
    }

    static Map<String, Object> stoppedAt(String pos, String gtid, String statement, String error, int code,
                                         String state) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("binlogPos", pos);
        m.put("binlogGtid", gtid);
        m.put("statement", statement);
        m.put("error", error);
        m.put("errorCode", code);
        m.put("state", state);
        return m;
    }

    /**
     * {@code {"source", "binlogPos", "op", "sqls", "statement", "state", "created", "applied"}}:
     * {@code statement} is the one it was written for when known, on one line; {@code state} is {@code waiting} until the sync applies it, then {@code done} (an operator
     * written for a statement the sync had already passed stays {@code waiting}).
     */
    public static Map<String, Object> operator(BinlogOperator o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", o.sourceId());
        m.put("binlogPos", o.position());
        m.put("op", o.kind().word());
        m.put("sqls", o.statements());
        m.put("statement", o.sourceStatement() == null ? null : StatementText.shown(o.sourceStatement()));
        m.put("state", o.done() ? "done" : "waiting");
        m.put("created", o.created());
        m.put("applied", o.applied());
        return m;
    }

    public static List<Map<String, Object>> operators(List<BinlogOperator> operators) {
        return operators.stream().map(StatementStatus::operator).toList();
    }
}
