package io.jdm.common.dumpdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dump's files are new files of the owner's only, whatever held their names before. */
class OwnerOnlyTest {
    @TempDir
    Path dir;

    private static void write(Path file, String text) throws IOException {
        try (OutputStream out = OwnerOnly.newOutputStream(file)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    /** Writes "new" at {@code f} through {@link OwnerOnly} and checks it is a new regular file, 0600, holding that. */
    private static void writesANewOwnersFile(Path f) throws IOException {
        write(f, "new");
        assertFalse(Files.isSymbolicLink(f));
        assertEquals("new", Files.readString(f));
        assertEquals("rw-------", mode(f));
    }

    @Test
    void aNewFileIsTheOwnersOnly() throws IOException {
        assumeTrue(OwnerOnly.posix(dir));
        writesANewOwnersFile(dir.resolve("a.sql"));
    }

    @Test
    void aFileOfThatNameIsReplacedNotReused() throws IOException {
        assumeTrue(OwnerOnly.posix(dir));
        Path f = dir.resolve("a.sql");
        Files.writeString(f, "an earlier, longer content");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-rw-"));
        writesANewOwnersFile(f);
    }

    @Test
    void aLinkOfThatNameIsReplacedAndWhatItNamesLeftAlone() throws IOException {
        assumeTrue(OwnerOnly.posix(dir));
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere")).resolve("target.txt");
        Files.writeString(elsewhere, "not the dump's");
        Path f = dir.resolve("a.sql");
        Files.createSymbolicLink(f, elsewhere);
        writesANewOwnersFile(f);
        assertEquals("not the dump's", Files.readString(elsewhere));
    }
}
