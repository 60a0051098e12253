package io.jdm.common.config;

import io.jdm.common.config.LoaderConfig.OnDuplicate;
import io.jdm.common.config.MydumperConfig.Compression;
import io.jdm.common.config.MydumperConfig.Consistency;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Entries of {@code mydumpers:}, {@code loaders:} and {@code syncers:}. */
final class UnitReaders {
    static final int MAX_THREADS = 1024;

    private static final Map<String, Consistency> CONSISTENCY = Section.names(Consistency.values());
    private static final Map<String, Compression> COMPRESSION = Section.names(Compression.values());
    private static final Map<String, OnDuplicate> ON_DUPLICATE = Section.names(OnDuplicate.values());
    private static final List<String> PHYSICAL_IMPORT_KEYS = List.of("on-duplicate-physical",
            "sorting-dir-physical", "disk-quota-physical", "checksum-physical", "analyze", "range-concurrency",
            "compress-kv-pairs", "pd-addr");
    private static final List<String> DM_ONLY_SYNCER_KEYS = List.of("max-retry", "auto-fix-gtid",
            "enable-ansi-quotes", "disable-detect");

    private UnitReaders() {
    }

    static MydumperConfig mydumper(Section s, String taskName) {
        MydumperConfig d = MydumperConfig.defaults(taskName);
        var c = new MydumperConfig(
                s.integer("threads", d.threads(), 1, MAX_THREADS),
                s.longInteger("rows", d.rows(), 0, 1_000_000_000),
                s.longInteger("statement-size", d.statementSize(), 1024, 1L << 30),
                s.integer("chunk-filesize", d.chunkFilesizeMb(), 1, 1 << 20),
                s.choice("consistency", d.consistency(), CONSISTENCY),
                s.optionalText("where"),
                s.choice("compress", d.compress(), COMPRESSION),
                s.optionalText("dir").map(Path::of).orElse(d.dir()));
        s.unsupported("extra-args", "jdm does not take mydumper command-line arguments; set threads, rows, "
                + "statement-size, chunk-filesize, consistency, where, compress or dir here, and choose tables "
                + "with block-allow-list");
        s.unsupported("mydumper-path", "jdm dumps in-process and runs no mydumper binary; remove mydumper-path");
        s.finish();
        return c;
    }

    static LoaderConfig loader(Section s) {
        LoaderConfig d = LoaderConfig.defaults();
        var c = new LoaderConfig(
                s.integer("pool-size", d.poolSize(), 1, MAX_THREADS),
                s.optionalText("dir").map(Path::of),
                s.choice("on-duplicate", d.onDuplicate(), ON_DUPLICATE),
                s.bool("defer-indexes", d.deferIndexes()),
                s.bool("disable-foreign-key-checks", d.disableForeignKeyChecks()),
                s.bool("disable-unique-checks", d.disableUniqueChecks()),
                s.bool("disable-binlog", d.disableBinlog()),
                s.longInteger("rows-per-transaction", d.rowsPerTransaction(), 0, 10_000_000));
        s.text("import-mode").filter(m -> !m.strip().equals("sql"))
                .ifPresent(m -> s.problem("import-mode", "must be sql, got " + s.shown("import-mode")
                        + " (jdm loads through SQL statements only)"));
        s.unsupported("on-duplicate-logical", "jdm calls this on-duplicate; rename the key");
        for (String key : PHYSICAL_IMPORT_KEYS) {
            s.unsupported(key, "a physical import setting; jdm loads through SQL statements only, remove it");
        }
        s.finish();
        return c;
    }

    static SyncerConfig syncer(Section s) {
        SyncerConfig d = SyncerConfig.defaults();
        var c = new SyncerConfig(
                s.integer("worker-count", d.workerCount(), 1, MAX_THREADS),
                s.integer("batch", d.batch(), 1, 10_000),
                s.powerOfTwo("queue-size", d.queueSize(), 64, 1 << 20),
                s.bool("safe-mode", d.safeMode()),
                s.duration("safe-mode-duration", d.safeModeDuration()),
                s.seconds("checkpoint-flush-interval", secs(d.checkpointFlushInterval()), 1, 3600),
                s.bool("compact", d.compact()),
                s.bool("multiple-rows", d.multipleRows()),
                s.bool("enable-gtid", d.enableGtid()),
                s.seconds("heartbeat-interval", secs(d.heartbeatInterval()), 1, 3600));
        for (String key : DM_ONLY_SYNCER_KEYS) {
            s.unsupported(key, "a DM setting jdm does not have; remove it");
        }
        s.finish();
        return c;
    }

    private static int secs(Duration d) {
        return (int) d.toSeconds();
    }
}
