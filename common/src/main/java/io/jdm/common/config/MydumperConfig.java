package io.jdm.common.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How the dump unit exports a snapshot (an entry of {@code mydumpers:}).
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
    public static final int DEFAULT_THREADS = 4;
    public static final int MAX_THREADS = UnitReaders.MAX_THREADS;
    public static final long DEFAULT_ROWS = 200_000;
    public static final long MAX_ROWS = 1_000_000_000;
    /** Dumpling's default, which DM keeps when statement-size is 0. */
    public static final long DEFAULT_STATEMENT_SIZE = 1_000_000;
    /** A statement buffer larger than this would not fit the largest max_allowed_packet (1 GiB). */
    public static final long MAX_STATEMENT_SIZE = 1L << 30;
    public static final int DEFAULT_CHUNK_FILESIZE_MB = 64;
    /** 1 TiB: far past any file worth splitting, and small enough for an int of MiB. */
    public static final int MAX_CHUNK_FILESIZE_MB = 1 << 20;

    public MydumperConfig {
        Objects.requireNonNull(consistency, "consistency");
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(compress, "compress");
        Objects.requireNonNull(dir, "dir");
    }

    /** Defaults, writing into {@code ./dumped_data.<task>}. */
    public static MydumperConfig defaults(String taskName) {
        return new MydumperConfig(DEFAULT_THREADS, DEFAULT_ROWS, DEFAULT_STATEMENT_SIZE, DEFAULT_CHUNK_FILESIZE_MB,
                Consistency.AUTO, Optional.empty(), Compression.NONE, defaultDir(taskName));
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
