package io.jdm.load;

import io.jdm.common.schema.TableEngines;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The statements of one file into a table whose engine keeps rows outside transactions
 * ({@link TableEngines}). Each is announced in the file's checkpoint row
 * ({@link LoaderCheckpoint#APPLYING} at its offset) and that committed before it runs: its rows stay
 * whatever happens to the transaction, so after a kill the row says which statement may have landed
 * in part. A rerun writes that statement again over its rows that landed where a key tells them
 * apart, and stops with one line where none does.
 */
final class AnnouncedStatements {
    private final LoadJob job;
    private final String file;
    private final TableName target;
    private final TableEngines.Engine engine;
    /** The offset of the statement a previous run left in doubt; -1 when none is (any longer). */
    private long inDoubt;

    AnnouncedStatements(LoadJob job, String file, TableName target, TableEngines.Engine engine,
                        LoaderCheckpoint.Row row) {
        this.job = job;
        this.file = file;
        this.target = target;
        this.engine = engine;
        this.inDoubt = LoaderCheckpoint.APPLYING.equals(row.status()) ? row.offset() : -1;
    }

    /**
     * Commits that the statement at {@code start} is about to run, {@code rows} rows of the file
     * before it; refuses a statement in doubt on a table without a key.
     */
    void announce(Connection c, long start, long rows) throws LoadFailure {
        if (inDoubt >= 0 && !engine.keyed()) {
            throw LoadFailure.badFile(start, "the table " + target.quoted() + " is " + engine.name() + ", which keeps"
                    + " rows outside transactions, and has no primary or NOT NULL unique key: the statement at byte"
                    + " offset " + start + " was being written when the last run ended, and which of its rows"
                    + " landed cannot be told; empty the table, delete the checkpoint rows of its files from "
                    + job.checkpoint.table() + " and rerun", null);
        }
        try {
            job.checkpoint.advance(c, file, start, 0, LoaderCheckpoint.APPLYING, rows);
            c.commit();
        } catch (SQLException e) {
            throw LoadFailure.sql(start, "marking the statement at byte offset " + start + " as begun", e);
        }
    }

    /**
     * True once, for the statement a previous run left in doubt: it is written again skipping its
     * rows that landed, each of which then raises a duplicate-key warning and nothing else.
     */
    boolean redo() {
        boolean redo = inDoubt >= 0;
        inDoubt = -1;
        return redo;
    }

    /**
     * The statement at {@code offset} failed with {@code e}. When the target answered (not a lost
     * connection) into a keyed table, the statement is no longer in doubt: the rerun runs it as it
     * is and meets the same error on the rows that landed, or on the row that failed, rather than
     * skipping them as its own. A keyless table's statement stays in doubt, which stops the rerun
     * until the table is emptied.
     */
    void failed(Statement st, long offset, long rows, SQLException e) {
        if (!engine.keyed() || ErrorClassifier.isRetriable(e)) {
            return;
        }
        try {
            Connection c = st.getConnection();
            job.checkpoint.advance(c, file, offset, 0, LoaderCheckpoint.LOADING, rows);
            c.commit();
        } catch (SQLException ignored) {
            // the checkpoint keeps the statement in doubt: the rerun writes it again over its own rows
        }
    }
}
