package io.jdm.load;

import com.mysql.cj.jdbc.JdbcStatement;
import io.jdm.common.config.OnDuplicate;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.sql.SqlBytes;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends an INSERT's rows as {@code LOAD DATA LOCAL INFILE} streamed from memory, in the file's open
 * transaction, so the checkpoint commits with them as it does with an INSERT. The server parses
 * field text far more cheaply than INSERT text.
 *
 * <p>Faithfulness: with LOCAL the server treats errors as IGNORE does (a duplicate key skips the
 * row, a bad value is converted), each with a warning. So the statement is kept only when it
 * raised no warning and wrote every row (with {@code ignore}: warnings only for the duplicates it
 * skipped, one each; with {@code replace}: at least one change a row). Otherwise it is undone (to a
 * savepoint, or the whole transaction when it is the transaction's first statement) and the caller
 * runs the INSERT, which fails, converts or skips exactly as it always did. Statements whose values
 * cannot be written exactly as LOAD DATA text ({@link LoadDataRows}), sessions whose character set
 * or sql_mode read literals differently, and targets that refuse the statement go by INSERT, as
 * does every statement on TiDB, which has committed LOAD DATA in batches of its own.
 */
final class LoadDataPath {
    private static final Logger LOG = LoggerFactory.getLogger(LoadDataPath.class);
    private static final String SAVEPOINT = "jdm_load_data";
    /** Session character sets whose statement text this path can write: the text JDBC sends is UTF-8. */
    private static final Set<String> CHARSETS = Set.of("utf8mb4", "utf8mb3", "utf8", "binary");
    private static final int DUPLICATE_KEY = 1062;

    /** What became of a statement. */
    enum Outcome {
        /** Loaded by LOAD DATA: nothing more to do. */
        LOADED,
        /** Not tried: its values, the session or the target do not allow it. */
        NOT_TRIED,
        /** Tried and undone: run it by INSERT. */
        UNDONE
    }

    private final LoadJob job;
    private final TableName target;
    private final SqlBytes rows = new SqlBytes(1 << 16);
    private TargetColumns columns;

    LoadDataPath(LoadJob job, TableName target) {
        this.job = job;
        this.target = target;
    }

    /**
     * Loads the rows of {@code sql}, an INSERT {@link InsertRewriter} wrote.
     *
     * @param first no statement of the file runs in the open transaction yet: undoing is a rollback
     * @param original the statement as the file has it, for messages
     */
    Outcome run(Connection c, FileLoader.Session session, String sql, boolean first, long offset, String original)
            throws LoadFailure {
        if (job.loadDataRefused()) {
            return Outcome.NOT_TRIED;
        }
        String charset = charset(c, session, offset);
        LoadDataRows.Rows r;
        try {
            if (charset.isEmpty()) {
                return Outcome.NOT_TRIED;
            }
            if (columns == null) {
                columns = TargetColumns.read(c, target);
            }
            r = LoadDataRows.convert(sql, columns, charset.equals("binary"), rows);
        } catch (SQLException e) {
            throw LoadFailure.sql(offset, "reading the columns of " + target.quoted(), e);
        }
        if (r == null) {
            return Outcome.NOT_TRIED;
        }
        String load = "LOAD DATA LOCAL INFILE 'jdm-rows' " + modifier() + "INTO TABLE " + target.quoted()
                + " CHARACTER SET " + (r.binary() ? "binary" : charset) + " " + LoadDataRows.FORMAT
                + (r.columns().isEmpty() ? "" : " " + r.columns());
        boolean saved = false;
        try {
            if (!first) {
                execute(c, "SAVEPOINT " + SAVEPOINT);
                saved = true;
            }
            boolean kept;
            if (session.loadDataBulkInsert) {
                // MariaDB's bulk insert into an empty table (unique_checks and foreign_key_checks off)
                // has been seen to hang LOAD DATA at its end beside a reader of the table: checked
                // unique keys keep LOAD DATA out of it (and a duplicate then warns, sending it to INSERT)
                execute(c, "SET SESSION unique_checks = 1");
                try {
                    kept = loadData(c, load, r);
                } finally {
                    execute(c, "SET SESSION unique_checks = 0");
                }
            } else {
                kept = loadData(c, load, r);
            }
            if (kept) {
                return Outcome.LOADED;
            }
            undo(c, first, saved);
            return Outcome.UNDONE;
        } catch (SQLException e) {
            if (ErrorClassifier.isRetriable(e) || ErrorClassifier.isTxnTooLarge(e)) {
                throw LoadFailure.sql(offset, "the statement " + SqlText.head(original) + " (as LOAD DATA)", e);
            }
            try {
                undo(c, first, saved);
            } catch (SQLException again) {
                throw LoadFailure.sql(offset, "undoing the statement " + SqlText.head(original) + " (as LOAD DATA)",
                        again);
            }
            refused(e);
            return first || saved ? Outcome.UNDONE : Outcome.NOT_TRIED;
        }
    }

    /** Runs the LOAD DATA of the rows in {@link #rows}; true when it did what the INSERT would have. */
    private boolean loadData(Connection c, String load, LoadDataRows.Rows r) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.setEscapeProcessing(false);
            st.unwrap(JdbcStatement.class).setLocalInfileInputStream(rows.inputStream());
            st.execute(load);
            return faithful(c, st.getLargeUpdateCount(), r.rows(), st.getWarnings());
        }
    }

    /**
     * The statement did what an INSERT does when it succeeds. Counts are affected rows; a warning
     * means a row was skipped or a value changed, except a duplicate skipped under {@code ignore}.
     */
    private boolean faithful(Connection c, long affected, long sent, SQLWarning warnings) throws SQLException {
        OnDuplicate mode = job.onDuplicate();
        if (warnings == null) {
            return mode == OnDuplicate.REPLACE ? affected >= sent : affected == sent;
        }
        if (mode != OnDuplicate.IGNORE) {
            return false;
        }
        long duplicates = 0;
        for (SQLWarning w = warnings; w != null; w = w.getNextWarning()) {
            if (w.getErrorCode() != DUPLICATE_KEY) {
                return false;
            }
            duplicates++;
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW COUNT(*) WARNINGS")) {
            rs.next();
            // every warning seen (max_error_count may hide some), one per row not written
            return rs.getLong(1) == duplicates && affected + duplicates == sent;
        }
    }

    private String modifier() {
        return switch (job.onDuplicate()) {
            case ERROR -> "";
            case IGNORE -> "IGNORE ";
            case REPLACE -> "REPLACE ";
        };
    }

    private static void undo(Connection c, boolean first, boolean saved) throws SQLException {
        if (first) {
            c.rollback();
        } else if (saved) {
            execute(c, "ROLLBACK TO SAVEPOINT " + SAVEPOINT);
        }
    }

    /** The target will not run LOAD DATA LOCAL as sent: every later statement of the load goes by INSERT. */
    private void refused(SQLException e) {
        if (job.refuseLoadData()) {
            LOG.warn("{}: the target {} does not take LOAD DATA LOCAL INFILE ({}, error {}); loading by INSERT",
                    job.who(), job.config.target().address(), ErrorClassifier.oneLine(e), e.getErrorCode());
        }
    }

    /**
     * The character set to send text in, "" when the session reads literals in a way this path
     * does not write (another character set, or ANSI_QUOTES or NO_BACKSLASH_ESCAPES); asked of
     * the target once after every SET the file runs.
     */
    private String charset(Connection c, FileLoader.Session session, long offset) throws LoadFailure {
        if (session.loadDataCharset != null) {
            return session.loadDataCharset;
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@character_set_client, "
                + "@@character_set_connection, @@sql_mode, VERSION(), @@unique_checks, @@foreign_key_checks")) {
            rs.next();
            session.loadDataBulkInsert = rs.getString(4).contains("MariaDB") && !rs.getBoolean(5) && !rs.getBoolean(6);
            if (rs.getString(4).contains("-TiDB-")) {
                // TiDB has committed LOAD DATA in batches of its own (tidb_dml_batch_size): rows could
                // commit apart from their checkpoint, so a resume would load them twice
                if (job.refuseLoadData()) {
                    LOG.info("{}: the target is TiDB, whose LOAD DATA may commit rows apart from the checkpoint;"
                            + " loading by INSERT", job.who());
                }
                return "";
            }
            String client = rs.getString(1).toLowerCase(Locale.ROOT);
            List<String> modes = List.of(rs.getString(3).toUpperCase(Locale.ROOT).split(","));
            boolean ok = client.equals(rs.getString(2).toLowerCase(Locale.ROOT)) && CHARSETS.contains(client)
                    && !modes.contains("ANSI_QUOTES") && !modes.contains("NO_BACKSLASH_ESCAPES");
            session.loadDataCharset = ok ? client : "";
            return session.loadDataCharset;
        } catch (SQLException e) {
            throw LoadFailure.sql(offset, "reading the session's character set", e);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
