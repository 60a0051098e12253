package io.jdm.dump;

import io.jdm.common.config.Compression;
import io.jdm.common.dumpdir.ChunkJournal;
import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.dumpdir.OwnerOnly;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output directory. A directory without {@code metadata} holds an incomplete dump: it is
 * cleaned before a new dump starts, and so is a complete one (the new dump replaces it), except
 * that a lock-free dump resumes: the files of its finished chunks stay. Only files whose names
 * belong to a dump are removed; anything else in the directory is left alone.
 */
final class OutputDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(OutputDirectory.class);
    private static final String SET_NAMES = "/*!40101 SET NAMES utf8mb4*/;\n";
    private final Path dir;
    private final Compression compression;

    OutputDirectory(Path dir, Compression compression) {
        this.dir = dir;
        this.compression = compression;
    }

    Path path() {
        return dir;
    }

    /**
     * Creates the directory (and its missing parents) {@code 0700} and proves it is writable; nothing
     * in it is touched yet. Every file of the dump is created {@code 0600} ({@link OwnerOnly}).
     */
    void prepare() throws IOException {
        OwnerOnly.createDirectories(dir);
        Path probe = dir.resolve(".jdm-write-test");
        try (OutputStream out = OwnerOnly.newOutputStream(probe)) {
            out.write('o');
        }
        Files.delete(probe);
    }

    /** True when the directory holds a complete dump ({@code metadata} is there). */
    boolean complete() {
        return Files.exists(dir.resolve(DumpFileNames.METADATA));
    }

    /**
     * Removes an earlier dump, complete or not. An incomplete one read from a snapshot that closed
     * with the process that took it: it cannot be continued, so it is said so in one line.
     */
    void clean() throws IOException {
        boolean complete = complete();
        int removed = remove(name -> true);
        if (complete) {
            LOG.info("{} held a complete dump; replacing it ({} files removed)", dir, removed);
        } else if (removed > 0) {
            LOG.warn("{} held an incomplete dump (no metadata file) whose snapshot is gone with the process that"
                    + " took it: removed its {} files, dumping again from the start", dir, removed);
        }
    }

    /**
     * Keeps the files of a lock-free dump's finished chunks, its schema files, plan and journal, and
     * removes the rest of the dump: data files of chunks that did not finish, {@code jdm-files}.
     *
     * @return the number of files removed
     */
    int keepFinished(Set<String> finished) throws IOException {
        return remove(name -> DumpFileNames.parse(name).map(p -> p.kind() == DumpFileNames.Kind.DATA).orElse(true)
                && !finished.contains(name) && !name.equals(ChunkPlan.NAME) && !name.equals(ChunkJournal.NAME));
    }

    /** Deletes the dump's files for which {@code remove} holds; {@code metadata} first. */
    private int remove(Predicate<String> remove) throws IOException {
        // The metadata goes first: if cleaning stops half way, the directory still reads as incomplete.
        Files.deleteIfExists(dir.resolve(DumpFileNames.METADATA));
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (Files.isRegularFile(f) && DUMP_FILES.test(name) && remove.test(name)) {
                    Files.delete(f);
                    removed++;
                }
            }
        }
        return removed;
    }

    /** Whether a file name belongs to a dump; anything else in the directory is left alone. */
    private static final Predicate<String> DUMP_FILES = name -> DumpFileNames.parse(name).isPresent()
            || name.equals(DumpFileNames.METADATA + ".tmp") || name.equals(FileManifest.NAME)
            || name.equals(FileManifest.NAME + ".tmp") || name.equals(ChunkPlan.NAME)
            || name.equals(ChunkPlan.NAME + ".tmp") || name.equals(ChunkJournal.NAME);

    /**
     * Writes a schema file: the statements as SHOW CREATE returns them, ending with ";\n", after a
     * {@code SET NAMES} so that any client replays the file's bytes as they were read, whatever its
     * default character set. Dumpling and mydumper write {@code SET NAMES binary}, but SHOW CREATE's
     * text is UTF-8 even for a latin1 column's default, and replayed as binary a default 'é' becomes
     * 'Ã©'; {@code utf8mb4} is the character set the text is in.
     *
     * @return the name of the file written, closed
     */
    String writeSchema(String fileName, String statements) throws IOException {
        Path file = dir.resolve(fileName + compression.suffix());
        try (OutputStream out = Compressors.wrap(compression, OwnerOnly.newOutputStream(file))) {
            out.write((SET_NAMES + statements + ";\n").getBytes(StandardCharsets.UTF_8));
        }
        return file.getFileName().toString();
    }
}
