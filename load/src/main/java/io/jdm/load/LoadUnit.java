package io.jdm.load;

import io.jdm.common.config.Consistency;
import io.jdm.common.dumpdir.DumpFeed;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.dumpdir.OwnerOnly;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.TidbSession;
import io.jdm.common.metrics.ProgressLogger;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a dump directory into the target: schemas, then data files on {@code pool-size}
 * connections with exact resume, then deferred indexes and views. Rerunning after any failure or
 * a kill continues where the target's checkpoint says the last run stopped.
 */
public final class LoadUnit {
    private static final Logger LOG = LoggerFactory.getLogger(LoadUnit.class);
    private static final long PROGRESS_SECONDS = 10;

    private final LoadConfig config;
    private final LoadMetrics metrics;
    private final LoadJob job;
    private final AtomicBoolean started = new AtomicBoolean();
    private int skipped;
    /** The target tables created while following the dump, with the indexes each was created without. */
    private Map<TableName, List<SchemaRewriter.Index>> createdFollowing = Map.of();

    public LoadUnit(LoadConfig config) {
        this.config = config;
        this.metrics = new LoadMetrics(config.task(), config.sourceId());
        this.job = new LoadJob(config, metrics);
    }

    public LoadMetrics metrics() {
        return metrics;
    }

    /** Asks the workers to stop after their current statement; {@link #run()} then returns, not completed. */
    public void stop() {
        job.requestStop();
    }

    /**
     * Loads the dump.
     *
     * @throws JdmException with one line naming the file and byte offset where the load stopped
     */
    public LoadResult run() {
        started();
        long t0 = System.nanoTime();
        DumpMetadata meta = readMetadata();
        DumpDirectory dump = scan();
        FileManifest manifest = readManifest(dump);
        ProgressLogger progress = new ProgressLogger(config.task(), "load", metrics, PROGRESS_SECONDS);
        try {
            job.useSession(sessionVariables(meta));
            job.checkBulk();
            return loadComplete(dump, manifest, meta.position(), t0, Set.of());
        } finally {
            job.closeAdmin();
            progress.close();
        }
    }

    /**
     * Loads a dump while it is being written into {@code loaders.dir}: each file as the dump
     * announces it to {@code feed}, then, once the dump is complete, whatever the complete directory
     * holds beyond that (nothing, normally), the deferred indexes and the views, as {@link #run()}
     * does. The checkpoint of this source must be empty at the start (a new dump's files are not an
     * earlier dump's); a restart after the dump completed resumes with {@link #run()}.
     *
     * @return not completed when {@link #stop()} ended it, or the dump ended without completing
     * @throws JdmException with one line naming the file and byte offset where the load stopped
     */
    public LoadResult runFollowing(DumpFeed feed) {
        started();
        long t0 = System.nanoTime();
        ProgressLogger progress = new ProgressLogger(config.task(), "load", metrics, PROGRESS_SECONDS);
        try {
            job.useSession(sessionVariables(null));
            job.checkBulk();
            Set<String> loaded = follow(feed);
            if (loaded == null) {
                return result(null, t0, false);
            }
            BinlogPosition position = readMetadata().position();
            DumpDirectory dump = scan();
            FileManifest manifest = readManifest(dump);
            return loadComplete(dump, manifest, position, t0, loaded);
        } finally {
            job.closeAdmin();
            progress.close();
        }
    }

    private void started() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("a LoadUnit runs once");
        }
    }

    /**
     * Loads the files of the dump being written as they arrive, on pool-size workers.
     *
     * @return the files this run loaded; null when the job stopped before the dump was complete
     */
    private Set<String> follow(DumpFeed feed) {
        Map<String, LoaderCheckpoint.Row> known = new ConcurrentHashMap<>();
        Map<String, FileManifest.Entry> recorded = new ConcurrentHashMap<>();
        job.recorded = recorded::get;
        Set<String> loaded = ConcurrentHashMap.newKeySet();
        ArrivingFiles files = new ArrivingFiles(job, f -> {
            loaded.add(f.name());
            feed.fileLoaded(f.name());
        }, feed::filesBegun, feed::dumpWaits, job::bulk);
        DumpMetadata complete = null;
        ExecutorService pool = startWorkers(files, config.poolSize(), known);
        try {
            DumpFollower follower = new DumpFollower(job, new SchemaLoader(job), feed, files, known, recorded);
            complete = follower.follow();
            createdFollowing = follower.createdTables();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            job.requestStop();
        } catch (JdmException e) {
            job.fail(e);
        } catch (RuntimeException e) {
            job.fail(new FatalException(job.who() + ": internal error following the dump: " + e, e));
        } finally {
            files.close(); // the workers end once the files that arrived are loaded
            job.closeAdmin();
            awaitWorkers(pool);
            feed.close(); // nothing waits for this load any more
        }
        throwFailure();
        if (complete == null || job.stopRequested()) {
            return null;
        }
        LOG.info("{}: the dump is complete; when it was, the load had begun {} of its {} data files and finished {}",
                job.who(), feed.begunWhenComplete(), loaded.size(), feed.loadedWhenComplete());
        return loaded;
    }

    /**
     * Loads a complete dump directory: schemas, the data files not finished yet, deferred indexes
     * and views.
     *
     * @param loadedHere files this run already loaded while following the dump
     */
    private LoadResult loadComplete(DumpDirectory dump, FileManifest manifest, BinlogPosition position, long t0,
                                    Set<String> loadedHere) {
        job.recorded = manifest == null ? name -> null : name -> manifest.entry(name).orElse(null);
        SchemaLoader schema = new SchemaLoader(job);
        List<DumpDirectory.SchemaFile> tables = job.withRetry("creating databases", c -> {
            job.checkpoint.ensureTable(c);
            schema.recallDeferred(job.checkpoint.readAll(c).values());
            return schema.createDatabases(c, dump);
        });
        Map<TableName, List<SchemaRewriter.Index>> deferred = schema.createTables(tables, dump.data(),
                createdFollowing);
        Map<String, LoaderCheckpoint.Row> done = job.withRetry("registering files in the checkpoint", c -> {
            List<LoaderCheckpoint.Row> rows = new ArrayList<>();
            dump.data().forEach(f -> rows.add(new LoaderCheckpoint.Row(f.name(), 0,
                    f.compression().isEmpty() ? f.size() : 0, LoaderCheckpoint.PENDING)));
            deferred.keySet().forEach(t -> rows.add(new LoaderCheckpoint.Row(LoaderCheckpoint.indexKey(t), 0, 0,
                    LoaderCheckpoint.PENDING)));
            job.checkpoint.register(c, rows);
            return job.checkpoint.readAll(c);
        });
        LOG.info("{}: schemas and checkpoint ready in {} ms", job.who(), (System.nanoTime() - t0) / 1_000_000);
        List<DumpDirectory.DataFile> plan = LoadPlan.order(dump.data(), done);
        Set<String> toLoad = new HashSet<>();
        plan.forEach(f -> toLoad.add(f.name()));
        List<DumpDirectory.DataFile> earlier = dump.data().stream()
                .filter(f -> !loadedHere.contains(f.name()) && !toLoad.contains(f.name())).toList();
        skipped = earlier.size();
        long totalBytes = dump.data().stream().mapToLong(DumpDirectory.DataFile::size).sum();
        metrics.plan(dump.tables().size(), dump.data().size(), totalBytes, dump.data().size() - plan.size(),
                earlier.stream().mapToLong(DumpDirectory.DataFile::size).sum());
        if (loadedHere.isEmpty() || !plan.isEmpty()) {
            LOG.info("{}: {} data files to load ({} finished by an earlier run), {} target tables, pool-size {}",
                    job.who(), plan.size(), skipped, dump.tables().size(), config.poolSize());
        }
        job.closeAdmin(); // a connection idle through the whole data phase would time out
        runWorkers(plan, done);
        if (job.stopRequested()) {
            return result(position, t0, false);
        }
        resumeStatistics(schema, dump, done);
        addIndexes(schema, deferred, done);
        if (!dump.views().isEmpty()) {
            job.withRetry("creating views", c -> {
                schema.createViews(c, dump);
                return null;
            });
        }
        LoadResult r = result(position, t0, !job.stopRequested());
        LOG.info("[load] {}", metrics.summaryLine());
        return r;
    }

    private LoadResult result(BinlogPosition position, long t0, boolean completed) {
        metrics.end();
        return new LoadResult(Math.max(0, metrics.filesDone() - skipped), skipped, metrics.rows(), metrics.bytes(),
                Duration.ofNanos(System.nanoTime() - t0), position, completed);
    }

    private DumpMetadata readMetadata() {
        if (!Files.isDirectory(config.dir())) {
            throw new FatalException(job.who() + ": dump directory " + config.dir() + " does not exist");
        }
        try {
            DumpMetadata meta = DumpMetadata.readFrom(config.dir()).orElseThrow(() -> new FatalException(job.who()
                    + ": " + config.dir() + " has no metadata file, so the dump is incomplete (a dump writes it "
                    + "last); run the dump again"));
            if (meta.consistencyMode().filter(c -> c == Consistency.NONE).isPresent()) {
                LOG.warn("{}: the dump was taken with consistency none; its binlog position may not match the data",
                        job.who());
            }
            return meta;
        } catch (IOException e) {
            throw new FatalException(job.who() + ": cannot read " + config.dir().resolve("metadata") + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The dump's record of its data files, checked against the directory: a listed file that is
     * missing or a data file that is not listed stops the load before anything is loaded.
     */
    private FileManifest readManifest(DumpDirectory dump) {
        FileManifest manifest;
        try {
            manifest = FileManifest.readFrom(config.dir()).orElse(null);
        } catch (IOException e) {
            throw new FatalException(job.who() + ": cannot read " + config.dir().resolve(FileManifest.NAME) + ": "
                    + e.getMessage() + "; run the dump again", e);
        }
        if (manifest == null) {
            LOG.warn("{}: {} has no {} file (not written by jdm): the integrity of its data files cannot be checked",
                    job.who(), config.dir(), FileManifest.NAME);
            return null;
        }
        Set<String> present = new HashSet<>();
        for (DumpDirectory.DataFile f : dump.data()) {
            present.add(f.name());
            if (manifest.entry(f.name()).isEmpty()) {
                throw new FatalException(job.who() + ": data file " + f.name() + " is not listed in "
                        + FileManifest.NAME + ", so it is not part of this dump; remove it or run the dump again");
            }
        }
        for (String name : manifest.entries().keySet()) {
            DumpFileNames.Parsed p = dump.parse(name);
            if (p != null && config.tableFilter().test(p.schema(), p.table()) && !present.contains(name)) {
                throw new FatalException(job.who() + ": data file " + name + " is listed in " + FileManifest.NAME
                        + " but missing from " + config.dir() + "; run the dump again");
            }
        }
        return manifest;
    }

    private DumpDirectory scan() {
        try {
            DumpDirectory dump = DumpDirectory.scan(config.dir(), config.tableFilter());
            dump.skipped().forEach(line -> LOG.warn("{}: {}", job.who(), line));
            warnIfOthersMayWrite();
            return dump;
        } catch (IOException e) {
            throw new FatalException(job.who() + ": cannot list " + config.dir() + ": " + e.getMessage(), e);
        }
    }

    /**
     * One line when another user could have changed the dump: its directory or a file in it is
     * writable by its group or by others. The load goes on, as the dump may be shared on purpose;
     * the checksums in {@code jdm-files} catch a file changed by mistake, not one changed together
     * with that list.
     */
    private void warnIfOthersMayWrite() throws IOException {
        List<Path> open = OwnerOnly.writableByOthers(config.dir());
        if (!open.isEmpty()) {
            LOG.warn("{}: the dump in {} can be changed by other users (group or others may write {}): the load"
                    + " reads it as it is; chmod go-w them if that is not meant (jdm's dumps are 0700 and 0600)",
                    job.who(), config.dir(), OwnerOnly.shown(open));
        }
    }

    /**
     * Whether this session would run MariaDB's InnoDB bulk insert (MDEV-24621: an empty table written
     * with unique_checks and foreign_key_checks both off), whose finish can deadlock on an index latch
     * with any reader of the table, a SELECT COUNT(*) of the DBA's, for good: neither session can be
     * killed and only a restart of the server ends it. On MariaDB unique_checks stay on when foreign
     * keys go unchecked (myloader 0.10.1 turns both off there, and runs that bulk insert).
     */
    private boolean bulkInsertHangs() {
        if (!config.disableForeignKeyChecks()) {
            return false;
        }
        boolean mariadb = job.withRetry("reading the target's version",
                c -> Flavor.detect(c) == Flavor.MARIADB);
        if (mariadb) {
            LOG.info("{}: unique_checks stay on: on MariaDB, with foreign_key_checks off, they would turn on its bulk"
                    + " insert, which a reader of the table being loaded can hang for good", job.who());
        }
        return mariadb;
    }

    /**
     * The sql_mode the source's rows are written back in ({@link LoadSqlMode}) and the fast-path
     * switches, minus {@code sql_log_bin} when the user may not set it; on TiDB also DM's session
     * (see {@link TidbSession}).
     *
     * @param meta the dump's metadata; null while a dump being followed has not written it
     */
    private Map<String, String> sessionVariables(DumpMetadata meta) {
        Map<String, String> vars = new LinkedHashMap<>(job.withRetry("reading the target's version",
                c -> TidbSession.defaults(c, config.target().session())));
        vars.put("sql_mode", LoadSqlMode.decide(job, meta));
        if (config.disableForeignKeyChecks()) {
            vars.put("foreign_key_checks", "0");
        }
        if (config.disableUniqueChecks() && !bulkInsertHangs()) {
            vars.put("unique_checks", "0");
        }
        if (config.disableBinlog()) {
            boolean allowed = job.withRetry("checking sql_log_bin", c -> {
                try (Statement st = c.createStatement()) {
                    st.execute("SET SESSION sql_log_bin = 0");
                    return true;
                } catch (SQLException e) {
                    if (ErrorClassifier.isRetriable(e)) {
                        throw e;
                    }
                    LOG.info("{}: the target's binlog stays on: {}", job.who(), ErrorClassifier.oneLine(e));
                    return false;
                }
            });
            if (allowed) {
                vars.put("sql_log_bin", "0");
            }
        }
        return vars;
    }

    private void runWorkers(List<DumpDirectory.DataFile> plan, Map<String, LoaderCheckpoint.Row> known) {
        if (plan.isEmpty()) {
            return;
        }
        int workers = Math.min(config.poolSize(), plan.size());
        awaitWorkers(startWorkers(FileQueue.of(plan, workers), workers, known));
        throwFailure();
    }

    private ExecutorService startWorkers(FileQueue files, int n, Map<String, LoaderCheckpoint.Row> known) {
        ExecutorService pool = Executors.newFixedThreadPool(n, new NamedThreadFactory(config.task(), "load", "worker"));
        for (int i = 0; i < n; i++) {
            pool.execute(new LoadWorker(job, files, known));
        }
        pool.shutdown();
        return pool;
    }

    /** The first failure of the workers, after the summary of what they did. */
    private void throwFailure() {
        JdmException failure = job.failure();
        if (failure != null) {
            LOG.info("[load] {}", metrics.summaryLine());
            throw failure;
        }
    }

    private void awaitWorkers(ExecutorService pool) {
        try {
            while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
                // workers end by themselves when no file is left, a failure wins, or stop() is called
            }
        } catch (InterruptedException e) {
            job.requestStop();
            Thread.currentThread().interrupt();
            try {
                if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
                    LOG.warn("{}: load workers did not stop within 30 s; interrupting them", job.who());
                    pool.shutdownNow();
                }
            } catch (InterruptedException again) {
                pool.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Gives back the automatic statistics of the tables whose creation paused them, now that their rows are in. */
    private void resumeStatistics(SchemaLoader schema, DumpDirectory dump, Map<String, LoaderCheckpoint.Row> done) {
        Set<TableName> targets = new LinkedHashSet<>();
        dump.tables().forEach(t -> targets.add(config.router().apply(t.source())));
        List<TableName> paused = new ArrayList<>();
        for (TableName t : targets) {
            LoaderCheckpoint.Row row = done.get(LoaderCheckpoint.statsKey(t));
            if (row != null && !row.finished()) {
                paused.add(t);
            }
        }
        if (!job.stopRequested()) {
            job.inParallel(paused, t -> "computing the statistics of " + t.quoted(),
                    (c, t) -> schema.resumeStatistics(c, t));
        }
    }

    /**
     * Adds the deferred indexes of the tables not done yet, on up to pool-size (at most 8) connections at once
     * ({@link LoadJob#inParallel}): each table's in one ALTER TABLE, which the target runs beside the others.
     */
    private void addIndexes(SchemaLoader schema, Map<TableName, List<SchemaRewriter.Index>> deferred,
                            Map<String, LoaderCheckpoint.Row> done) {
        List<TableName> todo = new ArrayList<>();
        for (Map.Entry<TableName, List<SchemaRewriter.Index>> e : deferred.entrySet()) {
            LoaderCheckpoint.Row row = done.get(LoaderCheckpoint.indexKey(e.getKey()));
            if (row == null || !row.finished()) {
                todo.add(e.getKey());
            }
        }
        if (todo.isEmpty() || job.stopRequested()) {
            return;
        }
        LOG.info("{}: adding the deferred indexes of {} table(s)", job.who(), todo.size());
        job.inParallel(todo, t -> "adding the deferred indexes of " + t.quoted(), (c, t) -> {
            LOG.debug("{}: adding {} deferred index(es) to {}", job.who(), deferred.get(t).size(), t.quoted());
            schema.addIndexes(c, t, deferred.get(t));
        });
    }
}
