package io.jdm.common.dumpdir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A dump directory holds a copy of the source's rows and the binlog position the sync starts from:
 * anyone who can read it reads the data, anyone who can change it changes what the load writes into
 * the target. So the dump creates its directories {@code 0700} and its files {@code 0600}, in the
 * call that creates them: the mode is part of the {@code mkdir}/{@code open} itself, so there is no
 * moment in which the umask's usual {@code 0755}/{@code 0644} let another user open a file (a chmod
 * afterwards would leave one, and an open descriptor outlives it). A umask only takes bits away, so
 * whatever it is, nothing is wider than these. A directory that already exists is the user's and
 * keeps its mode; {@link #writableByOthers} is how the load and {@code jdm check} look at it.
 *
 * <p>On a file system without POSIX permissions (Windows) files are created as the system creates
 * them, and {@link #writableByOthers} cannot tell, so it finds nothing.
 */
public final class OwnerOnly {
    private static final FileAttribute<Set<PosixFilePermission>> DIRECTORY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final FileAttribute<Set<PosixFilePermission>> FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileSystem DEFAULT_FS = FileSystems.getDefault();
    private static final boolean DEFAULT_POSIX = DEFAULT_FS.supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> OTHERS_WRITE =
            EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private OwnerOnly() {
    }

    /** Creates {@code dir} and any missing parent, each {@code 0700}; an existing one is left as it is. */
    public static void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir, posix(dir) ? new FileAttribute<?>[] {DIRECTORY} : new FileAttribute<?>[0]);
    }

    /**
     * A new file {@code 0600} to write, replacing one of that name: an earlier file (or a link
     * planted there) is removed and a new one created exclusively, so the mode is always this one
     * and the write never follows a link out of the directory.
     */
    public static OutputStream newOutputStream(Path file) throws IOException {
        return Channels.newOutputStream(open(file, StandardOpenOption.WRITE));
    }

    /**
     * A new file {@code 0600} opened with {@code options} plus {@code CREATE_NEW}, replacing one of
     * that name as {@link #newOutputStream} does.
     */
    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        Set<OpenOption> o = new HashSet<>(List.of(options));
        o.add(StandardOpenOption.CREATE_NEW);
        FileAttribute<?>[] attributes = attributes(file);
        // a new dump's name is free: one open, and the name looked up once (a dump of many small
        // tables creates two files a table)
        for (int attempt = 0; ; attempt++) {
            try {
                return FileChannel.open(file, o, attributes);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 0) {
                    throw e; // created again between the delete and the open: someone else writes here
                }
                Files.deleteIfExists(file);
            }
        }
    }

    /**
     * Opens {@code file} with {@code options} plus {@code CREATE}, keeping what it holds: created
     * {@code 0600} when absent, left with its mode when present (a file to append to).
     */
    public static FileChannel openKeeping(Path file, OpenOption... options) throws IOException {
        Set<OpenOption> o = new HashSet<>(List.of(options));
        o.add(StandardOpenOption.CREATE);
        return FileChannel.open(file, o, attributes(file));
    }

    /**
     * {@code dir} itself and the regular files in it that its group or other users may write: a dump
     * someone else could have changed. Empty where the file system has no POSIX permissions.
     */
    public static List<Path> writableByOthers(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!posix(dir) || !Files.isDirectory(dir)) {
            return out;
        }
        if (writableByOthersItself(dir)) {
            out.add(dir);
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                if (Files.isRegularFile(f) && writableByOthersItself(f)) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    /** The first paths of {@link #writableByOthers}' answer, for one line: {@code a, b, c and 7 more}. */
    public static String shown(List<Path> paths) {
        int shown = Math.min(3, paths.size());
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < shown; i++) {
            b.append(i == 0 ? "" : i == shown - 1 && shown == paths.size() ? " and " : ", ").append(paths.get(i));
        }
        return paths.size() > shown ? b.append(" and ").append(paths.size() - shown).append(" more").toString()
                : b.toString();
    }

    /** Whether {@code path}'s file system knows POSIX permissions (so the checks above mean something). */
    public static boolean posix(Path path) {
        FileSystem fs = path.getFileSystem();
        return fs == DEFAULT_FS ? DEFAULT_POSIX : fs.supportedFileAttributeViews().contains("posix");
    }

    private static boolean writableByOthersItself(Path p) throws IOException {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
        perms.retainAll(OTHERS_WRITE);
        return !perms.isEmpty();
    }

    private static FileAttribute<?>[] attributes(Path file) {
        return posix(file) ? new FileAttribute<?>[] {FILE} : new FileAttribute<?>[0];
    }
}
