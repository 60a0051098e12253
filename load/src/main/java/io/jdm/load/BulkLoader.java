package io.jdm.load;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableEngines;
import io.jdm.common.schema.TableSchema;
import com.mysql.cj.jdbc.JdbcStatement;
import io.jdm.common.config.OnDuplicate;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.common.sql.TypedColumn;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads consecutive files of one table, none of them begun, as one {@code LOAD DATA LOCAL INFILE}
 * in one transaction: the rows of their INSERT statements are converted to LOAD DATA's text
 * ({@link TsvRows}) while the server reads them, one statement in memory at a time, and the files'
 * checkpoint rows are written finished in the same transaction. A kill leaves nothing of the group
 * committed and the rerun starts it again, so the resume stays exact. On an empty table this is the
 * target's fastest way in (InnoDB writes no undo per row and builds the secondary indexes of a
 * table filled in one statement by sorting). Each file is read once: its CRC32C is computed as its
 * rows go and compared with the dump's record at its end, before the commit.
 *
 * <p>LOCAL makes the server turn errors into warnings (a duplicate key is skipped, a bad value
 * adjusted), so the result must have no warning and, unless rows replace others, exactly the rows
 * sent; otherwise it is rolled back and the files load statement by statement, which keeps every
 * error and adjustment of the SQL path. Files the conversion cannot carry exactly (a session other
 * than the first file's, a value of another meaning as text) take that path as well, and so do
 * the files of a table whose engine keeps rows outside transactions ({@link TableEngines}): a
 * rollback would leave its rows there and the statements would write them a second time.
 */
final class BulkLoader {
    private static final Logger LOG = LoggerFactory.getLogger(BulkLoader.class);
    /** Character sets in which tab, newline and backslash bytes are never part of another character. */
    private static final Set<String> CHARSETS = Set.of("binary", "utf8mb4", "utf8mb3", "utf8", "latin1", "ascii");
    private static final Set<String> NUMERIC = Set.of("tinyint", "smallint", "mediumint", "int", "integer",
            "bigint", "decimal", "numeric", "float", "double", "real");
    /**
     * The character sets of the columns of a table whose UTF-8 rows go as bytes ({@link #readAs}),
     * and what such a column makes of a string: utf8mb3 as MariaDB and MySQL 8.0 name it, and as
     * MySQL 5.7 does.
     */
    private static final Map<String, TsvRows.Column> AS_BYTES = Map.of("utf8mb4", TsvRows.Column.OTHER,
            "latin1", TsvRows.Column.LATIN1, "utf8mb3", TsvRows.Column.UTF8MB3, "utf8", TsvRows.Column.UTF8MB3);
    private static final Set<String> BINARY = Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob",
            "longblob");

    /**
     * sql_mode flags under which a file's strings mean something else than LOAD DATA's text:
     * {@code ANSI_QUOTES} and the modes that imply it (MariaDB's and MySQL 5.7's combinations),
     * {@code NO_BACKSLASH_ESCAPES}, and MariaDB's {@code EMPTY_STRING_IS_NULL}, which LOAD DATA does
     * not honour ({@code ''} stays {@code ''} where the INSERT stores NULL).
     */
    private static final Set<String> STRING_MODES = Set.of("ANSI_QUOTES", "ANSI", "ORACLE", "DB2", "MSSQL",
            "POSTGRESQL", "MAXDB", "NO_BACKSLASH_ESCAPES", "EMPTY_STRING_IS_NULL");

    /** A LOAD DATA whose rows the server has not taken for this long is looked at: is the server there? */
    private static final long STALL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    /**
     * How long the target may take to answer a LOAD DATA once it has every byte: it then only
     * finishes its last rows, in seconds. One that says nothing for this long is killed and its group
     * loads by statements (the kill rolls back all of it). A test shortens it.
     */
    static volatile long answerNanos = java.util.concurrent.TimeUnit.MINUTES.toNanos(5);

    /**
     * At most this many bytes of dump files (as stored, compressed or not) in one group: one
     * transaction on the target, so the most a kill or a fallback loads again per worker.
     */
    static final long MAX_GROUP_BYTES = 1L << 30;

    /** How a group ended. */
    enum Outcome {
        /** Every file of the group is loaded and its checkpoint row finished. */
        FINISHED,
        /** The job stopped; nothing of the group was committed. */
        STOPPED,
        /** Nothing was committed; the files are to be loaded statement by statement. */
        STATEMENTS
    }

    private final LoadJob job;
    private final List<DumpDirectory.DataFile> files;
    private final TableName target;

    BulkLoader(LoadJob job, List<DumpDirectory.DataFile> files, TableName target) {
        this.job = job;
        this.files = List.copyOf(files);
        this.target = target;
    }

    /** The files of the group. */
    List<DumpDirectory.DataFile> files() {
        return files;
    }

    /**
     * Loads the group; on any outcome but FINISHED the connection may be mid-protocol and must be
     * dropped by the caller.
     */
    Outcome load(Connection c, FileLoader.Session session, LongConsumer diskBytes) throws LoadFailure {
        long startNanos = System.nanoTime();
        for (DumpDirectory.DataFile f : files) {
            try {
                // the CRC32C is computed as the rows are read and checked at each file's end, before
                // the commit (Rows#endFile): each file is read once
                FileLoader.verifySize(f, job.recorded.apply(f.name()), 0);
            } catch (LoadFailure e) {
                throw e.damaged() ? LoadFailure.damaged(0, f.name() + ": " + e.getMessage()) : e;
            }
        }
        try {
            TableEngines.Engine engine = job.engines.of(c, target);
            if (!engine.transactional()) {
                return fallBack("its table is " + engine.name() + ", whose rows a rollback cannot take back");
            }
        } catch (SQLException e) {
            throw LoadFailure.sql(0, "reading the engine of " + target.quoted(), e);
        }
        Rows rows = new Rows(diskBytes);
        boolean committed = false;
        try (Statement st = c.createStatement()) {
            st.setEscapeProcessing(false);
            String why = rows.start();
            if (why == null) {
                why = prepare(c, st, session, rows);
            }
            if (why != null) {
                return fallBack(why);
            }
            st.unwrap(JdbcStatement.class).setLocalInfileInputStream(rows);
            long count;
            Thread watchdog = watch(c, rows);
            try {
                count = st.executeLargeUpdate(rows.loadData);
            } catch (SQLException e) {
                if (rows.abort != null) {
                    return rows.aborted();
                }
                throw e;
            } finally {
                watchdog.interrupt();
            }
            if (rows.abort != null) {
                return rows.aborted();
            }
            long warnings = warnings(st);
            boolean replace = job.onDuplicate() == OnDuplicate.REPLACE;
            if (warnings > 0 || (replace ? count < rows.total : count != rows.total)) {
                return fallBack("the target reported " + warnings + " warning(s) and " + count + " row(s) for "
                        + rows.total + " sent");
            }
            for (int i = 0; i < files.size(); i++) {
                job.checkpoint.advance(c, files.get(i).name(), rows.ends[i], rows.ends[i], LoaderCheckpoint.FINISHED,
                        rows.rowsPerFile[i]);
            }
            c.commit();
            committed = true;
        } catch (SQLException e) {
            if (ErrorClassifier.isRetriable(e)) {
                throw LoadFailure.sql(0, "LOAD DATA of " + files.size() + " file(s)", e);
            }
            if (ErrorClassifier.isLocalInfileRefused(e)) {
                job.noBulk("the target refuses LOAD DATA LOCAL (" + ErrorClassifier.oneLine(e) + ")");
                return Outcome.STATEMENTS;
            }
            // the statements report what the target refuses in their own words, or pass (MariaDB refuses a
            // REPLACE into an empty table at COMMIT when rows of the group collide, error 1180)
            return fallBack("the target refused it: " + ErrorClassifier.oneLine(e) + " (error " + e.getErrorCode()
                    + ")");
        } finally {
            rows.closeQuietly();
            if (!committed) {
                LoadJob.rollbackQuietly(c);
            }
        }
        job.metrics.recordTransaction(startNanos);
        job.metrics.addRows(rows.total);
        job.metrics.addStatements(rows.statements);
        files.forEach(f -> job.metrics.fileDone());
        return Outcome.FINISHED;
    }

    /**
     * Closes the connection under the driver when the job stops while the driver waits, or when the
     * server has taken no rows for {@link #STALL_NANOS} and a new connection to it fails: it is
     * shutting down or out of reach, and a write into a full socket would wait forever. The load
     * then stops, or retries as after any lost connection. A server that is slow but there (a row
     * lock, a trigger) is waited for while it takes rows; once it has them all, for {@link #answerNanos}.
     */
    private Thread watch(Connection c, Rows rows) {
        Thread t = new Thread(() -> {
            long probed = System.nanoTime();
            try {
                while (true) {
                    Thread.sleep(250);
                    long now = System.nanoTime();
                    boolean stalled = !rows.sent && now - rows.lastRead > STALL_NANOS && now - probed > STALL_NANOS;
                    if (stalled) {
                        probed = now;
                    }
                    if (job.stopping() || (stalled && !reachable())) {
                        LOG.debug("{}: closing a LOAD DATA connection that cannot go on", job.who());
                        c.abort(Runnable::run);
                        return;
                    }
                    if (rows.sent && now - rows.lastRead > answerNanos) {
                        rows.abort = "the target had every row of the LOAD DATA and did not answer in "
                                + java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(answerNanos)
                                + " s, so it was killed and rolled back";
                        kill(c);
                        c.abort(Runnable::run);
                        return;
                    }
                }
            } catch (InterruptedException e) {
                // the transfer ended
            } catch (SQLException e) {
                LOG.debug("{}: closing a LOAD DATA connection failed: {}", job.who(), e.toString());
            }
        }, Thread.currentThread().getName() + "-watchdog");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Kills {@code c}'s session on the server from another connection, which ends what it runs there. */
    private void kill(Connection c) {
        try (Connection other = job.connect(); Statement st = other.createStatement()) {
            st.execute("KILL " + c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getId());
        } catch (SQLException e) {
            LOG.warn("{}: killing a LOAD DATA the target did not answer failed: {}", job.who(), ErrorClassifier.oneLine(e));
        }
    }

    private boolean reachable() {
        try (Connection probe = job.connect()) {
            return probe.isValid(10);
        } catch (SQLException e) {
            return false;
        }
    }

    private Outcome fallBack(String why) {
        LOG.info("{}: {} loads statement by statement: {}", job.who(), files.size() == 1 ? files.get(0).name()
                : files.size() + " files from " + files.get(0).name(), why);
        return Outcome.STATEMENTS;
    }

    /**
     * The warnings of the statement just run on {@code st}, as many as the target lists (up to its
     * max_error_count). The driver asks the target for them only when the statement's OK packet
     * counted some, so a LOAD DATA without warnings costs no round trip more.
     */
    private static long warnings(Statement st) throws SQLException {
        long n = 0;
        for (SQLWarning w = st.getWarnings(); w != null; w = w.getNextWarning()) {
            n++;
        }
        return n;
    }

    /**
     * Runs the first file's session statements and builds the LOAD DATA statement from its first
     * INSERT; returns why the group cannot be loaded this way, or null.
     */
    private String prepare(Connection c, Statement st, FileLoader.Session session, Rows rows)
            throws SQLException, LoadFailure {
        String charset = "utf8mb4";
        for (String sql : rows.session) {
            charset = SqlText.sessionCharset(charset, sql);
            if (charset == null) {
                return "its session statement " + SqlText.head(sql) + " sets the character set another way than"
                        + " SET NAMES";
            }
            Set<String> modes = SqlText.sqlModeFlags(sql);
            if (modes == null) {
                return "its session statement " + SqlText.head(sql) + " sets sql_mode in a way not read here";
            }
            for (String mode : modes) {
                if (STRING_MODES.contains(mode)) {
                    return "its session statement " + SqlText.head(sql) + " sets sql_mode " + mode
                            + ", which changes how strings are written or stored";
                }
            }
        }
        if (!CHARSETS.contains(charset)) {
            return "its character set " + charset + " is not converted";
        }
        String head = new String(rows.head, StandardCharsets.UTF_8);
        InsertRewriter.Insert ins;
        try {
            ins = InsertRewriter.rewrite(head, target, OnDuplicate.ERROR);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        FileLoader.checkTable(job, files.get(0), ins, rows.firstOffset);
        ExtraColumns extra = job.config.extraColumns().apply(files.get(0).source());
        if (!extra.isEmpty() && !ins.columnList()) {
            return "its INSERTs name no columns, and the route adds columns to the target table";
        }
        TableSchema table = job.schemas.of(c, target);
        if (table == null) {
            return "its target table is not there";
        }
        List<Column> fields = fields(table, head);
        if (fields == null) {
            return "its column list does not match the target table's columns";
        }
        Set<String> textCharsets = textCharsets(table);
        String readAs = readAs(charset, textCharsets);
        boolean utf8AsBytes = "utf8mb4".equals(charset) && "binary".equals(readAs);
        rows.columns = fields.stream().map(col -> kind(col, utf8AsBytes)).toArray(TsvRows.Column[]::new);
        rows.listGroups = ins.columnList() ? 1 : 0;
        FileNames names = new FileNames(); // as FileLoader runs them
        session.startFile(st);
        for (String sql : rows.session) {
            String set = names.before(sql);
            if (set != null) {
                session.run(st, set);
            }
            session.run(st, sql);
        }
        String set = names.beforeRows();
        if (set != null) {
            session.run(st, set);
        }
        session.settle(st);
        rows.loadData = "LOAD DATA LOCAL INFILE 'jdm-rows' "
                + (job.onDuplicate() == OnDuplicate.REPLACE ? "REPLACE " : "") + "INTO TABLE " + target.quoted()
                + " CHARACTER SET " + readAs
                + " FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n'"
                + targets(fields, ins.columnList(), "binary".equals(readAs), extra);
        return null;
    }

    /**
     * Where the fields go: the INSERT's column list, if it has one; then {@code SET} the columns the
     * route adds, the same for every row of the group's table. A JSON column read as {@code binary}
     * takes its field through a variable, as {@code CONVERT(@v USING utf8mb4)}: MySQL makes no JSON
     * value of a binary string (error 3144), and that conversion keeps the bytes, which a JSON value's
     * text has in UTF-8 (other bytes become a warning, and the statements then refuse them).
     */
    private static String targets(List<Column> fields, boolean listed, boolean binary, ExtraColumns extra) {
        List<String> set = new ArrayList<>();
        StringBuilder list = new StringBuilder();
        boolean json = binary && fields.stream().anyMatch(Column::isJson);
        if (listed || json) {
            for (int i = 0; i < fields.size(); i++) {
                String name = Identifiers.quote(fields.get(i).name());
                list.append(i == 0 ? " (" : ", ");
                if (json && fields.get(i).isJson()) {
                    list.append("@jdm_json_").append(i);
                    set.add(name + " = CONVERT(@jdm_json_" + i + " USING utf8mb4)");
                } else {
                    list.append(name);
                }
            }
            list.append(')');
        }
        for (int e = 0; e < extra.size(); e++) {
            set.add(Identifiers.quote(extra.names().get(e)) + " = " + extra.literal(e));
        }
        return set.isEmpty() ? list.toString() : list + " SET " + String.join(", ", set);
    }

    /**
     * The character set LOAD DATA is told the rows are in: the files' own, or {@code binary} when
     * the files are UTF-8 ({@code utf8mb4}) and every character column of the table is utf8mb4,
     * utf8mb3 (whose characters of four bytes send the group by statements) or latin1, whose
     * strings are then written as latin1 bytes ({@link TsvRows.Column#LATIN1}: the
     * conversion the server would make, here, where it costs a table lookup per character of several
     * bytes; measured, see docs/benchmarks.md, schema per tenant). The server
     * then stores the same bytes, validated as the column's character set all the same, but reads the
     * rows without working out where each character ends: in UTF-8 no byte of a character that takes
     * several is a tab, a newline or a backslash, so there is nothing to work out (measured: a load
     * of 8 x 500k sysbench rows, 18.0 -> 15.6 s of the target's CPU). A column in another character
     * set keeps the files' name, so that its values are converted as the INSERT would convert them,
     * and so does a MariaDB INET4, INET6 or UUID column (a binary string of 16 bytes is a raw INET6).
     * A MySQL JSON column, which has no character set, takes its field converted to utf8mb4
     * ({@link #targets}), from files read as {@code binary} either way.
     */
    static String readAs(String filesCharset, Set<String> textCharsets) {
        boolean utf8 = "utf8mb4".equals(filesCharset);
        return utf8 && AS_BYTES.keySet().containsAll(textCharsets) ? "binary" : filesCharset;
    }

    /**
     * The column of each field of the INSERT whose head is {@code head}: the listed ones, or the
     * visible ones in order; null when a listed column is not in the table.
     */
    private static List<Column> fields(TableSchema table, String head) {
        List<String> names;
        try {
            names = InsertRewriter.columnNames(head);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (names == null) {
            return table.valuesColumns().isEmpty() ? null : table.valuesColumns();
        }
        List<Column> out = new ArrayList<>();
        for (String name : names) {
            Column col = table.column(name).orElse(null);
            if (col == null) {
                return null;
            }
            out.add(col);
        }
        return out;
    }

    /**
     * What a field makes of a value, by its column's type; a latin1 column of UTF-8 rows read as
     * bytes ({@link #readAs}) takes its strings' characters as latin1 bytes, a utf8mb3 one refuses
     * their characters of four bytes.
     */
    private static TsvRows.Column kind(Column col, boolean utf8AsBytes) {
        if (NUMERIC.contains(col.dataType())) {
            return TsvRows.Column.NUMBER;
        }
        if (BINARY.contains(col.dataType())) {
            return TsvRows.Column.BINARY;
        }
        TsvRows.Column text = utf8AsBytes && col.charset() != null
                ? AS_BYTES.get(col.charset().toLowerCase(Locale.ROOT)) : null;
        return text != null ? text : TsvRows.Column.OTHER;
    }

    /**
     * The character set of every character column of the table, and the type of every MariaDB
     * INET4, INET6 or UUID column, whose text sent as bytes would be taken as its raw form.
     */
    private static Set<String> textCharsets(TableSchema table) {
        Set<String> out = new HashSet<>();
        for (Column col : table.columns()) {
            if (col.charset() != null) {
                out.add(col.charset().toLowerCase(Locale.ROOT));
            } else if (TypedColumn.fixedBinaryLength(col.dataType()) > 0) {
                out.add(col.dataType()); // its text must not arrive as bytes
            }
        }
        return out;
    }

    /**
     * The group's rows as LOAD DATA text, produced while the driver reads it. A read that cannot go
     * on records why in {@link #abort} and fails, which ends the transfer.
     */
    private final class Rows extends InputStream {
        private final LongConsumer diskBytes;
        /** When the driver last asked for more rows. */
        volatile long lastRead = System.nanoTime();
        /** Every row is handed to the driver: what is left is the server's to finish. */
        volatile boolean sent;
        private final TsvRows.Out out = new TsvRows.Out();
        private int outPos;
        private int fileIndex = -1;
        private DumpFileInput.Checked checked;
        private StatementLexer lexer;
        /** The data statement read ahead while looking for the end of a file's session statements. */
        private StatementLexer.Statement pending;
        /** The first file's session statements, which every file of the group must repeat. */
        final List<String> session = new ArrayList<>();
        private List<String> fileSession;
        /** The head ({@code INSERT INTO ... VALUES}) of the first INSERT, which every INSERT must repeat. */
        byte[] head;
        long firstOffset;
        TsvRows.Column[] columns;
        /** 1 when the INSERTs name their columns: that parenthesised group is not a row. */
        int listGroups;
        String loadData;
        final long[] ends = new long[files.size()];
        final long[] rowsPerFile = new long[files.size()];
        long total;
        long statements;

        Rows(LongConsumer diskBytes) {
            this.diskBytes = diskBytes;
        }

        /** Why the transfer ended early: a reason to load by statements, or {@link Outcome#STOPPED}. */
        volatile Object abort;

        /** Opens the first file and reads up to its first INSERT; returns why the group cannot go on, or null. */
        String start() {
            try {
                if (!nextFile()) {
                    return "its first file holds no rows";
                }
            } catch (Abort | LoadFailure a) {
                return a.getMessage();
            }
            session.addAll(fileSession);
            head = headOf(pending.text());
            if (head == null) {
                return "no VALUES list in its first statement";
            }
            firstOffset = pending.start();
            return null;
        }

        /**
         * Opens the next file and reads its session statements up to its first INSERT ({@link #pending});
         * a file without one is finished here. False when no file is left.
         */
        private boolean nextFile() throws LoadFailure, Abort {
            while (++fileIndex < files.size()) {
                closeQuietly();
                DumpDirectory.DataFile f = files.get(fileIndex);
                try {
                    checked = DumpFileInput.openChecked(f.path(), f.compression(), diskBytes);
                } catch (IOException e) {
                    throw LoadFailure.badFile(0, "cannot read " + f.name() + ": " + e.getMessage(), e);
                }
                lexer = new StatementLexer(checked.text);
                fileSession = new ArrayList<>();
                while (true) {
                    StatementLexer.Statement s = next();
                    if (s == null) {
                        endFile();
                        break;
                    }
                    if (SqlText.kind(s.bytes(), s.from(), s.to()) == SqlText.Kind.DATA) {
                        if (fileIndex > 0 && !fileSession.equals(session)) {
                            throw new Abort("the session statements of " + f.name() + " differ from "
                                    + files.get(0).name() + "'s");
                        }
                        pending = s;
                        return true;
                    }
                    String sql = SqlText.decode(s.bytes(), s.from(), s.to(), null);
                    if (SqlText.kind(sql) == SqlText.Kind.SESSION) {
                        fileSession.add(sql);
                    } else {
                        throw new Abort(f.name() + " holds " + SqlText.head(sql));
                    }
                }
            }
            return false;
        }

        private StatementLexer.Statement next() throws LoadFailure {
            try {
                return lexer.next();
            } catch (StatementLexer.MalformedSqlException e) {
                throw LoadFailure.badFile(e.offset(), files.get(fileIndex).name() + ": " + e.getMessage(), e);
            } catch (IOException e) {
                throw LoadFailure.badFile(lexer.offset(), "the file " + files.get(fileIndex).name()
                        + " cannot be read past byte offset " + lexer.offset() + " (" + DumpFileInput.why(e)
                        + "): it is truncated or corrupt", e);
            }
        }

        /**
         * The current file is read to its end: its bytes and rows must be the ones the dump recorded.
         * A file that differs ends the transfer before anything is committed.
         */
        private void endFile() throws LoadFailure {
            DumpDirectory.DataFile f = files.get(fileIndex);
            long end = lexer.offset();
            ends[fileIndex] = end;
            var recorded = job.recorded.apply(f.name());
            if (recorded != null) {
                try {
                    FileLoader.verifyCrc(recorded, checked.crcToEnd(), end);
                } catch (IOException e) {
                    throw LoadFailure.badFile(end, "cannot read " + f.name() + ": " + e.getMessage(), e);
                } catch (LoadFailure e) {
                    throw LoadFailure.damaged(end, f.name() + ": " + e.getMessage());
                }
            }
            if (recorded != null && rowsPerFile[fileIndex] != recorded.rows()) {
                throw LoadFailure.damaged(end, "the file " + f.name() + " holds " + rowsPerFile[fileIndex]
                        + " rows but the dump wrote " + recorded.rows() + " (" + FileManifest.NAME + ")");
            }
        }

        /** Converts the next INSERT into {@link #out}; false at the end of the group. */
        private boolean fill() throws LoadFailure, Abort {
            out.clear();
            outPos = 0;
            while (out.len == 0) {
                if (job.stopping()) {
                    throw new Abort(null);
                }
                StatementLexer.Statement s = pending;
                pending = null;
                if (s == null) {
                    s = next();
                    if (s == null) {
                        endFile();
                        if (!nextFile()) {
                            return false;
                        }
                        continue;
                    }
                }
                byte[] text = s.bytes(); // valid until the lexer's next statement
                int from = s.from();
                int values = head.length;
                if (s.length() < values || !Arrays.equals(text, from, from + values, head, 0, values)) {
                    String sql = SqlText.decode(s.text());
                    throw new Abort(SqlText.kind(sql) == SqlText.Kind.DATA
                            ? "the statement at byte " + s.start() + " of " + files.get(fileIndex).name()
                                    + " does not start as the first one did"
                            : files.get(fileIndex).name() + " holds " + SqlText.head(sql) + " between its INSERTs");
                }
                int n;
                try {
                    n = TsvRows.append(text, from, from + values, s.to(), columns, out);
                } catch (TsvRows.Unsupported e) {
                    throw new Abort(files.get(fileIndex).name() + " at byte " + s.start() + ": " + e.getMessage());
                }
                if (n + listGroups != s.topLevelGroups()) {
                    throw new Abort(files.get(fileIndex).name() + " at byte " + s.start()
                            + ": the rows of a statement were not all read");
                }
                rowsPerFile[fileIndex] += n;
                total += n;
                statements++;
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            lastRead = System.nanoTime();
            if (abort != null) {
                throw new IOException("the transfer was ended");
            }
            try {
                if (outPos == out.len && !fill()) {
                    sent = true;
                    return -1;
                }
            } catch (Abort a) {
                abort = a.getMessage() == null ? Outcome.STOPPED : a.getMessage();
                throw new IOException("the transfer was ended: " + abort);
            } catch (LoadFailure e) {
                abort = e.getMessage(); // the statements load what precedes the damage and report it
                throw new IOException("the transfer was ended: " + abort);
            }
            int n = Math.min(len, out.len - outPos);
            System.arraycopy(out.buf, outPos, b, off, n);
            outPos += n;
            return n;
        }

        @Override
        public void close() {
            // the driver closes the stream after the transfer; the files are closed by the loader
        }

        /** What the load does after the transfer ended early. */
        Outcome aborted() {
            if (abort == Outcome.STOPPED) {
                return Outcome.STOPPED;
            }
            return fallBack((String) abort);
        }

        void closeQuietly() {
            if (checked != null) {
                LoadJob.closeQuietly(checked.text);
                checked = null;
            }
        }
    }

    /** The bytes of {@code text} up to and including its top-level VALUES keyword; null without one. */
    private static byte[] headOf(byte[] text) {
        // the head is short, and a file's first statement its whole size: the scanner reads the first
        // 2 KiB, then 16, then 64 (a VALUES found must end before what was read: "VALUE" may be cut)
        for (int window = 1 << 11; ; window <<= 3) {
            int n = Math.min(text.length, Math.min(window, 1 << 16));
            // ISO-8859-1 keeps one character per byte, so the index found is a byte index
            int values = InsertRewriter.findValues(new String(text, 0, n, StandardCharsets.ISO_8859_1));
            if (values >= 0 && (values < n || n == text.length)) {
                return Arrays.copyOf(text, values);
            }
            if (n == text.length || n == 1 << 16) {
                return null;
            }
        }
    }

    /** Ends the transfer early; a null message is a stop. */
    private static final class Abort extends Exception {
        private static final long serialVersionUID = 1L;

        Abort(String message) {
            super(message, null, false, false);
        }
    }
}
