package io.jdm.dump;

import io.jdm.common.config.Compression;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.FileManifest;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output directory. A directory without {@code metadata} holds an incomplete dump: it is
 * cleaned before a new dump starts, and so is a complete one (the new dump replaces it). Only
 * files whose names belong to a dump are removed; anything else in the directory is left alone.
 */
final class DumpDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(DumpDirectory.class);
    private static final String SET_NAMES = "/*!40101 SET NAMES utf8mb4*/;\n";
    private final Path dir;
    private final Compression compression;

    DumpDirectory(Path dir, Compression compression) {
        this.dir = dir;
        this.compression = compression;
    }

    Path path() {
        return dir;
    }

    /** Creates the directory, proves it is writable, and removes an earlier dump. */
    void prepare() throws IOException {
        Files.createDirectories(dir);
        Path probe = dir.resolve(".jdm-write-test");
        Files.writeString(probe, "ok");
        Files.delete(probe);
        Path metadata = dir.resolve(DumpFileNames.METADATA);
        boolean complete = Files.exists(metadata);
        // The metadata goes first: if cleaning stops half way, the directory still reads as incomplete.
        Files.deleteIfExists(metadata);
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (Files.isRegularFile(f) && (DumpFileNames.parse(name).isPresent()
                        || name.equals(DumpFileNames.METADATA + ".tmp") || name.equals(FileManifest.NAME)
                        || name.equals(FileManifest.NAME + ".tmp"))) {
                    Files.delete(f);
                    removed++;
                }
            }
        }
        if (complete) {
            LOG.info("{} held a complete dump; replacing it ({} files removed)", dir, removed);
        } else if (removed > 0) {
            LOG.warn("{} held an incomplete dump (no metadata file): removed its {} files, starting clean", dir,
                    removed);
        }
    }

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
        try (OutputStream out = Compressors.wrap(compression, Files.newOutputStream(file))) {
            out.write((SET_NAMES + statements + ";\n").getBytes(StandardCharsets.UTF_8));
        }
        return file.getFileName().toString();
    }
}
