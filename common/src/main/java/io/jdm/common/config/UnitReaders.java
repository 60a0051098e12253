package io.jdm.common.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Entries of {@code mydumpers:}, {@code loaders:} and {@code syncers:}. Defaults and limits are the
 * records' constants ({@link MydumperConfig}, {@link LoaderConfig}, {@link SyncerConfig}), which
 * the units and the bench take too. Public for the bench, which reads the task-file keys it sweeps
 * through these same readers ({@link Section#each}).
 */
public final class UnitReaders {
    /** One limit for every thread count of a task file (threads, pool-size, worker-count and their aliases). */
    static final int MAX_THREADS = 1024;

    private static final Map<String, Consistency> CONSISTENCY = Section.names(Consistency.values());
    private static final Map<String, Compression> COMPRESSION = Section.names(Compression.values());
    private static final Map<String, OnDuplicate> ON_DUPLICATE = Section.names(OnDuplicate.values());
    private static final List<String> PHYSICAL_IMPORT_KEYS = List.of("on-duplicate-physical",
            "sorting-dir-physical", "disk-quota-physical", "checksum-physical", "analyze", "range-concurrency",
            "compress-kv-pairs", "pd-addr");
    private static final List<String> DM_ONLY_SYNCER_KEYS = List.of("max-retry", "auto-fix-gtid",
            "disable-detect");
    /** DM's names of the logical import: logical, and sql and loader from before v6. */
    private static final List<String> LOGICAL_IMPORT = List.of("logical", "sql", "loader");

    private UnitReaders() {
    }

    public static MydumperConfig mydumper(Section s, String taskName) {
        MydumperConfig d = MydumperConfig.defaults(taskName);
        var c = new MydumperConfig(
                s.threads("threads", d.threads(), MydumperConfig.MAX_THREADS),
                s.longInteger("rows", d.rows(), 0, MydumperConfig.MAX_ROWS),
                statementSize(s, d.statementSize()),
                chunkFilesize(s, d.chunkFilesizeMb()),
                s.choice("consistency", d.consistency(), CONSISTENCY),
                s.optionalText("where"),
                s.choice("compress", d.compress(), COMPRESSION),
                s.optionalText("dir").map(Path::of).orElse(d.dir()));
        c = ExtraArgs.apply(s, c);
        s.ignored("mydumper-path", "jdm dumps in-process and runs no mydumper binary; ignored");
        s.ignored("skip-tz-utc", "DM's dump no longer reads it; ignored");
        s.finish();
        return c;
    }

    /**
     * DM hands statement-size to its dump only when it is above 0, so 0 keeps the default; any
     * other size is a bound in bytes that a statement of one row may exceed.
     */
    private static long statementSize(Section s, long def) {
        long size = s.longInteger("statement-size", def, 0, MydumperConfig.MAX_STATEMENT_SIZE);
        return size == 0 ? def : size;
    }

    /** MiB as a number or DM's size text ({@code 64MiB}); 0 means files are not split by size. */
    private static int chunkFilesize(Section s, int def) {
        Optional<String> v = s.text("chunk-filesize");
        if (v.isEmpty() || v.get().isBlank()) {
            return def;
        }
        Optional<Long> mb = FileSize.megabytes(v.get());
        if (mb.isEmpty() || mb.get() > MydumperConfig.MAX_CHUNK_FILESIZE_MB) {
            s.problem("chunk-filesize", "must be a size in MiB 0.." + MydumperConfig.MAX_CHUNK_FILESIZE_MB + " such as 64 or 64MiB, got "
                    + s.shown("chunk-filesize"));
            return def;
        }
        return (int) (long) mb.get();
    }

    /**
     * An entry of {@code loaders:}. {@code dmDirSuffix} is the task name when the file lays out
     * directories DM's way (no mydumper sets dir): DM dumps into {@code <dir>.<task-name>}.
     */
    public static LoaderConfig loader(Section s, Optional<String> dmDirSuffix) {
        LoaderConfig d = LoaderConfig.defaults();
        var c = new LoaderConfig(
                s.threads("pool-size", d.poolSize(), LoaderConfig.MAX_POOL_SIZE),
                dir(s, dmDirSuffix),
                onDuplicate(s, d.onDuplicate()),
                s.bool("defer-indexes", d.deferIndexes()),
                s.bool("disable-foreign-key-checks", d.disableForeignKeyChecks()),
                s.bool("disable-unique-checks", d.disableUniqueChecks()),
                s.bool("disable-binlog", d.disableBinlog()));
        Optional<String> mode = s.text("import-mode").map(m -> m.strip().toLowerCase(Locale.ROOT));
        if (mode.isPresent() && !LOGICAL_IMPORT.contains(mode.get())) {
            s.problem("import-mode", mode.get().equals("physical") ? DmKeys.NO_PHYSICAL
                    : "must be logical, sql or loader, got " + s.shown("import-mode")
                    + " (jdm loads through SQL statements only)");
        }
        s.ignored("rows-per-transaction", "not a key of DM's loader; jdm commits a load transaction by its size "
                + "in bytes, with the checkpoint; ignored");
        for (String key : PHYSICAL_IMPORT_KEYS) {
            s.ignored(key, "a physical import setting; jdm imports logically, ignored");
        }
        s.finish();
        return c;
    }

    private static Optional<Path> dir(Section s, Optional<String> dmDirSuffix) {
        Optional<String> dir = s.optionalText("dir");
        if (dir.isPresent() && dir.get().contains("://")) {
            s.problem("dir", "jdm dumps to a local directory only, got " + s.shown("dir"));
            return Optional.empty();
        }
        if (dir.isEmpty() || dmDirSuffix.isEmpty()) {
            return dir.map(Path::of);
        }
        String trimmed = dir.get().replaceAll("/+$", "");
        String suffix = "." + dmDirSuffix.get();
        return Optional.of(Path.of(trimmed.endsWith(suffix) ? trimmed : trimmed + suffix));
    }

    /** DM's newer name on-duplicate-logical and the older on-duplicate are one setting; blank is the default. */
    private static OnDuplicate onDuplicate(Section s, OnDuplicate def) {
        boolean logical = s.optionalText("on-duplicate-logical").isPresent();
        boolean plain = s.optionalText("on-duplicate").isPresent();
        if (logical && plain) {
            s.problem("on-duplicate-logical", "and on-duplicate are the same setting; keep one");
            return def;
        }
        return s.optionalText(logical ? "on-duplicate-logical" : "on-duplicate").isEmpty() ? def
                : s.choice(logical ? "on-duplicate-logical" : "on-duplicate", def, ON_DUPLICATE);
    }

    public static SyncerConfig syncer(Section s) {
        SyncerConfig d = SyncerConfig.defaults();
        var c = new SyncerConfig(
                s.threads("worker-count", d.workerCount(), SyncerConfig.MAX_WORKER_COUNT),
                s.integer("batch", d.batch(), 1, SyncerConfig.MAX_BATCH),
                s.powerOfTwo("queue-size", d.queueSize(), SyncerConfig.MIN_QUEUE_SIZE, SyncerConfig.MAX_QUEUE_SIZE),
                s.bool("safe-mode", d.safeMode()),
                s.optionalText("safe-mode-duration").isEmpty() ? d.safeModeDuration()
                        : s.duration("safe-mode-duration", d.safeModeDuration()),
                s.seconds("checkpoint-flush-interval", secs(d.checkpointFlushInterval()), 1, 3600),
                s.bool("compact", d.compact()),
                s.bool("multiple-rows", d.multipleRows()),
                s.bool("enable-gtid", d.enableGtid()),
                s.seconds("heartbeat-interval", secs(d.heartbeatInterval()), 1, 3600));
        for (String key : DM_ONLY_SYNCER_KEYS) {
            s.ignored(key, "a DM setting jdm does not use; ignored");
        }
        s.ignored("enable-ansi-quotes", DmKeys.ANSI_QUOTES);
        s.ignored("meta-file", "DM's syncer meta file; jdm keeps its checkpoint in the target; ignored");
        s.finish();
        return c;
    }

    /** An entry of {@code validators:}; DM's defaults for what it leaves out. */
    public static ValidatorConfig validator(Section s) {
        ValidatorConfig d = ValidatorConfig.defaults();
        var c = new ValidatorConfig(
                s.choice("mode", d.mode(), Section.names(ValidatorConfig.Mode.values())),
                s.threads("worker-count", d.workerCount(), ValidatorConfig.MAX_WORKER_COUNT),
                positive(s, "validate-interval", d.validateInterval()),
                positive(s, "check-interval", d.checkInterval()),
                positive(s, "row-error-delay", d.rowErrorDelay()),
                positive(s, "meta-flush-interval", d.metaFlushInterval()),
                s.integer("batch-query-size", d.batchQuerySize(), 1, ValidatorConfig.MAX_BATCH_QUERY_SIZE),
                pendingSize(s, d.maxPendingRowSize()),
                s.longInteger("max-pending-row-count", d.maxPendingRowCount(), 1, Long.MAX_VALUE));
        s.finish();
        return c;
    }

    /** A duration where DM reads 0 (or leaving it out) as its default. */
    private static Duration positive(Section s, String key, Duration def) {
        Duration v = s.duration(key, def);
        return v.isZero() ? def : v;
    }

    private static long pendingSize(Section s, long def) {
        Optional<String> v = s.optionalText("max-pending-row-size");
        if (v.isEmpty()) {
            return def;
        }
        Optional<Long> bytes = FileSize.bytes(v.get()).filter(b -> b > 0);
        if (bytes.isEmpty()) {
            s.problem("max-pending-row-size", "must be a size such as 500m or 1g, got " + s.shown("max-pending-row-size"));
            return def;
        }
        return bytes.get();
    }

    private static int secs(Duration d) {
        return (int) d.toSeconds();
    }
}
