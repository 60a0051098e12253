package io.jdm.common.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Entries of {@code mydumpers:}, {@code loaders:}, {@code syncers:} and {@code validators:}. Each key is
 * read through its declaration ({@link MydumperKeys}, {@link LoaderKeys}, {@link SyncerKeys},
 * {@link ValidatorKeys}), which holds its default and range; the records' constants come from
 * there too. Public for the bench, which reads the task-file keys it sweeps through these same
 * readers ({@link Section#each}).
 */
public final class UnitReaders {
    private UnitReaders() {
    }

    public static MydumperConfig mydumper(Section s, String taskName) {
        MydumperConfig d = MydumperConfig.defaults(taskName);
        var c = new MydumperConfig(
                MydumperKeys.THREADS.read(s),
                MydumperKeys.ROWS.read(s),
                MydumperKeys.STATEMENT_SIZE.read(s),
                MydumperKeys.CHUNK_FILESIZE.read(s),
                MydumperKeys.CONSISTENCY.read(s),
                MydumperKeys.WHERE.read(s),
                MydumperKeys.COMPRESS.read(s),
                MydumperKeys.DIR.read(s).orElse(d.dir()));
        c = ExtraArgs.apply(s, c);
        readIgnored(s, MydumperKeys.ALL);
        s.finish();
        return c;
    }

    /**
     * An entry of {@code loaders:}. {@code dmDirSuffix} is the task name when the file lays out
     * directories DM's way (no mydumper sets dir): DM dumps into {@code <dir>.<task-name>}.
     */
    public static LoaderConfig loader(Section s, Optional<String> dmDirSuffix) {
        var c = new LoaderConfig(
                LoaderKeys.POOL_SIZE.read(s),
                LoaderKeys.DIR.read(s).map(dir -> dmDir(dir, dmDirSuffix)),
                LoaderKeys.ON_DUPLICATE_LOGICAL.read(s),
                LoaderKeys.DEFER_INDEXES.read(s),
                LoaderKeys.DISABLE_FOREIGN_KEY_CHECKS.read(s),
                LoaderKeys.DISABLE_UNIQUE_CHECKS.read(s),
                LoaderKeys.DISABLE_BINLOG.read(s));
        LoaderKeys.IMPORT_MODE.read(s);
        readIgnored(s, LoaderKeys.ALL);
        s.finish();
        return c;
    }

    private static Path dmDir(Path dir, Optional<String> dmDirSuffix) {
        if (dmDirSuffix.isEmpty()) {
            return dir;
        }
        String trimmed = dir.toString().replaceAll("/+$", "");
        String suffix = "." + dmDirSuffix.get();
        return Path.of(trimmed.endsWith(suffix) ? trimmed : trimmed + suffix);
    }

    public static SyncerConfig syncer(Section s) {
        var c = new SyncerConfig(
                SyncerKeys.WORKER_COUNT.read(s),
                SyncerKeys.BATCH.read(s),
                SyncerKeys.QUEUE_SIZE.read(s),
                SyncerKeys.SAFE_MODE.read(s),
                SyncerKeys.SAFE_MODE_DURATION.read(s),
                SyncerKeys.CHECKPOINT_FLUSH_INTERVAL.read(s),
                SyncerKeys.COMPACT.read(s),
                SyncerKeys.MULTIPLE_ROWS.read(s),
                SyncerKeys.ENABLE_GTID.read(s),
                SyncerKeys.HEARTBEAT_INTERVAL.read(s));
        readIgnored(s, SyncerKeys.ALL);
        s.finish();
        return c;
    }

    /** An entry of {@code validators:}; DM's defaults for what it leaves out. */
    public static ValidatorConfig validator(Section s) {
        var c = new ValidatorConfig(
                ValidatorKeys.MODE.read(s),
                ValidatorKeys.WORKER_COUNT.read(s),
                ValidatorKeys.VALIDATE_INTERVAL.read(s),
                ValidatorKeys.CHECK_INTERVAL.read(s),
                ValidatorKeys.ROW_ERROR_DELAY.read(s),
                ValidatorKeys.META_FLUSH_INTERVAL.read(s),
                ValidatorKeys.BATCH_QUERY_SIZE.read(s),
                ValidatorKeys.MAX_PENDING_ROW_SIZE.read(s),
                ValidatorKeys.MAX_PENDING_ROW_COUNT.read(s));
        s.finish();
        return c;
    }

    /** The keys of a section that are read only to warn that jdm ignores them. */
    private static void readIgnored(Section s, List<TaskKey<?>> keys) {
        keys.stream().filter(TaskKey::ignored).forEach(k -> k.read(s));
    }
}
