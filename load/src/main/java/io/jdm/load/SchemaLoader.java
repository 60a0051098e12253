package io.jdm.load;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.MySqlOnlyAttributes;
import io.jdm.common.sql.TableName;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs the schema files of a dump on the target: databases, then tables (routed; a merged target
 * table is created by the first of its sources), and after the data the deferred indexes and the
 * views. Every step is idempotent, so a rerun after a crash repeats it harmlessly.
 */
final class SchemaLoader {
    /** Handles one non-session statement of a schema file. */
    private interface Handler {
        void handle(Statement st, String sql) throws SQLException;
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SchemaLoader.class);
    private final LoadJob job;
    /** Whether the target is MariaDB, once asked. */
    private volatile Boolean mariadb;
    /**
     * The dump bytes from which a table's statistics are paused while it fills: below, its LOAD
     * DATA is over in well under a second and the statistics thread has no time to spin, while the
     * pause costs the target two more DDLs and an ANALYZE per table (a schema-per-tenant dump of
     * thousands of small tables).
     */
    static final long PAUSE_FROM_BYTES = 32L << 20;
    /** {@link #PAUSE_FROM_BYTES}, lowered by tests that load a few rows. */
    static volatile long pauseFromBytes = PAUSE_FROM_BYTES;
    /**
     * The bytes from which {@code defer-indexes: auto} adds a table's secondary indexes after its
     * rows. Measured with whole {@code jdm run} processes of sysbench tables, on servers with a 1 GB
     * and a 256 MB buffer pool ({@code docs/benchmarks.md}, "Deferred indexes, by table size"): tables
     * of 190 KB took 12-13 % longer deferred, of 1.9 MB about as long, of 19 MB 9-17 % less, of 380
     * MB 7-29 % less.
     */
    static final long DEFER_FROM_BYTES = 16L << 20;
    /** {@link #DEFER_FROM_BYTES}, lowered by tests that load a few rows. */
    static volatile long deferFromBytes = DEFER_FROM_BYTES;
    /** The target tables whose deferred indexes the checkpoint holds a row for ({@link #recallDeferred}). */
    private volatile Set<TableName> deferredBefore = Set.of();
    /** {@link #tablesBefore}, by schema. */
    private final Map<String, Set<String>> before = new ConcurrentHashMap<>();
    /**
     * The session each connection's schema files left, as a data file's ({@link FileLoader.Session}):
     * the two statements every table's file starts with cost their round trips once a connection, not
     * once a table (across a network, two round trips of each table's creation).
     */
    private final Map<Connection, FileLoader.Session> sessions =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    SchemaLoader(LoadJob job) {
        this.job = job;
    }

    /** A MariaDB target takes MySQL 8's table attributes under its own names ({@link MySqlOnlyAttributes}). */
    private boolean isMariadb(Connection c) throws SQLException {
        if (mariadb == null) {
            mariadb = Flavor.detect(c) == Flavor.MARIADB;
        }
        return mariadb;
    }

    /**
     * Creates the databases and target schemas of a dump directory and notes the tables already
     * there; returns the table schema files to run, one per target table (a merged target table
     * is created by the first source table routed to it; one its route adds columns to must exist).
     * A target table the load would write rows into a second time ({@link PriorRows}) stops it
     * first, before anything is created.
     */
    List<DumpDirectory.SchemaFile> createDatabases(Connection c, DumpDirectory dump) throws SQLException {
        Set<TableName> targets = new LinkedHashSet<>();
        dump.tables().forEach(t -> targets.add(job.config.router().apply(t.source())));
        PriorRows.require(job, c, targets);
        isMariadb(c);
        for (Map.Entry<String, Path> db : dump.databases().entrySet()) {
            createDatabase(c, db.getKey(), db.getValue());
        }
        Set<String> schemas = new LinkedHashSet<>();
        dump.tables().forEach(t -> schemas.add(job.config.router().apply(t.source()).schema()));
        dump.views().forEach(t -> schemas.add(job.config.router().apply(t.source()).schema()));
        for (String s : schemas) {
            createSchema(c, s);
        }
        List<DumpDirectory.SchemaFile> toCreate = new ArrayList<>();
        Set<TableName> created = new HashSet<>();
        for (DumpDirectory.SchemaFile t : dump.tables()) {
            TableName target = job.config.router().apply(t.source());
            if (!created.add(target)) {
                continue; // merged: the first source table routed here created it
            }
            ExtraColumns extra = job.config.extraColumns().apply(t.source());
            if (!extra.isEmpty()) {
                requireExtraColumns(c, target, extra);
                continue;
            }
            toCreate.add(t);
        }
        return toCreate;
    }

    /**
     * Creates {@code tables} ({@link #createDatabases}) on several connections at once: each is a
     * statement or two the target commits to disk, and a schema-per-tenant dump has thousands.
     *
     * @return the secondary indexes deferred per target table, in the order of {@code tables}
     */
    Map<TableName, List<SchemaRewriter.Index>> createTables(List<DumpDirectory.SchemaFile> tables,
                                                            List<DumpDirectory.DataFile> data) {
        return createTables(tables, data, Map.of());
    }

    /**
     * As {@link #createTables(List, List)}, but a target table in {@code created} (by this load, as
     * it followed the dump) is not created again: its indexes to add are the ones given there.
     */
    Map<TableName, List<SchemaRewriter.Index>> createTables(List<DumpDirectory.SchemaFile> tables,
                                                            List<DumpDirectory.DataFile> data,
                                                            Map<TableName, List<SchemaRewriter.Index>> created) {
        Map<TableName, Long> bytes = new HashMap<>();
        for (DumpDirectory.DataFile f : data) {
            // a compressed file holds some times its size in rows: counted as 4 times, on the safe side
            bytes.merge(job.config.router().apply(f.source()), f.compression().isEmpty() ? f.size() : 4 * f.size(),
                    Long::sum);
        }
        Map<TableName, List<SchemaRewriter.Index>> found = new ConcurrentHashMap<>();
        created.forEach((target, indexes) -> {
            if (!indexes.isEmpty()) {
                found.put(target, indexes);
            }
        });
        List<DumpDirectory.SchemaFile> toCreate = tables.stream()
                .filter(t -> !created.containsKey(job.config.router().apply(t.source()))).toList();
        job.inParallel(toCreate, t -> "creating " + describe(t.source(), job.config.router().apply(t.source())),
                (c, t) -> {
                    TableName target = job.config.router().apply(t.source());
                    List<SchemaRewriter.Index> indexes = createTable(c, t, bytes.getOrDefault(target, 0L));
                    if (!indexes.isEmpty()) {
                        found.put(target, indexes);
                    }
                });
        Map<TableName, List<SchemaRewriter.Index>> deferred = new LinkedHashMap<>();
        for (DumpDirectory.SchemaFile t : tables) {
            TableName target = job.config.router().apply(t.source());
            if (found.containsKey(target)) {
                deferred.put(target, found.get(target));
            }
        }
        return deferred;
    }

    /** Whether {@code target} was not there when this load first looked ({@link #tablesBefore}). */
    private boolean isNew(Connection c, TableName target) throws SQLException {
        return !tablesBefore(c, target.schema()).contains(target.table().toLowerCase(Locale.ROOT));
    }

    /**
     * The lower-cased names of the tables {@code schema} held when this load first looked, read
     * once: a table found there is the user's (or an earlier run's) and is left as it is.
     */
    private Set<String> tablesBefore(Connection c, String schema) throws SQLException {
        Set<String> names = before.get(schema);
        if (names != null) {
            return names;
        }
        Set<String> read = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    read.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        before.put(schema, read);
        return read;
    }

    /**
     * A target table its route adds columns to is the user's, as DM requires: it must be there with
     * those columns (part of its primary key, so that shards' keys do not collide), and is not created.
     */
    private static void requireExtraColumns(Connection c, TableName target, ExtraColumns extra) throws SQLException {
        TableSchema s;
        try {
            s = SchemaReader.read(c, target);
        } catch (SQLException e) {
            if (!ErrorClassifier.isNoSuchTable(e)) {
                throw e;
            }
            s = null;
        }
        TableSchema found = s;
        List<String> missing = extra.names().stream()
                .filter(n -> found == null || found.column(n).isEmpty())
                .toList();
        if (!missing.isEmpty()) {
            throw new FatalException("load: target table " + target + (s == null ? " does not exist" : " has no column "
                    + String.join(", ", missing)) + ", which its route adds (extract-table, extract-schema, "
                    + "extract-source); create it with " + String.join(", ", extra.names())
                    + " in its primary key before the task, as for DM");
        }
    }

    /** Runs a {@code {db}-schema-create.sql} file under the database's routed name. */
    void createDatabase(Connection c, String db, Path file) throws SQLException {
        String target = job.config.routeSchema(db);
        if (schemaExists(c, target)) {
            return;
        }
        runFile(c, file, "database " + Identifiers.quote(db), (st, sql) -> {
            if (!new SqlCursor(sql).keyword("CREATE")) {
                throw new SQLException("unexpected statement " + SqlText.head(sql), "42000");
            }
            st.execute(SchemaRewriter.createDatabase(sql, target));
        });
    }

    /**
     * A target database a routed table or view lands in, created with the target's defaults if
     * missing; the tables it already holds are noted ({@link #tablesBefore}) before any is created.
     */
    void createSchema(Connection c, String targetSchema) throws SQLException {
        if (!schemaExists(c, targetSchema)) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(targetSchema));
            }
        }
        tablesBefore(c, targetSchema);
    }

    /**
     * Whether the target holds {@code schema}: one that does is not created again, not even with IF
     * NOT EXISTS, which does nothing there but, on MySQL 8.0, waits first for the schema's metadata
     * lock, and so for any open transaction that wrote one of its tables (until lock_wait_timeout,
     * a year by default: the load would hang without a word). The name must match exactly (MariaDB
     * compares it there without case, where {@code Foo} and {@code foo} may be two databases); where
     * the target keeps names in lower case, {@code Foo} is not found and is created as before.
     */
    private static boolean schemaExists(Connection c, String schema) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (schema.equals(rs.getString(1))) {
                        return true;
                    }
                }
                return false;
            }
        }
    }

    /**
     * Runs a table's schema file under its routed name; returns the secondary indexes it deferred.
     * A table this creates on a target where {@link LoadJob#pausesStatistics()} gets
     * {@code STATS_AUTO_RECALC = 0} until its rows are in ({@link #resumeStatistics}), unless its
     * definition sets that option itself; the checkpoint records it first, so a load that stops in
     * between gives the table its statistics back when it is run again. A table that was already
     * there is left as it is. Foreign key checks are off while it runs, as the files mydumper writes
     * say and jdm's since they say it too, so that a table whose foreign key names one that sorts
     * after it is created all the same (the load checks no key of rows it copies either).
     *
     * <p>{@code bytes} is the table's size, negative when not known. Below {@link #PAUSE_FROM_BYTES}
     * its statistics are left on. Its secondary indexes are deferred as {@code defer-indexes} says for
     * that size, or where the checkpoint says an earlier run of this load deferred them
     * ({@link #recallDeferred}), whatever the task file says now: the checkpoint records that before
     * the table is created, so no table is left without them.
     */
    List<SchemaRewriter.Index> createTable(Connection c, DumpDirectory.SchemaFile t, long bytes)
            throws SQLException {
        String checks = "0";
        if (!job.foreignKeyChecksOff()) {
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT @@SESSION.foreign_key_checks")) {
                rs.next();
                checks = rs.getBoolean(1) ? "1" : "0"; // set back as a literal, which every target takes
            }
        }
        try (Statement st = c.createStatement()) {
            if (!"0".equals(checks)) {
                session(c).forget();
                st.execute("SET SESSION foreign_key_checks = 0");
            }
            try {
                return create(c, t, bytes);
            } finally {
                if (!"0".equals(checks)) {
                    session(c).forget();
                    st.execute("SET SESSION foreign_key_checks = " + checks);
                }
            }
        }
    }

    private List<SchemaRewriter.Index> create(Connection c, DumpDirectory.SchemaFile t, long bytes)
            throws SQLException {
        TableName target = job.config.router().apply(t.source());
        boolean mayPause = bytes < 0 || bytes >= pauseFromBytes;
        List<SchemaRewriter.Index> deferred = new ArrayList<>();
        boolean mariadb = isMariadb(c);
        runFile(c, t.path(), "table " + describe(t.source(), target), (st, text) -> {
            String sql = text;
            if (mariadb) {
                MySqlOnlyAttributes.Rewrite r = MySqlOnlyAttributes.forMariadb(text);
                r.changes().forEach(ch -> LOG.info("load: table {}: {}", target, ch));
                sql = r.sql();
            }
            boolean pause = mayPause && job.pausesStatistics()
                    && !sql.toUpperCase(Locale.ROOT).contains("STATS_AUTO_RECALC") && isNew(c, target);
            // a table that was there is the user's, or an earlier run's that recorded what it deferred
            boolean defer = deferredBefore.contains(target)
                    || job.config.deferIndexes().defers(bytes, deferFromBytes) && isNew(c, target);
            SchemaRewriter.TableDdl ddl = SchemaRewriter.createTable(sql, target, defer,
                    pause ? "STATS_AUTO_RECALC=0" : null);
            if (pause) {
                job.checkpoint.advance(c, LoaderCheckpoint.statsKey(target), 0, 0, LoaderCheckpoint.PENDING, 0);
            }
            if (!ddl.deferred().isEmpty() && !deferredBefore.contains(target)) {
                job.checkpoint.advance(c, LoaderCheckpoint.indexKey(target), 0, 0, LoaderCheckpoint.PENDING, 0);
            }
            st.execute(ddl.create()); // its implicit commit commits the checkpoint's rows first
            if (pause && !ddl.optionAdded()) {
                st.execute("ALTER TABLE " + target.quoted() + " STATS_AUTO_RECALC = 0");
            }
            deferred.addAll(ddl.deferred());
        });
        return deferred;
    }

    /**
     * Gives a table whose statistics {@link #createTable} paused its automatic statistics back (the
     * option as its definition had it: absent) and computes them for the rows now in it, then marks
     * that done in the checkpoint.
     */
    void resumeStatistics(Connection c, TableName table) throws SQLException {
        String options = createOptions(c, table);
        if (options != null && options.toLowerCase(Locale.ROOT).contains("stats_auto_recalc=0")) {
            try (Statement st = c.createStatement()) {
                st.execute("ALTER TABLE " + table.quoted() + " STATS_AUTO_RECALC = DEFAULT");
                st.execute("ANALYZE TABLE " + table.quoted());
            }
        }
        job.checkpoint.advance(c, LoaderCheckpoint.statsKey(table), 0, 0, LoaderCheckpoint.FINISHED, 0);
    }

    /** The table's {@code CREATE_OPTIONS} ("" when none), or null when there is no such table. */
    private static String createOptions(Connection c, TableName table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT CREATE_OPTIONS FROM information_schema.TABLES "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                String o = rs.getString(1);
                return o == null ? "" : o;
            }
        }
    }

    /**
     * Takes from the checkpoint's {@code rows} which target tables an earlier run created without the
     * secondary indexes they are still to get ({@link LoaderCheckpoint#indexesPending}), so that
     * {@link #createTable} defers the same ones again, whatever the task file says now.
     */
    void recallDeferred(Collection<LoaderCheckpoint.Row> rows) {
        Set<TableName> tables = new HashSet<>();
        for (LoaderCheckpoint.Row r : rows) {
            if (LoaderCheckpoint.indexesPending(r)) {
                tables.add(LoaderCheckpoint.deferredTable(r.file()));
            }
        }
        deferredBefore = Set.copyOf(tables);
    }

    /** Adds the deferred indexes the target table does not have yet (a crash may have added some). */
    void addIndexes(Connection c, TableName table, List<SchemaRewriter.Index> indexes) throws SQLException {
        Set<String> existing = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT INDEX_NAME FROM information_schema.STATISTICS "
                + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, table.schema());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    existing.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        List<SchemaRewriter.Index> missing = new ArrayList<>();
        for (SchemaRewriter.Index i : indexes) {
            if (!existing.contains(i.name().toLowerCase(Locale.ROOT))) {
                missing.add(i);
            }
        }
        if (!missing.isEmpty()) {
            try (Statement st = c.createStatement()) {
                st.execute(SchemaRewriter.addIndexes(table, missing));
            } catch (SQLException e) {
                if (ErrorClassifier.isRetriable(e)) {
                    throw e;
                }
                throw new FatalException(job.who() + ": target refused the deferred indexes of " + table.quoted() + ": "
                        + ErrorClassifier.oneLine(e) + "; add them by hand or rerun without defer-indexes", e);
            }
        }
        job.checkpoint.advance(c, LoaderCheckpoint.indexKey(table), 0, 0, LoaderCheckpoint.FINISHED, 0);
    }

    /** Creates the views of a dump directory, in the routed schema of each, without the source's DEFINER. */
    void createViews(Connection c, DumpDirectory dump) throws SQLException {
        for (DumpDirectory.SchemaFile v : dump.views()) {
            String schema = job.config.router().apply(v.source()).schema();
            try (Statement st = c.createStatement()) {
                st.execute("USE " + Identifiers.quote(schema));
            }
            runFile(c, v.path(), "view " + v.source().quoted(), (st, sql) -> {
                String word = new SqlCursor(sql).peekWord();
                if (word.equals("DROP")) {
                    st.execute(sql);
                } else if (word.equals("CREATE")) {
                    st.execute(SchemaRewriter.withoutDefiner(sql));
                } else {
                    throw new SQLException("unexpected statement " + SqlText.head(sql), "42000");
                }
            });
        }
    }

    /** What {@code c}'s session holds of the files run on it. */
    private FileLoader.Session session(Connection c) {
        return sessions.computeIfAbsent(c, k -> new FileLoader.Session(job.sqlMode()));
    }

    /**
     * Runs a schema file: its session statements as a data file's ({@link FileLoader.Session}: those
     * the file before on the connection left in place are not sent again), the rest through
     * {@code handler}.
     */
    private void runFile(Connection c, Path file, String what, Handler handler) throws SQLException {
        String name = file.getFileName().toString();
        try (Statement st = c.createStatement(); InputStream in = DumpFileInput.open(file, compression(name), n -> { })) {
            FileNames names = new FileNames(); // as the data files' statements
            FileLoader.Session session = session(c);
            session.startFile(st);
            StatementLexer lexer = new StatementLexer(in);
            StatementLexer.Statement s;
            while ((s = lexer.next()) != null) {
                String sql = SqlText.decode(s.text());
                try {
                    String set = names.before(sql);
                    if (set != null) {
                        session.run(st, set);
                    }
                    if (SqlText.kind(sql) == SqlText.Kind.SESSION) {
                        session.run(st, sql);
                    } else {
                        session.settle(st);
                        handler.handle(st, sql);
                    }
                } catch (SQLException e) {
                    if (ErrorClassifier.isRetriable(e)) {
                        throw e;
                    }
                    throw refused(what, name, s.start(), ErrorClassifier.oneLine(e), e);
                } catch (IllegalArgumentException e) {
                    throw refused(what, name, s.start(), e.getMessage(), e);
                }
            }
            session.settle(st);
        } catch (StatementLexer.MalformedSqlException e) {
            throw new FatalException(job.who() + ": " + what + ", file " + name + " at byte offset " + e.offset() + ": "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new FatalException(job.who() + ": " + what + ", file " + name + ": cannot be read: "
                    + DumpFileInput.why(e) + "; the dump is damaged, dump again", e);
        }
    }

    private FatalException refused(String what, String file, long offset, String reason, Throwable cause) {
        return new FatalException(job.who() + ": target refused " + what + " (file " + file + " at byte offset "
                + offset + "): " + reason + "; fix the schema file or create it on the target by hand, then rerun "
                + "(the checkpoint is intact)", cause);
    }

    static String describe(TableName source, TableName target) {
        return source.equals(target) ? target.quoted() : source.quoted() + " -> " + target.quoted();
    }

    static String compression(String fileName) {
        return fileName.endsWith(".gz") ? ".gz" : fileName.endsWith(".zst") ? ".zst" : "";
    }
}
