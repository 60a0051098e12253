package io.jdm.load;

import io.jdm.common.error.ErrorClassifier;
import java.sql.SQLException;

/**
 * A file could not be loaded past {@code offset}. Carries what failed so the worker can decide:
 * retry (the target went away) or stop with one line naming the file and offset.
 */
final class LoadFailure extends Exception {
    private static final long serialVersionUID = 1L;
    private final long offset;
    private final boolean retriable;
    private final boolean damaged;

    private LoadFailure(String message, long offset, boolean retriable, boolean damaged, Throwable cause) {
        super(message, cause);
        this.offset = offset;
        this.retriable = retriable;
        this.damaged = damaged;
    }

    /** The target refused or lost a statement (or the commit) at {@code offset}. */
    static LoadFailure sql(long offset, String what, SQLException e) {
        String msg;
        if (ErrorClassifier.isDuplicateKey(e)) {
            msg = what + " hit a row the target already has (" + ErrorClassifier.oneLine(e)
                    + "); empty the target table or set on-duplicate to replace or ignore, then rerun";
        } else if (ErrorClassifier.isEntryTooLarge(e)) {
            msg = what + " holds a row the target refuses as too large (" + ErrorClassifier.oneLine(e)
                    + "); raise TiDB's txn-entry-size-limit, then rerun";
        } else {
            msg = what + " failed: " + ErrorClassifier.oneLine(e) + " (error " + e.getErrorCode() + ")";
        }
        return new LoadFailure(msg, offset, ErrorClassifier.isRetriable(e), false, e);
    }

    /** Worth loading the file again from its checkpoint at once, for the reason {@code message}. */
    static LoadFailure again(long offset, String message, SQLException e) {
        return new LoadFailure(message, offset, true, false, e);
    }

    /** The file itself is wrong (truncated, corrupt, unexpected content): retrying cannot help. */
    static LoadFailure badFile(long offset, String message, Throwable cause) {
        return new LoadFailure(message, offset, false, false, cause);
    }

    /** The file is not what the dump wrote, or holds what its table's file must not: only a new dump helps. */
    static LoadFailure damaged(long offset, String message) {
        return new LoadFailure(message, offset, false, true, null);
    }

    long offset() {
        return offset;
    }

    boolean retriable() {
        return retriable;
    }

    boolean damaged() {
        return damaged;
    }

    /** True when TiDB refused the transaction as too large (8004): fewer statements per transaction pass. */
    boolean txnTooLarge() {
        return ErrorClassifier.isTxnTooLarge(this);
    }
}
