package io.jdm.sync.shard;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.sync.ring.BarrierStep;
import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A barrier step of the shard modes: work in the checkpoint's transaction, then work after it. */
final class ShardStep implements BarrierStep {
    static final Logger LOG = LoggerFactory.getLogger(ShardStep.class);

    interface InTxn {
        void run(Connection c) throws SQLException;
    }

    interface After {
        void run() throws SQLException;
    }

    private final boolean runsStatement;
    private final String what;
    private final InTxn inTxn;
    private final After after;

    ShardStep(boolean runsStatement, String what, InTxn inTxn, After after) {
        this.runsStatement = runsStatement;
        this.what = what;
        this.inTxn = inTxn;
        this.after = after;
    }

    @Override
    public boolean runsStatement() {
        return runsStatement;
    }

    @Override
    public void inCheckpointTransaction(Connection c) throws SQLException {
        inTxn.run(c);
    }

    /** What follows is done again by the poller or the next start: a failure here is only logged. */
    @Override
    public void afterCommit() {
        try {
            after.run();
        } catch (SQLException | RuntimeException e) {
            LOG.warn("sync: after \"{}\": {} (tried again later)", what, ErrorClassifier.oneLine(e));
        }
    }

    @Override
    public String describe() {
        return what;
    }
}
