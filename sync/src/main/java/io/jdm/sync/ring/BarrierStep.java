package io.jdm.sync.ring;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work a {@link DdlChange} asks of the barrier besides (or instead of) its statement: the shard DDL
 * coordination's steps (a shard reaching a group DDL, a spool drained into the merged table). Run by
 * the writer that holds the barrier, every writer having committed what came before.
 */
public interface BarrierStep {
    /** Whether the change's statement runs on the target too (else only this step does). */
    boolean runsStatement();

    /**
     * Inside the transaction that moves every writer's checkpoint past the change, before it
     * commits: what must be exactly as durable as that move.
     */
    void inCheckpointTransaction(Connection c) throws SQLException;

    /** After that transaction committed: what may be done again if the process stops before it. */
    void afterCommit() throws SQLException;

    /** For logs: what the step did. */
    String describe();

    /**
     * This step, then {@code next}, in the same transaction and after the same commit; this one says
     * whether the statement runs.
     */
    default BarrierStep andThen(BarrierStep next) {
        BarrierStep first = this;
        return new BarrierStep() {
            @Override
            public boolean runsStatement() {
                return first.runsStatement();
            }

            @Override
            public void inCheckpointTransaction(Connection c) throws SQLException {
                first.inCheckpointTransaction(c);
                next.inCheckpointTransaction(c);
            }

            @Override
            public void afterCommit() throws SQLException {
                first.afterCommit();
                next.afterCommit();
            }

            @Override
            public String describe() {
                return first.describe() + "; " + next.describe();
            }
        };
    }
}
