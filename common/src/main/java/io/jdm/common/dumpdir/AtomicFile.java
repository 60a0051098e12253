package io.jdm.common.dumpdir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * Writes a file of the dump directory whole or not at all: into {@code name.tmp}, forced to disk,
 * then renamed over {@code name}. A reader (or a dump resumed after a kill) finds the old file, the
 * new one, or none, never half of one. The file is the owner's only from its creation on
 * ({@link OwnerOnly}), and the rename keeps that. Reads them back too.
 */
final class AtomicFile {
    private AtomicFile() {
    }

    /** The lines of {@code dir/name}; empty when there is no such file. */
    static Optional<List<String>> readLines(Path dir, String name) throws IOException {
        Path f = dir.resolve(name);
        return Files.exists(f) ? Optional.of(Files.readAllLines(f, StandardCharsets.UTF_8)) : Optional.empty();
    }

    static void write(Path dir, String name, String text) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        try (FileChannel c = OwnerOnly.open(tmp, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                c.write(bytes);
            }
            c.force(true);
        }
        try {
            Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
