package io.jdm.common.config;

import java.nio.file.Path;
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

    public MydumperConfig withThreads(int newThreads) {
        return new MydumperConfig(newThreads, rows, statementSize, chunkFilesizeMb, consistency, where, compress, dir);
    }

    public MydumperConfig withRows(long newRows) {
        return new MydumperConfig(threads, newRows, statementSize, chunkFilesizeMb, consistency, where, compress, dir);
    }

    public MydumperConfig withDir(Path newDir) {
        return new MydumperConfig(threads, rows, statementSize, chunkFilesizeMb, consistency, where, compress, newDir);
    }
}
