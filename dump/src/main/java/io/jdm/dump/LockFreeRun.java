package io.jdm.dump;

import io.jdm.common.dumpdir.ChunkJournal;
import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bookkeeping of a lock-free dump: the chunk plan written before the first chunk is read,
 * the journal each finished chunk is recorded in, and the resume of a dump that was killed: its
 * finished chunks and their files stay, the rest of the plan is read again, file numbers going on
 * after the kept ones. {@code metadata} gets the lowest LOW of all chunks, this run's and the
 * earlier ones' (with no table to dump, the position read as the dump started).
 */
final class LockFreeRun implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LockFreeRun.class);

    private final DumpConfig config;
    private final OutputDirectory dir;
    /** The plan being resumed, by table; empty for a fresh dump. */
    private final Map<TableName, ChunkPlan.Table> resumed;
    /** Finished chunks of the runs before this one, by table and chunk number. */
    private final Map<TableName, Map<Integer, ChunkJournal.Done>> done = new HashMap<>();
    private final ChunkJournal journal;
    private final ChunkWindow window;

    private LockFreeRun(DumpConfig config, OutputDirectory dir, Map<TableName, ChunkPlan.Table> resumed,
                        List<ChunkJournal.Done> finished, ChunkWindow window) throws IOException {
        this.config = config;
        this.dir = dir;
        this.resumed = resumed;
        this.window = window;
        finished.forEach(d -> done.computeIfAbsent(new TableName(d.schema(), d.table()), k -> new HashMap<>())
                .put(d.chunk(), d));
        this.journal = ChunkJournal.append(dir.path());
    }

    /** True when {@code config}'s directory holds a lock-free dump that did not complete: a dump resumes it. */
    static boolean resumable(DumpConfig config) {
        OutputDirectory d = new OutputDirectory(config.outputDir(), config.compress());
        return ChunkPlan.existsIn(d.path()) && !d.complete();
    }

    /**
     * Resumes the incomplete lock-free dump in the directory, or cleans the directory for a fresh one.
     *
     * @throws FatalException when the dump to resume was begun with other settings
     */
    static LockFreeRun open(DumpConfig config, OutputDirectory dir, ChunkWindow window) throws IOException {
        if (!ChunkPlan.existsIn(dir.path()) || dir.complete()) {
            dir.clean();
            return new LockFreeRun(config, dir, Map.of(), List.of(), window);
        }
        ChunkPlan plan;
        List<ChunkJournal.Done> finished;
        try {
            plan = ChunkPlan.readFrom(dir.path()).orElseThrow();
            finished = ChunkJournal.readFrom(dir.path());
        } catch (IOException e) {
            throw new FatalException("task " + config.task() + " dump: " + dir.path() + ": " + e.getMessage(), e);
        }
        if (!plan.settings().equals(settings(config))) {
            throw new FatalException("task " + config.task() + " dump: the lock-free dump in " + dir.path()
                    + " was begun with " + plan.settings() + ", not " + settings(config)
                    + "; set those back to resume it, or delete the directory to dump again from the start");
        }
        Set<String> keep = new HashSet<>();
        for (ChunkJournal.Done d : finished) {
            for (FileManifest.Entry f : d.files()) {
                Path file = dir.path().resolve(f.name());
                if (!Files.isRegularFile(file) || Files.size(file) != f.size()) {
                    throw new FatalException("task " + config.task() + " dump: " + file + " of a finished chunk in "
                            + ChunkJournal.NAME + " is missing or not the size recorded; delete " + dir.path()
                            + " and dump again");
                }
                keep.add(f.name());
            }
        }
        int removed = dir.keepFinished(keep);
        Map<TableName, ChunkPlan.Table> tables = new LinkedHashMap<>();
        plan.tables().forEach(t -> tables.put(new TableName(t.schema(), t.table()), t));
        int chunks = plan.tables().stream().mapToInt(t -> t.conditions().size()).sum();
        LOG.info("task {} dump: resuming the lock-free dump in {}: {} of its {} chunks are finished and kept;"
                + " {} files of unfinished chunks removed", config.task(), dir.path(), finished.size(), chunks, removed);
        return new LockFreeRun(config, dir, tables, finished, window);
    }

    /** What a plan depends on besides the tables: a resume with other settings would read other chunks. */
    static String settings(DumpConfig c) {
        return "rows=" + c.rows() + " where=" + (c.where() == null ? "" : c.where()) + " compress="
                + c.compress().name().toLowerCase(java.util.Locale.ROOT);
    }

    boolean resuming() {
        return !resumed.isEmpty();
    }

    ChunkWorker.LockFree worker() {
        return new ChunkWorker.LockFree(window, journal);
    }

    /** The tables to dump: the plan's when resuming (a table created since is not in it), else {@code selected}. */
    List<TableName> tables(List<TableName> selected) {
        return resuming() ? List.copyOf(resumed.keySet()) : selected;
    }

    /**
     * The resumed plan's chunks of a table, or null for a fresh dump (the caller plans them).
     *
     * @throws FatalException when the table's columns changed since the plan was made
     */
    List<Chunk> planned(TableJob job, SchemaFingerprint now) {
        ChunkPlan.Table t = resumed.get(job.name());
        if (t == null) {
            return null;
        }
        String digest = now.digest(job.name());
        if (digest == null || !digest.equals(t.fingerprint())) {
            throw altered(List.of(job.name()));
        }
        List<Chunk> out = new ArrayList<>(t.conditions().size());
        for (int i = 0; i < t.conditions().size(); i++) {
            out.add(new Chunk(job, i + 1, t.conditions().get(i), t.orderBy()));
        }
        return out;
    }

    /** Writes the plan (a fresh dump only), durably, before any of its chunks is read. */
    void writePlan(Map<TableJob, List<Chunk>> planned, SchemaFingerprint fingerprint) throws IOException {
        if (resuming()) {
            return;
        }
        List<ChunkPlan.Table> tables = new ArrayList<>();
        planned.forEach((job, chunks) -> tables.add(new ChunkPlan.Table(job.name().schema(), job.name().table(),
                fingerprint.digest(job.name()), chunks.isEmpty() ? null : chunks.get(0).orderBy(),
                chunks.stream().map(Chunk::condition).toList())));
        new ChunkPlan(settings(config), tables).writeTo(dir.path());
    }

    /**
     * The chunks of {@code all} that no earlier run finished. The finished ones' files go into
     * {@code written} (for {@code jdm-files}) and into {@code kept}, to be announced again; the
     * table's next file number follows them.
     */
    List<Chunk> unfinished(TableJob job, List<Chunk> all, Collection<FileManifest.Entry> written,
                           List<FileManifest.Entry> kept) {
        Map<Integer, ChunkJournal.Done> finished = done.getOrDefault(job.name(), Map.of());
        List<Chunk> out = new ArrayList<>();
        for (Chunk c : all) {
            ChunkJournal.Done d = finished.get(c.index());
            if (d == null) {
                out.add(c);
                continue;
            }
            for (FileManifest.Entry f : d.files()) {
                written.add(f);
                kept.add(f);
                io.jdm.common.dumpdir.DumpFileNames.parse(f.name()).ifPresent(p -> job.filesAfter(p.index()));
            }
        }
        return out;
    }

    /** A lock-free dump replays by key: a table without one is refused, naming every such table. */
    JdmException keyless(List<TableName> tables) {
        return new FatalException("task " + config.task() + " dump: consistency lock-free needs a primary or NOT NULL"
                + " unique key on every table, and " + names(tables) + " have none; add one, or dump with"
                + " consistency flush or lock");
    }

    /**
     * Reads the columns again once every chunk is read: a table altered during the dump may have
     * chunks of both shapes, and the dump stops rather than hand them on.
     */
    void checkUnaltered(Connection meta, Collection<TableJob> jobs, SchemaFingerprint atStart) throws SQLException {
        List<TableName> names = jobs.stream().map(TableJob::name).toList();
        SchemaFingerprint now = SchemaFingerprint.read(meta, names);
        List<TableName> altered = new ArrayList<>();
        for (TableName t : names) {
            String before = resuming() ? resumed.get(t).fingerprint() : atStart.digest(t);
            String after = now.digest(t);
            if (after == null || !after.equals(before)) {
                altered.add(t);
            }
        }
        if (!altered.isEmpty()) {
            throw altered(altered);
        }
    }

    private FatalException altered(List<TableName> tables) {
        return new FatalException("task " + config.task() + " dump: " + names(tables) + " changed (columns or dropped)"
                + " during the lock-free dump, so its chunks may hold rows of two shapes; delete " + dir.path()
                + " and what was loaded from it, then dump again");
    }

    /**
     * The lowest LOW over every finished chunk: where the sync starts; null without a binlog. With
     * no chunk at all (no table to dump) {@code atStart}, the position read as the dump started:
     * every table is created after it, and comes through the binlog as in the other modes.
     */
    BinlogPosition lowest(BinlogPosition atStart) throws IOException {
        return ChunkJournal.lowest(ChunkJournal.readFrom(dir.path())).orElse(atStart);
    }

    private static String names(List<TableName> tables) {
        return tables.stream().map(TableName::quoted).collect(Collectors.joining(", "));
    }

    @Override
    public void close() throws IOException {
        journal.close();
    }
}
