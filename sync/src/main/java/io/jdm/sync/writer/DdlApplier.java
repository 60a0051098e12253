package io.jdm.sync.writer;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_BAD_TABLE_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_CANT_DROP_FIELD_OR_KEY;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_DUP_FIELDNAME;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_DUP_KEYNAME;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_TABLE_EXISTS_ERROR;

import io.jdm.common.sql.Identifiers;
import io.jdm.sync.checkpoint.CheckpointStore;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.SessionSwitch;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a DDL statement on the target while every writer waits at the barrier (each has committed
 * and stored its position before it), then moves every writer's checkpoint to it. DDL commits on
 * its own, so the two cannot be one transaction: before the statement runs, a marker (its position,
 * its statement, the target tables it touches as they are now) is committed, and the checkpoint
 * move deletes it in the same transaction. A restart that finds the marker reads from the marked
 * DDL and, on meeting it, compares those tables with the marker: changed → the statement ran, only
 * the checkpoints move; unchanged → it runs now (a statement that ran but changed none of them runs
 * again on the same definitions, with the same outcome). Errors that only say "already done" are
 * still logged, not fatal: that makes a shard's ALTER idempotent when shards merge into one table.
 * The statement runs in the session it ran in on the source (sql_mode, charsets, time zone,
 * timestamp, …), and the writer's own session is back right after, whether it succeeded or not.
 */
public final class DdlApplier {
    private static final Logger LOG = LoggerFactory.getLogger(DdlApplier.class);
    /** Table exists, unknown table, duplicate column/key, cannot drop (does not exist). */
    private static final Set<Integer> ALREADY_DONE = Set.of(ER_TABLE_EXISTS_ERROR,
            ER_BAD_TABLE_ERROR, ER_DUP_FIELDNAME, ER_DUP_KEYNAME, ER_CANT_DROP_FIELD_OR_KEY);
    /**
     * For the crash tests only: halt the process right after the marker is committed
     * ({@code marked}) or right after the statement ran ({@code ran}), before the checkpoint move.
     */
    static final String HALT_PROPERTY = "jdm.sync.test.halt-ddl";

    private final CheckpointStore store;
    private final DdlMarkers markers;
    private final int generation;
    private final int writers;
    private final Runnable onApplied;
    private final String halt = System.getProperty(HALT_PROPERTY, "");
    /** The marked DDL: found at start, or written by this run; it may have run, the checkpoints are before it. */
    private DdlMarkers.Marker pending;

    public DdlApplier(CheckpointStore store, DdlMarkers markers, DdlMarkers.Marker pending, int generation,
                      int writers, Runnable onApplied) {
        this.store = store;
        this.markers = markers;
        this.pending = pending;
        this.generation = generation;
        this.writers = writers;
        this.onApplied = onApplied;
    }

    void apply(Connection c, DdlChange d) throws SQLException {
        if (d.step() != null && !d.step().runsStatement()) {
            applyStep(c, d);
            return;
        }
        try (Statement st = c.createStatement()) {
            if (d.targetSchema() != null && !d.targetSchema().isEmpty()) {
                // the names in the statement are qualified; USE serves what a clause may leave unqualified
                // a database the target lacks gets the source database's defaults, which tables and
                // columns declared without a charset then take, as on the source
                st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(d.targetSchema()) + " "
                        + d.targetSchemaOptions());
                st.execute("USE " + Identifiers.quote(d.targetSchema()));
            }
            boolean run = true;
            // a marker of another statement at this position (one a binlog operator replaced) says
            // nothing of this one
            if (pending != null && pending.at(d.pos()) && pending.statement().equals(d.sql())) {
                run = DdlMarkers.snapshot(c, d.targetTables()).equals(pending.before());
                if (!run) {
                    LOG.info("sync: DDL at {} had already run on the target (before a stop or a lost connection); "
                            + "moving the checkpoint past it without running it again: {}", d.pos(), d.sql());
                }
            } else {
                pending = new DdlMarkers.Marker(d.pos(), d.sql(), DdlMarkers.snapshot(c, d.targetTables()));
                markers.mark(c, pending);
                c.commit();
            }
            haltFor("marked");
            if (run) {
                try (SessionSwitch ignored = SessionSwitch.enter(c, d.session(),
                        String.valueOf(d.pos().restartPoint()));
                     DatabaseDefaults ignored2 = DatabaseDefaults.enter(st, d)) {
                    // a DDL commits anyway; inside a transaction MariaDB's EXCHANGE PARTITION waits on its
                    // own lock until lock_wait_timeout
                    c.setAutoCommit(true);
                    try {
                        st.execute(d.sql());
                    } finally {
                        c.setAutoCommit(false);
                    }
                } catch (SQLException e) {
                    if (!alreadyDone(e)) {
                        throw e;
                    }
                    LOG.warn("sync: DDL at {} looks applied already (a second shard's copy): {}", d.pos(),
                            e.getMessage());
                }
            }
            if (run) {
                haltFor("ran");
            }
            if (d.step() != null) {
                d.step().inCheckpointTransaction(c);
            }
            moveCheckpoints(st, d.pos());
            markers.clear(c);
        }
        c.commit();
        pending = null;
        LOG.info("sync: applied DDL at {} on {}: {}", d.pos(), d.tables(), d.sql());
        if (d.step() != null) {
            d.step().afterCommit();
        }
        onApplied.run();
    }

    /**
     * A barrier whose work is its step alone: done in the transaction that moves the checkpoints.
     * A marker at its position (a statement refused there, which a binlog operator now skips) goes
     * in the same transaction.
     */
    private void applyStep(Connection c, DdlChange d) throws SQLException {
        boolean marked = pending != null && pending.at(d.pos());
        try (Statement st = c.createStatement()) {
            d.step().inCheckpointTransaction(c);
            moveCheckpoints(st, d.pos());
            if (marked) {
                markers.clear(c);
            }
        }
        c.commit();
        if (marked) {
            pending = null;
        }
        d.step().afterCommit();
        onApplied.run();
        LOG.info("sync: at {} on {}: {}", d.pos(), d.tables(), d.step().describe());
    }

    private void moveCheckpoints(Statement st, ChangePos pos) throws SQLException {
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < writers; w++) {
            sb.setLength(0);
            store.appendUpsert(sb, generation, w, writers, pos);
            st.execute(sb.toString());
        }
    }

    /** Errors that only say a DDL's work is there already: a second run of the same statement. */
    public static boolean alreadyDone(SQLException e) {
        return ALREADY_DONE.contains(e.getErrorCode());
    }

    /** Halts here when the crash tests ask for this point (only for a statement this call marked or ran). */
    private void haltFor(String point) {
        if (halt.equals(point)) {
            System.out.println("SYNC-CHILD-HALTED " + point);
            System.out.flush();
            Runtime.getRuntime().halt(9);
        }
    }

    /** The words of a refused DDL's error: the statement, the target's error, and how to go on. */
    static String refused(DdlChange d, String error) {
        String what = d.step() != null && !d.step().runsStatement() ? d.step().describe()
                : d.sql().strip().replaceAll("\\s+", " ");
        return "sync: the target refused the DDL at " + d.pos().restartPoint() + " on " + d.tables() + ": "
                + what + ": " + error + "; the checkpoint is before it: fix the target, have sync skip this "
                + "statement (jdm binlog skip TASK.yaml) or run others in its place (jdm binlog replace TASK.yaml "
                + "--sql '...'), or skip every statement like it with a filter rule (action: Ignore), and restart "
                + "the task";
    }
}
