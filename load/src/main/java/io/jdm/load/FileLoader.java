package io.jdm.load;

import io.jdm.common.schema.TableEngines;
import com.mysql.cj.exceptions.MysqlErrorNumbers;
import io.jdm.common.config.OnDuplicate;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.SqlModes;
import io.jdm.common.sql.TableName;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Loads one data file on one connection. Statements are read one at a time from the stream,
 * rewritten for the routed target and grouped into transactions; each transaction also moves the
 * file's checkpoint row to the end of its last statement and then commits, so data and offset are
 * never apart; a stop commits the statements that ran so far the same way. Statements that end at
 * or before the committed offset are skipped (a resume);
 * session statements ({@code SET NAMES ...}) are always run, because the session may be new,
 * except a {@code SET NAMES} the connection already ran last. Nothing else costs a round trip
 * per file: the checkpoint row comes from the read before the workers started.
 */
final class FileLoader {
    /**
     * What one connection's session is, as far as a file may change it. {@code names} is the last
     * {@code SET NAMES} statement run, or null when unknown (a new connection, or another SET ran
     * since), so that a file repeating the {@code SET NAMES} the previous file left behind costs no
     * round trip. The sql_mode is the load's ({@link LoadJob#sqlMode}) unless a file set its own:
     * that file's text was written for it, the next file's for the load's mode, so each file
     * starts in the load's mode ({@link #startFile}).
     */
    static final class Session {
        String names;
        private final String loadMode;
        /** The sql_mode the connection is in; null when not known (a file set one, not read back yet). */
        private String sqlMode;
        /** A file's session statement set sql_mode: the next file starts with the load's again. */
        private boolean fileMode;
        /**
         * The session statements of files run on the connection, in order, since it last ran anything
         * else that changes its session (a file's statement that differed ends the list there).
         */
        private final List<String> applied = new ArrayList<>();
        /** How many of this file's session statements were {@link #applied}'s first ones; -1 once one was not. */
        private int matched = -1;

        /** @param loadMode the sql_mode the connection was opened in */
        Session(String loadMode) {
            this.loadMode = loadMode;
            this.sqlMode = loadMode;
        }

        /** Before a file's first statement: the load's sql_mode, where the file before set its own. */
        void startFile(Statement st) throws SQLException {
            if (fileMode) {
                forget();
                st.execute("SET SESSION sql_mode = " + Identifiers.literal(loadMode));
                sqlMode = loadMode;
                fileMode = false;
            }
            matched = 0;
        }

        /**
         * Runs a session statement of a file. One the files before on this connection ran in the same
         * place, after the same ones, is skipped: the session holds what it set, and a file of every
         * table starting with the same two statements costs their round trips once per connection.
         * A {@code SET NAMES} the connection ran last is skipped too.
         */
        void run(Statement st, String sql) throws SQLException {
            if (matched >= 0 && matched < applied.size() && applied.get(matched).equals(sql)) {
                matched++;
                return;
            }
            settle(st);
            execute(st, sql);
        }

        /**
         * Before a file's first statement that is not a session statement, and at its end (and when
         * one differs, {@link #run}): the statements skipped because the files before ran them hold
         * only where those files ran nothing after them. A file that ran more (a {@code SET} after
         * its rows that sets back what its first ones set) left the session otherwise, so the
         * skipped ones run now, in order.
         */
        void settle(Statement st) throws SQLException {
            if (matched < 0) {
                return;
            }
            int skipped = matched;
            matched = -1;
            if (skipped < applied.size()) {
                List<String> again = new ArrayList<>(applied.subList(0, skipped));
                applied.clear();
                names = null;
                for (String sql : again) {
                    execute(st, sql);
                }
            }
        }

        private void execute(Statement st, String sql) throws SQLException {
            if (SqlText.isSetNames(sql)) {
                if (!sql.equals(names)) {
                    st.execute(sql);
                    names = sql;
                }
                applied.add(sql);
                return;
            }
            names = null; // another SET may change the character set in ways not tracked here
            if (SqlText.namesSqlMode(sql)) {
                sqlMode = null;
                fileMode = true;
            }
            st.execute(sql);
            applied.add(sql);
        }

        /** The connection ran something that may change its session: every file statement runs again. */
        void forget() {
            applied.clear();
            matched = -1;
            names = null;
        }

        /**
         * Whether the connection refuses a value it cannot store as given: the load's mode says,
         * or, after a file set its own, the server.
         */
        boolean strict(Statement st) throws SQLException {
            if (sqlMode == null) {
                try (ResultSet rs = st.executeQuery("SELECT @@SESSION.sql_mode")) {
                    rs.next();
                    sqlMode = rs.getString(1);
                }
            }
            return SqlModes.strict(sqlMode);
        }
    }

    private final LoadJob job;
    private final DumpDirectory.DataFile file;
    private final TableName target;
    /** The checkpoint row read before the workers started; used once, a retry reads it again. */
    private LoaderCheckpoint.Row known;
    private long committed;
    private Session session;
    /** Whether the default character set is still due before the file's next statement. */
    private FileNames names;
    /**
     * The character set of the file's session (utf8mb4 until it sets one, {@link FileNames}); null when a
     * statement set it in a way not followed here.
     */
    private String charset = "utf8mb4";
    private final EnumErrorValues enumErrorValues;
    /** What the dump recorded for this file; null for a dump without {@code jdm-files}. */
    private final FileManifest.Entry recorded;
    private boolean verified;
    /** Rows of the statements before {@link #committed}; -1 when a checkpoint row older than the count has none. */
    private long committedRows;
    /** The open transaction, or the one that failed last. */
    private Txn txn = new Txn();
    /** At most this many of the file's statements per transaction: lowered when TiDB finds one too large. */
    private int maxStatements = Integer.MAX_VALUE;
    /** How the statements go into a table outside transactions; null for any other table. */
    private AnnouncedStatements announced;
    /** Introduces the JSON columns' literals while the file's character set is binary; null for a table without them. */
    private JsonIntroducers json;

    FileLoader(LoadJob job, DumpDirectory.DataFile file, TableName target, LoaderCheckpoint.Row known) {
        this.job = job;
        this.file = file;
        this.target = target;
        this.known = known;
        this.enumErrorValues = new EnumErrorValues(target);
        this.recorded = job.recorded.apply(file.name());
    }

    /** The offset the target has committed, as last read or written by this loader. */
    long committedOffset() {
        return committed;
    }

    /**
     * Loads the file from its checkpoint to the end.
     *
     * @param session the connection's character set state, kept by the worker across files
     * @param maxStatementBytes statements longer than this are split (the target's max_allowed_packet)
     * @return true when the file is finished, false when the job stopped first
     */
    boolean load(Connection c, Session session, long maxStatementBytes, LongConsumer diskBytes) throws LoadFailure {
        this.session = session;
        this.names = new FileNames(); // the previous file on this connection may have left SET NAMES binary behind
        this.charset = "utf8mb4";
        boolean clean = false;
        boolean checkUnique = job.uniqueChecked.contains(target);
        try (Statement st = c.createStatement()) {
            st.setEscapeProcessing(false); // dump text is SQL, not JDBC escape syntax
            session.startFile(st);
            if (checkUnique) {
                session.forget();
                st.execute("SET SESSION unique_checks = 1");
            }
            LoaderCheckpoint.Row row = checkpoint(c);
            if (row.finished()) {
                return clean = true;
            }
            engine(c, row);
            columns(c);
            verify();
            try (InputStream in = DumpFileInput.open(file.path(), file.compression(), diskBytes)) {
                boolean done = run(c, st, new StatementLexer(in), maxStatementBytes);
                clean = done; // a finished file ends on a commit; a stopped one may hold uncommitted statements
                return done;
            }
        } catch (IOException e) {
            throw LoadFailure.badFile(committed, "cannot read the file: " + DumpFileInput.why(e), e);
        } catch (SQLException e) {
            throw LoadFailure.sql(committed, "opening a statement", e);
        } finally {
            if (!clean) {
                LoadJob.rollbackQuietly(c);
            }
            if (checkUnique) {
                session.forget();
                uniqueChecksOff(c);
            }
        }
    }

    /** Gives the connection the task's unique_checks back for the next file. */
    private static void uniqueChecksOff(Connection c) {
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION unique_checks = 0");
        } catch (SQLException e) {
            // the connection is lost, and with it the setting
        }
    }

    /**
     * The file's checkpoint row: the one read before the workers started on the first attempt
     * (nothing else writes this file's row), the target's on a retry, where a commit may have
     * succeeded although its acknowledgement was lost.
     */
    private LoaderCheckpoint.Row checkpoint(Connection c) throws LoadFailure {
        LoaderCheckpoint.Row row = known;
        known = null;
        if (row == null) {
            try {
                session.forget(); // the read runs in the connection's current character set, whatever it is
                row = job.checkpoint.read(c, file.name());
                c.commit();
            } catch (SQLException e) {
                throw LoadFailure.sql(committed, "reading the checkpoint", e);
            }
        }
        committed = row.offset();
        // every INSERT has a row, and a statement announced before it runs counts those before it
        boolean counted = row.rows() > 0 || row.offset() == 0 || LoaderCheckpoint.APPLYING.equals(row.status());
        committedRows = counted ? row.rows() : -1;
        return row;
    }

    /**
     * Reads the target table's engine: a table outside transactions commits each statement on its
     * own, announced before it runs ({@link AnnouncedStatements}).
     */
    private void engine(Connection c, LoaderCheckpoint.Row row) throws LoadFailure {
        TableEngines.Engine engine;
        try {
            engine = job.engines.of(c, target);
        } catch (SQLException e) {
            throw LoadFailure.sql(committed, "reading the engine of " + target.quoted(), e);
        }
        if (!engine.transactional()) {
            maxStatements = 1;
            announced = new AnnouncedStatements(job, file.name(), target, engine, row);
        }
    }

    /** Reads the target table's columns (once per load): which of them are JSON ({@link JsonIntroducers}). */
    private void columns(Connection c) throws LoadFailure {
        try {
            json = JsonIntroducers.of(job.schemas.of(c, target));
        } catch (SQLException e) {
            throw LoadFailure.sql(committed, "reading the columns of " + target.quoted(), e);
        }
    }

    /**
     * Compares the file with what the dump wrote, once, before any of its statements runs: a file
     * cut short or changed is refused before a row of it is loaded.
     */
    private void verify() throws LoadFailure {
        if (verified) {
            return;
        }
        verify(file, recorded, committed);
        verified = true;
    }

    /** Refuses {@code file} when its size or CRC32C is not what the dump recorded (nothing to compare: passes). */
    static void verify(DumpDirectory.DataFile file, FileManifest.Entry recorded, long offset) throws LoadFailure {
        verifySize(file, recorded, offset);
        if (recorded == null) {
            return;
        }
        try {
            verifyCrc(recorded, FileManifest.crc32c(file.path()), offset);
        } catch (IOException e) {
            throw LoadFailure.badFile(offset, "cannot read the file: " + e.getMessage(), e);
        }
    }

    /** Refuses {@code file} when its size is not what the dump recorded (nothing to compare: passes). */
    static void verifySize(DumpDirectory.DataFile file, FileManifest.Entry recorded, long offset) throws LoadFailure {
        if (recorded == null) {
            return;
        }
        try {
            long size = Files.size(file.path());
            if (size != recorded.size()) {
                throw LoadFailure.damaged(offset, "the file is " + size + " bytes but the dump wrote "
                        + recorded.size() + " (" + FileManifest.NAME + "): it was cut short or changed");
            }
        } catch (IOException e) {
            throw LoadFailure.badFile(offset, "cannot read the file: " + e.getMessage(), e);
        }
    }

    /** Refuses a file whose bytes' CRC32C is {@code crc} when the dump recorded another. */
    static void verifyCrc(FileManifest.Entry recorded, long crc, long offset) throws LoadFailure {
        if (crc != recorded.crc32c()) {
            throw LoadFailure.damaged(offset, String.format("the file's CRC32C is %08x but the dump wrote %08x"
                    + " (%s): it was changed", crc, recorded.crc32c(), FileManifest.NAME));
        }
    }

    /**
     * After TiDB refused a transaction as too large (8004): the next attempt commits after half as
     * many statements. False when the refused transaction held one statement, which cannot be
     * split without losing the exact resume at statement ends.
     */
    boolean halveTransactions() {
        if (txn.fileStatements <= 1) {
            return false;
        }
        maxStatements = Math.max(1, txn.fileStatements / 2);
        return true;
    }

    private boolean run(Connection c, Statement st, StatementLexer lexer, long maxStatementBytes)
            throws LoadFailure {
        txn = new Txn();
        long lastEnd = committed;
        while (true) {
            if (job.stopping()) {
                if (job.stopRequested() && job.failure() == null && txn.fileStatements > 0) {
                    // a stop (stop-task, pause-task) keeps what ran: it commits with its offset, as any
                    // transaction does; after another worker's failure nothing more is written
                    commit(c, txn, lastEnd, 0, LoaderCheckpoint.LOADING);
                }
                return false;
            }
            StatementLexer.Statement s = nextStatement(lexer);
            if (s == null) {
                break;
            }
            String sql = SqlText.decode(s.bytes(), s.from(), s.to(), charset); // the statement read in place
            switch (SqlText.kind(sql)) {
                case SESSION -> session(st, sql, s.start());
                case DATA -> {
                    settle(st, s.start());
                    if (s.end() <= committed) {
                        continue;
                    }
                    if (s.start() < committed) {
                        throw LoadFailure.badFile(committed, "the checkpoint offset " + committed
                                + " is inside the statement at " + s.start() + ".." + s.end()
                                + ": the file changed since the last run; restore it or clear the checkpoint", null);
                    }
                    defaultNames(st, sql, s.start());
                    if (announced != null) {
                        announced.announce(c, s.start(), Math.max(0, committedRows));
                    }
                    data(st, s, sql, maxStatementBytes, txn);
                    lastEnd = s.end();
                    if (txn.bytes >= job.config.transactionBytes() || txn.fileStatements >= maxStatements) {
                        commit(c, txn, s.end(), 0, LoaderCheckpoint.LOADING);
                    }
                }
                default -> throw LoadFailure.badFile(s.start(), "unexpected statement " + SqlText.head(sql)
                        + ": data files hold only INSERT/REPLACE and SET statements", null);
            }
        }
        long end = lexer.offset();
        if (recorded != null && committedRows >= 0 && committedRows + txn.rows != recorded.rows()) {
            throw LoadFailure.damaged(end, "the file holds " + (committedRows + txn.rows) + " rows but the dump wrote "
                    + recorded.rows() + " (" + FileManifest.NAME + ")");
        }
        defaultNames(st, "", end);
        settle(st, end);
        commit(c, txn, end, end, LoaderCheckpoint.FINISHED);
        job.metrics.fileDone();
        return true;
    }

    /**
     * Runs a session statement of the file. A {@code SET NAMES} identical to the one the
     * connection last ran is skipped: it would set the same three variables to the same values.
     */
    private void session(Statement st, String sql, long offset) throws LoadFailure {
        defaultNames(st, sql, offset);
        charset = SqlText.sessionCharset(charset, sql);
        runSession(st, sql, offset);
    }

    /** Before the file's statement {@code sql} ("" for none): its character set, as {@link FileNames} says. */
    private void defaultNames(Statement st, String sql, long offset) throws LoadFailure {
        String set = names.before(sql);
        if (set != null) {
            runSession(st, set, offset);
        }
    }

    /** Before a statement that is not a session statement, and at the file's end: {@link Session#settle}. */
    private void settle(Statement st, long offset) throws LoadFailure {
        try {
            session.settle(st);
        } catch (SQLException e) {
            throw LoadFailure.sql(offset, "the file's session statements", e);
        }
    }

    private void runSession(Statement st, String sql, long offset) throws LoadFailure {
        try {
            session.run(st, sql);
        } catch (SQLException e) {
            throw LoadFailure.sql(offset, "the statement " + SqlText.head(sql), e);
        }
    }

    private StatementLexer.Statement nextStatement(StatementLexer lexer) throws LoadFailure {
        try {
            return lexer.next();
        } catch (StatementLexer.MalformedSqlException e) {
            throw LoadFailure.badFile(e.offset(), e.getMessage(), e);
        } catch (IOException e) {
            throw LoadFailure.badFile(lexer.offset(), "the file cannot be read past byte offset " + lexer.offset()
                    + " (" + DumpFileInput.why(e) + "): it is truncated or corrupt", e);
        }
    }

    private void data(Statement st, StatementLexer.Statement s, String sql, long maxStatementBytes, Txn txn)
            throws LoadFailure {
        InsertRewriter.Insert ins;
        List<String> pieces;
        // a statement in doubt is written again skipping the rows of it that landed; with replace or
        // ignore the statement does that as it is
        boolean redo = announced != null && announced.redo();
        OnDuplicate onDuplicate = redo && job.onDuplicate() == OnDuplicate.ERROR ? OnDuplicate.IGNORE
                : job.onDuplicate();
        try {
            ins = InsertRewriter.rewrite(sql, target, onDuplicate, job.config.extraColumns().apply(file.source()));
            checkTable(job, file, ins, s.start());
            String text = json != null && "binary".equals(charset) ? json.introduce(ins.sql()) : ins.sql();
            pieces = InsertRewriter.split(text, maxStatementBytes);
        } catch (IllegalArgumentException e) {
            throw LoadFailure.badFile(s.start(), "the statement " + SqlText.head(sql) + " cannot be loaded: "
                    + e.getMessage(), e);
        }
        if (txn.bytes == 0) {
            txn.startNanos = System.nanoTime();
        }
        txn.fileStatements++;
        for (String piece : pieces) {
            executeData(st, piece, s.start(), sql, redo);
        }
        txn.bytes += s.length();
        txn.rows += Math.max(0, s.topLevelGroups() - (ins.columnList() ? 1 : 0));
        txn.statements += pieces.size();
    }

    /** A statement must write the file's table (or one routed to the same target): never another one. */
    static void checkTable(LoadJob job, DumpDirectory.DataFile file, InsertRewriter.Insert ins, long offset)
            throws LoadFailure {
        TableName source = file.source();
        if (ins.table().equals(source.table()) && (ins.schema() == null || ins.schema().equals(source.schema()))) {
            return;
        }
        TableName named = new TableName(ins.schema() == null ? source.schema() : ins.schema(), ins.table());
        if (!job.config.router().apply(named).equals(job.config.router().apply(source))) {
            throw LoadFailure.damaged(offset, "the statement at byte offset " + offset + " inserts into "
                    + named.quoted() + ", not into the file's table " + source.quoted());
        }
    }

    private void commit(Connection c, Txn txn, long offset, long endOffset, String status) throws LoadFailure {
        long start = txn.bytes == 0 ? System.nanoTime() : txn.startNanos;
        long rows = committedRows < 0 ? 0 : committedRows + txn.rows;
        try {
            job.checkpoint.advance(c, file.name(), offset, endOffset, status, rows);
            c.commit();
        } catch (SQLException e) {
            throw refused(committed, "committing up to byte offset " + offset, e);
        }
        committed = offset;
        if (committedRows >= 0) {
            committedRows = rows;
        }
        job.metrics.recordTransaction(start);
        job.metrics.addRows(txn.rows);
        job.metrics.addStatements(txn.statements);
        txn.reset();
    }

    /**
     * {@link #execute}, writing back an ENUM's index 0 that the strict session refused. Into a table
     * outside transactions, strict mode adjusts a bad value after the first row with a warning rather
     * than fail the half-written statement: any warning but an ENUM's error value (and on a
     * {@code redo}, a row that landed before) stops the load. A session that is not strict (the
     * source's was not) takes the adjustments with their warnings, as the source's took them.
     */
    private void executeData(Statement st, String sql, long offset, String original, boolean redo)
            throws LoadFailure {
        try {
            if (announced == null) {
                st.execute(sql);
            } else if (session.strict(st)) {
                enumErrorValues.executeChecked(st, sql, redo);
            } else {
                st.execute(sql); // a value adjusted with a warning, as the non-strict source adjusted it
            }
        } catch (SQLException e) {
            try {
                // the error code first: after a lost connection the statement cannot even name its connection
                if (e.getErrorCode() != EnumErrorValues.DATA_TRUNCATED
                        || !enumErrorValues.refusedEnum(st.getConnection(), e)) {
                    throw e;
                }
                enumErrorValues.executeNonStrict(st, sql);
            } catch (SQLException again) {
                session.forget(); // a failure may have left a setting of these statements behind
                if (announced != null) {
                    announced.failed(st, offset, Math.max(0, committedRows), again);
                }
                throw refused(offset, "the statement " + SqlText.head(original), again);
            }
        }
    }

    /**
     * What the target refused: {@link LoadFailure#sql}, or, the first time MariaDB says "Got error 1
     * during COMMIT" (1180) with unique_checks off, which is how it reports a value a unique key holds
     * twice without naming the key, a failure retried at once with the checks on for the table
     * ({@link LoadJob#uniqueChecked}), where the statement holding the value fails naming both.
     */
    private LoadFailure refused(long offset, String what, SQLException e) {
        if (e.getErrorCode() == MysqlErrorNumbers.ER_ERROR_DURING_COMMIT && job.config.disableUniqueChecks()
                && job.uniqueChecked.add(target)) {
            return LoadFailure.again(committed, what + " failed: " + ErrorClassifier.oneLine(e) + ", as MariaDB"
                    + " says with unique_checks off when a unique key holds a value twice; loading "
                    + target.quoted() + " again with unique checks on to name it", e);
        }
        return LoadFailure.sql(offset, what, e);
    }


    /** Runs {@code sql}; a failure names {@code original}, the statement as the file has it. */
    private static void execute(Statement st, String sql, long offset, String original) throws LoadFailure {
        try {
            st.execute(sql);
        } catch (SQLException e) {
            throw LoadFailure.sql(offset, "the statement " + SqlText.head(original), e);
        }
    }

    /** The open transaction's size and counts. */
    private static final class Txn {
        long bytes;
        long rows;
        long statements;
        /** Statements of the file begun in this transaction (a long one runs as several pieces). */
        int fileStatements;
        long startNanos;

        void reset() {
            bytes = 0;
            rows = 0;
            statements = 0;
            fileStatements = 0;
        }
    }
}
