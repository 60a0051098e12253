package io.jdm.common.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How the dump unit exports a snapshot (an entry of {@code mydumpers:}); its keys, with their defaults and limits,
 * are declared in {@link MydumperKeys}.
 *
 * @param rows rows per chunk; 0 dumps each table as one chunk
 * @param statementSize bytes at which an INSERT statement of a dump file ends; a statement holds at
 *     least one row, so a row longer than this is a statement of its own
 * @param chunkFilesizeMb size in MB at which a dump file is split
 * @param where a condition added to every table's SELECT
 * @param dir output directory of the dump
 */
public record MydumperConfig(int threads, long rows, long statementSize, int chunkFilesizeMb,
                             Consistency consistency, Optional<String> where, Compression compress, Path dir) {
    public static final int DEFAULT_THREADS = MydumperKeys.THREADS.def();
    public static final int MAX_THREADS = MydumperKeys.THREADS.maxInt();
    public static final long DEFAULT_ROWS = MydumperKeys.ROWS.def();
    public static final long MAX_ROWS = MydumperKeys.ROWS.max();
    public static final long DEFAULT_STATEMENT_SIZE = MydumperKeys.STATEMENT_SIZE.def();
    public static final long MAX_STATEMENT_SIZE = MydumperKeys.STATEMENT_SIZE.max();
    public static final int MAX_CHUNK_FILESIZE_MB = MydumperKeys.CHUNK_FILESIZE.maxInt();
    /** Keys whose component is not named after them. */
    private static final Map<TaskKey<?>, String> COMPONENTS = Map.of(MydumperKeys.CHUNK_FILESIZE, "chunkFilesizeMb");

    public MydumperConfig {
        Objects.requireNonNull(consistency, "consistency");
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(compress, "compress");
        Objects.requireNonNull(dir, "dir");
    }

    /** Defaults, writing into {@code ./dumped_data.<task>}. */
    public static MydumperConfig defaults(String taskName) {
        return new MydumperConfig(MydumperKeys.THREADS.def(), MydumperKeys.ROWS.def(),
                MydumperKeys.STATEMENT_SIZE.def(), MydumperKeys.CHUNK_FILESIZE.def(), MydumperKeys.CONSISTENCY.def(),
                MydumperKeys.WHERE.def(), MydumperKeys.COMPRESS.def(), defaultDir(taskName));
    }

    static Path defaultDir(String taskName) {
        return Path.of("./dumped_data." + taskName);
    }

    /**
     * This config with the setting of {@code key} (one of {@link MydumperKeys}) replaced by {@code value};
     * {@code dir} must be present here (its default depends on the task name, see {@link #defaults}).
     *
     * @throws IllegalArgumentException for a key of another section, one that is only read (ignored keys,
     *     {@code extra-args}) or an empty {@code dir}
     */
    public <T> MydumperConfig with(TaskKey<T> key, T value) {
        if (key == MydumperKeys.DIR) {
            return withDir(((Optional<?>) value).map(Path.class::cast).orElseThrow(() ->
                    new IllegalArgumentException("MydumperConfig.dir must be a directory, got none")));
        }
        return KeyedRecords.with(this, MydumperKeys.ALL, COMPONENTS, key, value);
    }

    public MydumperConfig withThreads(int newThreads) {
        return with(MydumperKeys.THREADS, newThreads);
    }

    public MydumperConfig withRows(long newRows) {
        return with(MydumperKeys.ROWS, newRows);
    }

    /** The resolved dump directory (the {@code dir} component is a path, not the key's optional one). */
    public MydumperConfig withDir(Path newDir) {
        return new MydumperConfig(threads, rows, statementSize, chunkFilesizeMb, consistency, where, compress, newDir);
    }
}
