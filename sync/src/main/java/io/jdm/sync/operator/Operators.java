package io.jdm.sync.operator;

import io.jdm.common.sql.StatementText;
import io.jdm.sync.ring.BarrierStep;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operators of one source, read at the sync's start and again every few seconds while it runs
 * ({@link #refresh}), looked up by the reader at every statement, and the barrier step that marks one
 * applied with the checkpoint move. One written for a statement the reader has already passed is
 * never applied, and stays waiting.
 */
public final class Operators {
    private static final Logger LOG = LoggerFactory.getLogger(Operators.class);

    private record Key(String file, long pos) {
    }

    private final OperatorStore store;
    /** Replaced whole by {@link #refresh}; the reader thread reads it. */
    private volatile Map<Key, BinlogOperator> byPosition;

    private Operators(OperatorStore store, List<BinlogOperator> operators) {
        this.store = store;
        this.byPosition = index(operators);
    }

    private static Map<Key, BinlogOperator> index(List<BinlogOperator> operators) {
        Map<Key, BinlogOperator> m = new HashMap<>();
        operators.forEach(o -> m.put(new Key(o.file(), o.pos()), o));
        return m;
    }

    /** Reads the source's operators again: a running sync takes one written since it started. */
    public void refresh(Connection c, String sourceId) throws SQLException {
        if (store == null) {
            return;
        }
        Map<Key, BinlogOperator> now = index(store.list(c, sourceId));
        Map<Key, BinlogOperator> before = byPosition;
        for (Map.Entry<Key, BinlogOperator> e : now.entrySet()) {
            BinlogOperator was = before.get(e.getKey());
            if (!e.getValue().done() && (was == null || !was.equals(e.getValue()))) {
                LOG.info("sync: source {}: binlog {} now waits at {}", sourceId, e.getValue().kind().word(),
                        e.getValue().position());
            }
        }
        byPosition = now;
    }

    /** No operators (a reader without a sync unit's table). */
    public static Operators none() {
        return new Operators(null, List.of());
    }

    /** Reads {@code sourceId}'s operators, creating the table the first time. */
    public static Operators load(Connection c, OperatorStore store, String sourceId) throws SQLException {
        store.ensureTable(c);
        return new Operators(store, store.list(c, sourceId));
    }

    /** The operators that have not been applied yet. */
    public List<BinlogOperator> waiting() {
        return all().stream().filter(o -> !o.done()).toList();
    }

    /** Every operator of the source as last read, applied ones too, by position. */
    public List<BinlogOperator> all() {
        return byPosition.values().stream().sorted(java.util.Comparator.comparing(BinlogOperator::file)
                .thenComparingLong(BinlogOperator::pos)).toList();
    }

    /**
     * The operator of a statement: at the start of its transaction (where a failure line places it)
     * when it is the transaction's first statement, or at its own QUERY event (where {@code SHOW
     * BINLOG EVENTS} places it); null when none. An applied one is returned too (see the package
     * documentation).
     */
    public BinlogOperator at(String file, long txnPos, long eventStart, boolean firstOfTxn) {
        Map<Key, BinlogOperator> m = byPosition;
        if (m.isEmpty()) {
            return null;
        }
        BinlogOperator o = m.get(new Key(file, eventStart));
        return o != null || !firstOfTxn ? o : m.get(new Key(file, txnPos));
    }

    /**
     * The barrier step of {@code op}'s last change: marks it applied in the transaction that moves
     * the checkpoints past the statement {@code sql}, and says so in one line.
     */
    public BarrierStep step(BinlogOperator op, String sql) {
        String text = StatementText.shown(sql);
        String what = "binlog " + op.kind().word() + " at " + op.position() + " (source " + op.sourceId() + "): "
                + (op.kind() == BinlogOperator.Kind.SKIP ? "not applied: "
                : op.statements().size() + (op.statements().size() == 1 ? " statement" : " statements")
                + (op.kind() == BinlogOperator.Kind.INJECT ? " ran before: " : " ran instead of: ")) + text;
        return new BarrierStep() {
            @Override
            public boolean runsStatement() {
                return op.kind() != BinlogOperator.Kind.SKIP;
            }

            @Override
            public void inCheckpointTransaction(Connection c) throws SQLException {
                if (store != null) {
                    store.markApplied(c, op);
                }
            }

            @Override
            public void afterCommit() {
                if (runsStatement()) { // a step without a statement is logged by the barrier, with describe()
                    LOG.info("sync: {}", what);
                }
            }

            @Override
            public String describe() {
                return what;
            }
        };
    }

}
