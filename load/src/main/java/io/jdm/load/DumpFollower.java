package io.jdm.load;

import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.DumpFeed;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.schema.TableReadCache;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.common.sql.TableName;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of a load that runs while the dump is still being written: each database and table is
 * created when its table's schema file arrives, and each data file is registered in the checkpoint
 * and handed to the workers when it arrives, until the dump says it is complete. The checkpoint
 * rows are the ones a load of the complete directory writes, so what comes after (and any restart)
 * finds these files finished. Views and deferred indexes wait for the complete directory.
 */
final class DumpFollower {
    private static final Logger LOG = LoggerFactory.getLogger(DumpFollower.class);
    private final LoadJob job;
    private final SchemaLoader schema;
    private final DumpFeed feed;
    private final ArrivingFiles files;
    /** Checkpoint rows of the files handed to the workers, by name: the workers' first read. */
    private final Map<String, LoaderCheckpoint.Row> known;
    /** What the dump recorded of each file it announced. */
    private final Map<String, FileManifest.Entry> recorded;
    /** Checkpoint rows an earlier load wrote while following the lock-free dump now resumed. */
    private final Map<String, LoaderCheckpoint.Row> earlier = new HashMap<>();
    private final Map<String, Path> databaseFiles = new HashMap<>();
    private final Set<String> databasesCreated = new HashSet<>();
    private final Set<String> schemasCreated = new HashSet<>();
    private final Set<TableName> sourceTables = new HashSet<>();
    /** Each target table's creation, running or done, by target table. */
    private final Map<TableName, CompletableFuture<Void>> targetTables = new HashMap<>();
    /** Each selected source table's target's creation. */
    private final Map<TableName, CompletableFuture<Void>> created = new HashMap<>();
    /** The indexes each target table this following created was created without, to add at the end. */
    private final Map<TableName, List<SchemaRewriter.Index>> createdTables = new ConcurrentHashMap<>();
    /** What the dump announced of a table whose target is still being created. */
    private final Map<TableName, Held> held = new HashMap<>();
    /**
     * The source tables whose target's creation ended (or failed) since {@link #release} last ran: it
     * takes those, not every held table again (10,000 tables held while created cost a pass over all
     * of them for each batch the dump announced).
     */
    private final java.util.Queue<TableName> createdSince = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final ExecutorService creators;
    /** The target's tables as the first table's creation found them, before the load created any. */
    private PriorRows.Listing priorTables;
    /** {@link #sourceSizes}, by schema, once read. */
    private final Map<String, Map<String, Long>> sourceSizes = new HashMap<>();
    /** The target connection of each creator thread, closed when the following ends. */
    private final List<LoadJob.Session> sessions = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ThreadLocal<LoadJob.Session> session;
    /**
     * Threads creating target tables as their schema files arrive. Across a network a table's
     * creation is round trips (its CREATE TABLE, the reads after it): the bench's 1,000 tables behind
     * a 1 ms proxy took 23.6 s with two and 18.2 s with four (medians of 3). On loopback a MariaDB
     * target spends more CPU with four, a CREATE TABLE holding the data dictionary latch that the
     * workers' LOAD DATA takes too: 1,000 tables of 100 rows, 5 pairs alternating, took 11.7 s with
     * four and 10.0 s with two (medians); at 10,000 tables of 100 rows, or 1,000 of 1,000, the two
     * were within noise of each other.
     */
    static final int CREATORS = 4;
    /**
     * A target whose round trip takes less than this shares the machine, or nearly: there the loads
     * wait while a table is being created ({@link #holdLoadsWhileCreating}).
     */
    static final long NEAR_MICROS = 1000;
    /** How often the files of the tables created meanwhile go to the workers while creations are awaited. */
    private static final long RELEASE_EVERY_MS = 20;

    /** A table's data files, and whether its last one came, while its target is being created. */
    private static final class Held {
        final List<DumpDirectory.DataFile> files = new ArrayList<>();
        boolean written;
    }

    DumpFollower(LoadJob job, SchemaLoader schema, DumpFeed feed, ArrivingFiles files,
                 Map<String, LoaderCheckpoint.Row> known, Map<String, FileManifest.Entry> recorded) {
        this.job = job;
        this.schema = schema;
        this.feed = feed;
        this.files = files;
        this.known = known;
        this.recorded = recorded;
        this.session = ThreadLocal.withInitial(() -> {
            LoadJob.Session s = job.new Session();
            sessions.add(s);
            return s;
        });
        this.creators = Executors.newFixedThreadPool(Math.max(1, Math.min(job.config.poolSize(), CREATORS)),
                new NamedThreadFactory(job.config.task(), "load", "create"));
    }

    /**
     * Follows the dump until it is complete.
     *
     * @return the dump's metadata; null when the job stopped first
     */
    DumpMetadata follow() throws InterruptedException {
        try {
            startFromNothing();
            holdLoadsWhileCreating();
            while (!job.stopping()) {
                List<DumpDirectory.DataFile> arrived = new ArrayList<>();
                for (DumpFeed.Event e : feed.take(200, TimeUnit.MILLISECONDS)) {
                    if (e instanceof DumpFeed.DataFile f) {
                        dataFile(f.entry(), arrived);
                    } else if (e instanceof DumpFeed.SchemaFile f) {
                        handOut(arrived); // the files announced before it go to the workers first
                        schemaFile(f.name());
                    } else if (e instanceof DumpFeed.TableWritten t) {
                        handOut(arrived); // its files first
                        tableWritten(t.table());
                    } else if (e instanceof DumpFeed.Complete c) {
                        handOut(arrived);
                        awaitCreations();
                        return c.metadata();
                    }
                }
                handOut(arrived);
                release();
            }
            return null;
        } finally {
            creators.shutdownNow();
            creators.awaitTermination(1, TimeUnit.MINUTES);
            sessions.forEach(LoadJob.Session::close);
        }
    }

    /**
     * Decides whether the loads wait while a target table is being created, as the load of a
     * complete dump creates every table before it loads any. They do where the target answers
     * within {@value #NEAR_MICROS} microseconds and is not TiDB. There a creation is the target's
     * own work, little of it waiting on the network, and beside the LOAD DATA it costs both more:
     * the CREATE TABLE takes the data dictionary latch the loads need, on cores the loads use
     * ({@code jdm run} of 1,000 tables of 100 rows, two MariaDB servers on one machine, 4 rounds
     * alternating: 8.9 s holding the loads against 14.3 s creating beside them; {@code jdm dump} then
     * {@code jdm load} 8.6 s; the target behind a proxy adding 0.1 ms each way, answering in 0.7 ms:
     * 11.3 s against 12.5 s). Across a network a creation is mostly round trips, and the loads
     * beside it hide them (the same with the target behind a 1 ms proxy: 15.3 s holding against
     * 13.5 s); on TiDB every CREATE TABLE waits for its schema change to spread to the cluster,
     * wherever it is.
     */
    private void holdLoadsWhileCreating() {
        if (job.tidb()) {
            LOG.info("{}: the target is TiDB: tables are created beside the loads", job.who());
            return;
        }
        long nanos = job.withRetry("timing a round trip to the target", c -> {
            long best = Long.MAX_VALUE;
            try (java.sql.Statement st = c.createStatement()) {
                for (int i = 0; i < 10; i++) {
                    long t0 = System.nanoTime();
                    try (java.sql.ResultSet rs = st.executeQuery("SELECT 1")) {
                        rs.next();
                    }
                    best = Math.min(best, System.nanoTime() - t0);
                }
            }
            return best;
        });
        boolean hold = holdsLoads(false, nanos);
        LOG.info("{}: the target answers in {} ms: {}", job.who(), String.format("%.2f", nanos / 1e6), hold
                ? "the loads wait while a table is being created" : "tables are created beside the loads");
        if (hold) {
            files.holdWhileCreating();
        }
    }

    /** Whether the loads wait while a table is being created, on a target whose fastest round trip took {@code nanos}. */
    static boolean holdsLoads(boolean tidb, long nanos) {
        return !tidb && nanos < NEAR_MICROS * 1000;
    }

    /**
     * The target tables this following created, each with the indexes it was created without: the
     * load of the complete directory does not create them again.
     */
    Map<TableName, List<SchemaRewriter.Index>> createdTables() {
        return createdTables;
    }

    /**
     * Waits for the creation of every target table, handing each table's files to the workers as
     * soon as it is created, not once all are: a dump far ahead of the load completes while many
     * tables are still being created, and across a network the workers would idle until the last
     * one is (1,000 tables of 100 rows, the target behind a 1 ms proxy: 13.5-13.7 s against 10.7 s
     * when the dump, held at 40 files, completed only as the load did).
     */
    private void awaitCreations() throws InterruptedException {
        for (CompletableFuture<Void> f : targetTables.values()) {
            while (!f.isDone()) {
                release();
                try {
                    f.get(RELEASE_EVERY_MS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // not created yet: hand out those that are; a failure is thrown by await below
                }
            }
            await(f);
        }
        release();
    }

    /** Waits for a table's creation; its failure is the load's. */
    private static void await(CompletableFuture<Void> f) throws InterruptedException {
        try {
            f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof JdmException j) {
                throw j;
            }
            throw new FatalException("creating a table failed: " + e.getCause(), e.getCause());
        }
    }

    private void tableWritten(TableName table) {
        Held h = held.get(table);
        if (h != null) {
            h.written = true;
        } else {
            files.tableWritten(table);
        }
    }

    /**
     * Hands out the files (and last-file notices) of the tables whose targets are now created: the
     * files of all of them registered in the checkpoint together, in one statement and commit (one a
     * table cost a schema of small tables two round trips each on this one thread), then given to the
     * workers table by table, each table's notice right after its files, as they were announced.
     */
    private void release() throws InterruptedException {
        List<TableName> tables = new ArrayList<>();
        List<DumpDirectory.DataFile> all = new ArrayList<>();
        for (TableName source = createdSince.poll(); source != null; source = createdSince.poll()) {
            await(created.get(source));
            tables.add(source);
            all.addAll(held.get(source).files);
        }
        Set<String> registered = register(all);
        for (TableName source : tables) {
            Held h = held.remove(source);
            give(h.files, registered);
            if (h.written) {
                files.tableWritten(source);
            }
        }
    }

    /**
     * The checkpoint of this source must be empty: a file name of the new dump may be the name of
     * a file an earlier dump wrote, and its row would be taken for this file's. Rows of tables still
     * without their deferred indexes stay, and say which to defer again. Except after a
     * lock-free dump that resumes: the files its finished chunks kept are the files those rows
     * describe, and the dump announces them again; they go on from their rows.
     */
    private void startFromNothing() {
        Map<String, LoaderCheckpoint.Row> rows = job.withRetry("reading the checkpoint", c -> {
            job.checkpoint.ensureTable(c);
            return job.checkpoint.readAll(c);
        });
        schema.recallDeferred(rows.values());
        rows.values().removeIf(r -> LoaderCheckpoint.deferredTable(r.file()) != null); // tables', not files'
        if (rows.isEmpty()) {
            return;
        }
        if (ChunkPlan.existsIn(job.config.dir())) {
            earlier.putAll(rows);
            LOG.info("{}: following a resumed lock-free dump; {} files loaded (in part or whole) from its finished"
                    + " chunks go on from the checkpoint", job.who(), rows.size());
            return;
        }
        throw new FatalException(job.who() + ": the loader checkpoint " + job.checkpoint.table() + " holds "
                + rows.size() + " rows of an earlier load of this source, which cannot follow a new dump; undo that"
                + " load (empty its target tables, delete the source's checkpoint rows) or load the complete dump");
    }

    private void schemaFile(String name) {
        DumpFileNames.Parsed p = DumpDirectory.parse(name, DumpFileNames.Escaping.PERCENT);
        if (p == null) {
            throw new FatalException(job.who() + ": the dump announced " + name + ", which is not a schema file name");
        }
        Path path = job.config.dir().resolve(name);
        if (p.kind() == DumpFileNames.Kind.DATABASE) {
            databaseFiles.put(p.schema(), path); // created with its first selected table
            return;
        }
        TableName source = new TableName(p.schema(), p.table());
        if (p.kind() != DumpFileNames.Kind.TABLE || !job.config.tableFilter().test(p.schema(), p.table())
                || !sourceTables.add(source)) {
            return;
        }
        TableName target = job.config.router().apply(source);
        Path db = databasesCreated.contains(p.schema()) ? null : databaseFiles.get(p.schema());
        boolean newSchema = !schemasCreated.contains(target.schema());
        if (db != null || newSchema) {
            job.withRetry("creating the database of " + SchemaLoader.describe(source, target), c -> {
                if (db != null) {
                    schema.createDatabase(c, p.schema(), db);
                }
                if (newSchema) {
                    schema.createSchema(c, target.schema());
                }
                return null;
            });
            databasesCreated.add(p.schema());
            schemasCreated.add(target.schema());
        }
        // merged: the first source table routed here creates it, the others wait for that
        CompletableFuture<Void> creation = targetTables.computeIfAbsent(target, t -> creating(() -> {
            session.get().withRetry("creating " + SchemaLoader.describe(source, target), c -> {
                PriorRows.require(job, c, List.of(target), priorTables(c));
                createdTables.put(target, schema.createTable(c, new DumpDirectory.SchemaFile(source, path),
                        sourceBytes(source)));
                // read here, beside the dump, what the workers read of a table before its first file, so
                // that they do not: a schema's tables are created one by one, after the one read of it whole
                job.engines.warm(c, target);
                job.schemas.warm(c, target); // withRetry commits the reads
                return null;
            });
            job.metrics.tableArrived();
        }));
        created.put(source, creation);
        held.put(source, new Held());
        creation.whenComplete((v, e) -> createdSince.add(source));
    }

    /** Runs a table's creation on a creator thread, the loads told while it runs. */
    private CompletableFuture<Void> creating(Runnable creation) {
        files.creationBegan();
        try {
            CompletableFuture<Void> f = CompletableFuture.runAsync(creation, creators);
            f.whenComplete((v, e) -> files.creationEnded());
            return f;
        } catch (RuntimeException e) {
            files.creationEnded();
            throw e;
        }
    }

    /**
     * The target's tables before this load created any, listed once: the tables it creates are its
     * own, and listing them all again for each new one grew with the square of their number.
     */
    private synchronized PriorRows.Listing priorTables(Connection c) throws SQLException {
        if (priorTables == null) {
            priorTables = PriorRows.listing(c);
        }
        return priorTables;
    }

    /**
     * The size that decides whether a table's statistics are paused while it fills and whether its
     * indexes are deferred: its dump's size is not known while the dump is being written, so the
     * source's own estimate of its bytes stands for it. Negative when the source cannot be asked.
     */
    private long sourceBytes(TableName source) {
        Map<String, Long> sizes = sourceSizes(source.schema());
        Long bytes = sizes == null ? null : sizes.get(source.table());
        return bytes == null ? -1 : bytes;
    }

    /**
     * The source's DATA_LENGTH of every table of {@code schema}, asked once a schema: asking for every
     * table of the server made it open the definitions of every other schema's tables too. From the
     * {@value TableReadCache#WHOLE_AFTER}th schema on, the rest of the server is read at once (a
     * schema per tenant would otherwise cost a connection and a statement each). Null when the load
     * does not know the source.
     */
    private synchronized Map<String, Long> sourceSizes(String schema) {
        if (job.config.source() == null) {
            return null;
        }
        Map<String, Long> known = sourceSizes.get(schema);
        if (known != null) {
            return known;
        }
        boolean whole = sourceSizes.size() + 1 >= TableReadCache.WHOLE_AFTER;
        String sql = "SELECT TABLE_SCHEMA, TABLE_NAME, DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_TYPE ="
                + " 'BASE TABLE' AND " + (whole ? "TABLE_SCHEMA NOT IN ('mysql', 'sys', 'information_schema',"
                + " 'performance_schema')" : "TABLE_SCHEMA = ?");
        try (java.sql.Connection c = io.jdm.common.jdbc.DataSources.connect(job.config.source());
             java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
            if (!whole) {
                ps.setString(1, schema);
            }
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sourceSizes.computeIfAbsent(rs.getString(1), k -> new HashMap<>()).put(rs.getString(2), rs.getLong(3));
                }
            }
        } catch (java.sql.SQLException e) {
            LOG.debug("{}: the source's table sizes cannot be read ({}); every table's statistics pause",
                    job.who(), e.getMessage());
        }
        return sourceSizes.computeIfAbsent(schema, k -> new HashMap<>());
    }

    private void dataFile(FileManifest.Entry entry, List<DumpDirectory.DataFile> arrived) {
        DumpFileNames.Parsed p = DumpDirectory.parse(entry.name(), DumpFileNames.Escaping.PERCENT);
        if (p == null || p.kind() != DumpFileNames.Kind.DATA) {
            throw new FatalException(job.who() + ": the dump announced " + entry.name()
                    + ", which is not a data file name");
        }
        if (!job.config.tableFilter().test(p.schema(), p.table())) {
            feed.fileLoaded(entry.name()); // not this load's: nothing holds the dump back for it
            return;
        }
        TableName source = new TableName(p.schema(), p.table());
        if (!sourceTables.contains(source)) {
            throw new FatalException(job.who() + ": the dump announced data file " + entry.name()
                    + " before the schema of " + source.quoted() + "; rerun the task");
        }
        recorded.put(entry.name(), entry);
        DumpDirectory.DataFile f = new DumpDirectory.DataFile(source, entry.name(),
                job.config.dir().resolve(entry.name()), p.index(), p.compression(), entry.size());
        Held h = held.get(source);
        if (h != null) {
            h.files.add(f); // its target is still being created
        } else {
            arrived.add(f);
        }
    }

    /**
     * Registers the arrived files in the checkpoint, then gives them to the workers; a file an
     * earlier load of a resumed dump finished is passed by, one it began goes on from its row.
     */
    private void handOut(List<DumpDirectory.DataFile> arrived) {
        if (arrived.isEmpty()) {
            return;
        }
        give(arrived, register(arrived));
        arrived.clear();
    }

    /**
     * Registers in the checkpoint, in one statement, those of {@code arrived} an earlier load of a
     * resumed dump did not finish (a finished one is counted loaded); the names of those registered.
     */
    private Set<String> register(List<DumpDirectory.DataFile> arrived) {
        Set<String> todo = new HashSet<>();
        List<LoaderCheckpoint.Row> rows = new ArrayList<>();
        for (DumpDirectory.DataFile f : arrived) {
            LoaderCheckpoint.Row before = earlier.get(f.name());
            if (before != null && before.finished()) {
                feed.fileLoaded(f.name());
                continue;
            }
            todo.add(f.name());
            rows.add(before != null ? before : new LoaderCheckpoint.Row(f.name(), 0,
                    f.compression().isEmpty() ? f.size() : 0, LoaderCheckpoint.PENDING));
        }
        if (!rows.isEmpty()) {
            job.withRetry("registering files in the checkpoint", c -> {
                job.checkpoint.register(c, rows); // INSERT IGNORE: an earlier row stays as it is
                return null;
            });
            rows.forEach(r -> known.put(r.file(), r));
        }
        return todo;
    }

    /** Gives the workers those of {@code arrived} that {@link #register} registered, in order. */
    private void give(List<DumpDirectory.DataFile> arrived, Set<String> registered) {
        for (DumpDirectory.DataFile f : arrived) {
            if (registered.contains(f.name())) {
                job.metrics.arrived(f.size());
                files.add(f);
            }
        }
    }
}
