package io.jdm.sync.ring;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.sql.StatementText;

/**
 * The statement a sync stands at: one the target refuses, or one a writer is still retrying. What
 * an operator needs at a glance: where it is in the source's binlog, which statement, and why.
 *
 * @param binlogPos {@code file:pos} as failure lines and {@code jdm binlog --binlog-pos} write it:
 *        where the statement's transaction starts (a statement the reader stopped at: its QUERY event)
 * @param binlogGtid the GTID set executed before that transaction, where a restart reads it again;
 *        empty without GTIDs
 * @param statement the statement, on one line, shortened, passwords hidden ({@link StatementText});
 *        for row changes, what they are (the source logged rows, not a statement)
 * @param error why: the target's error, or what the reader cannot do with the statement
 * @param errorCode the target's error code; 0 when the target did not answer with one
 * @param retrying true while a writer retries it (the error may pass), false once the sync stopped at it
 */
public record StoppedStatement(String binlogPos, String binlogGtid, String statement, String error, int errorCode,
                               boolean retrying) {

    /** At the transaction of {@code at}, refused (or being retried) with {@code cause}. */
    public static StoppedStatement at(ChangePos at, String statement, Throwable cause, boolean retrying) {
        return new StoppedStatement(at.file() + ":" + at.txnPos(), ChangePos.restartGtids(at.gtidBefore()),
                StatementText.shown(statement), ErrorClassifier.oneLine(cause), ErrorClassifier.code(cause), retrying);
    }
}
