package io.jdm.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.common.config.Compression;
import io.jdm.common.config.Consistency;
import io.jdm.common.dumpdir.ChunkJournal;
import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.embedded.Seq;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dump is its owner's only: the directories it creates are {@code 0700} and every file in them
 * {@code 0600}, from the moment each is created, under the usual umask (022) that makes a plain
 * new file {@code 0644}: consistent and lock-free dumps, compressed files, a directory an earlier
 * run left files in.
 */
class DumpPermissionsIT {
    private static final String DB = "DumpPermissionsIT";
    private static final String OWNER_DIR = "rwx------";
    private static final String OWNER_FILE = "rw-------";
    private static SqlServer source;

    @TempDir
    Path tmp;

    @BeforeAll
    static void setUp() {
        source = TestServers.shared().source();
        source.freshDatabase(DB);
        source.execute("USE `" + DB + "`",
                "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO t SELECT seq, CONCAT('v', seq) FROM " + Seq.upTo(1000),
                "CREATE VIEW v AS SELECT id FROM t WHERE id < 10",
                "ANALYZE TABLE t");
    }

    /** Under a umask that leaves group and others their read bit, as 022 does; otherwise this proves nothing. */
    @BeforeEach
    void umaskLetsOthersRead() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "no POSIX permissions");
        Path plain = Files.createFile(tmp.resolve("plain"));
        assumeTrue(Files.getPosixFilePermissions(plain).contains(PosixFilePermission.OTHERS_READ),
                "the umask already hides new files from others: " + PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(plain)));
        Files.delete(plain);
    }

    private DumpConfig config(Path dir) {
        return DumpConfig.defaults("perm", DumpTestSupport.spec(source), dir)
                .withTableFilter((db, tbl) -> db.equals(DB)).withThreads(2).withRows(300);
    }

    @Test
    void aConsistentDumpCreatesItsDirectoriesOwnerOnlyAndEveryFileInThem() throws Exception {
        Path dir = tmp.resolve("a/b/dump");
        new DumpUnit(config(dir).withCompress(Compression.GZIP)).run();
        for (Path d : List.of(tmp.resolve("a"), tmp.resolve("a/b"), dir)) {
            assertEquals(OWNER_DIR, mode(d), d.toString());
        }
        Map<String, String> modes = fileModes(dir);
        assertTrue(modes.keySet().containsAll(List.of(DumpFileNames.METADATA, FileManifest.NAME,
                DB + "-schema-create.sql.gz", DB + ".t-schema.sql.gz", DB + ".v-schema-view.sql.gz",
                DB + ".t.000000001.sql.gz")), modes.toString());
        modes.forEach((name, mode) -> assertEquals(OWNER_FILE, mode, name));
    }

    @Test
    void aLockFreeDumpsPlanAndJournalAreOwnerOnlyToo() throws Exception {
        Path dir = tmp.resolve("lock-free");
        new DumpUnit(config(dir).withConsistency(Consistency.LOCK_FREE)).run();
        assertEquals(OWNER_DIR, mode(dir));
        Map<String, String> modes = fileModes(dir);
        assertTrue(modes.keySet().containsAll(List.of(DumpFileNames.METADATA, FileManifest.NAME, ChunkPlan.NAME,
                ChunkJournal.NAME, DB + ".t.000000001.sql")), modes.toString());
        modes.forEach((name, mode) -> assertEquals(OWNER_FILE, mode, name));
    }

    /**
     * Files of the dump's names that an earlier run (or someone else) left, writable by all, give way
     * to files of this dump's own; a directory the user made keeps the mode they gave it.
     */
    @Test
    void filesLeftInTheDirectoryGiveWayToOwnerOnlyOnes() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("existing"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
        for (String name : List.of(DumpFileNames.METADATA + ".tmp", FileManifest.NAME + ".tmp",
                DB + ".t.000000001.sql", DB + ".t-schema.sql")) {
            Files.writeString(dir.resolve(name), "left over");
            Files.setPosixFilePermissions(dir.resolve(name), PosixFilePermissions.fromString("rw-rw-rw-"));
        }
        new DumpUnit(config(dir)).run();
        assertEquals("rwxr-x---", mode(dir));
        Map<String, String> modes = fileModes(dir);
        assertFalse(modes.containsKey(DumpFileNames.METADATA + ".tmp"), modes.toString());
        assertTrue(modes.containsKey(DB + ".t.000000001.sql"), modes.toString());
        modes.forEach((name, mode) -> assertEquals(OWNER_FILE, mode, name));
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    private static Map<String, String> fileModes(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                out.put(f.getFileName().toString(), mode(f));
            }
        }
        return out;
    }
}
