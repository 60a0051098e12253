package io.jdm.dump;

import io.jdm.embedded.Seq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.Consistency;
import io.jdm.common.dumpdir.ChunkJournal;
import io.jdm.common.dumpdir.ChunkPlan;
import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.dumpdir.DumpListener;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.FatalException;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * consistency lock-free: every chunk in its own snapshot, recorded once in {@code jdm-chunks} with
 * its binlog LOW/HIGH, the plan persisted first; a rerun over an incomplete one resumes it.
 */
class LockFreeDumpIT {
    private static final String DB = "LockFreeDumpIT";
    private static SqlServer source;

    @TempDir
    Path tmp;

    @BeforeEach
    void setUp() {
        source = TestServers.shared().source();
        source.freshDatabase(DB);
        source.execute("USE `" + DB + "`",
                "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO a SELECT seq, CONCAT('v', seq) FROM " + Seq.upTo(3000),
                "CREATE TABLE b (k VARCHAR(10) NOT NULL, n INT NOT NULL, x INT, UNIQUE KEY (k, n))",
                "INSERT INTO b SELECT CONCAT('k', seq % 7), seq, seq FROM " + Seq.upTo(2000),
                "ANALYZE TABLE a, b");
    }

    private DumpConfig config(Path dir) {
        return DumpConfig.defaults("lf", DumpTestSupport.spec(source), dir)
                .withTableFilter((db, tbl) -> db.equals(DB)).withThreads(2).withRows(400)
                .withConsistency(Consistency.LOCK_FREE);
    }

    @Test
    void everyChunkIsRecordedOnceWithItsFilesAndTheMetadataHasTheLowestLow() throws Exception {
        Path dir = tmp.resolve("d");
        DumpResult r = new DumpUnit(config(dir)).run();
        ChunkPlan plan = ChunkPlan.readFrom(dir).orElseThrow();
        int planned = plan.tables().stream().mapToInt(t -> t.conditions().size()).sum();
        assertTrue(planned >= 8, "both tables chunked: " + planned);
        List<ChunkJournal.Done> done = ChunkJournal.readFrom(dir);
        assertChunksOnceAndFilesExactly(dir, plan, done);
        DumpMetadata m = DumpMetadata.readFrom(dir).orElseThrow();
        assertEquals("lock-free", m.consistency());
        assertEquals(ChunkJournal.lowest(done).orElseThrow(), m.position());
        assertEquals(m.position(), r.position());
        for (ChunkJournal.Done d : done) {
            assertTrue(d.low().compareTo(d.high()) <= 0, d.toString());
        }
        assertSameRowsAfterLoading(dir);
    }

    @Test
    void aRerunKeepsTheFinishedChunksAndDumpsOnlyTheOthers() throws Exception {
        Path dir = tmp.resolve("d");
        new DumpUnit(config(dir)).run();
        List<ChunkJournal.Done> all = ChunkJournal.readFrom(dir);
        // as if killed: no metadata nor jdm-files, half the chunks recorded, a partial file of an unfinished one
        Files.delete(dir.resolve("metadata"));
        Files.delete(dir.resolve(FileManifest.NAME));
        List<ChunkJournal.Done> kept = all.subList(0, all.size() / 2);
        List<String> lines = Files.readAllLines(dir.resolve(ChunkJournal.NAME), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(ChunkJournal.NAME), String.join("\n", lines.subList(0, kept.size())) + "\n"
                + lines.get(kept.size()).substring(0, 20), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(DB + ".a.000000099.sql"), "INSERT INTO `a` VALUES (1,");
        Map<String, Long> keptFiles = new HashMap<>();
        for (ChunkJournal.Done d : kept) {
            for (FileManifest.Entry f : d.files()) {
                keptFiles.put(f.name(), Files.getLastModifiedTime(dir.resolve(f.name())).toMillis());
                Files.setLastModifiedTime(dir.resolve(f.name()), java.nio.file.attribute.FileTime.fromMillis(1000));
            }
        }
        source.execute("UPDATE `" + DB + "`.a SET v = 'after' WHERE id % 100 = 0");

        DumpUnit rerun = new DumpUnit(config(dir));
        rerun.run();
        List<ChunkJournal.Done> done = ChunkJournal.readFrom(dir);
        assertEquals(kept, done.subList(0, kept.size()), "the finished chunks stay as recorded");
        assertEquals(all.size() - kept.size(), rerun.metrics().chunksDone(), "only the others are dumped again");
        for (String f : keptFiles.keySet()) {
            assertEquals(1000, Files.getLastModifiedTime(dir.resolve(f)).toMillis(), f + " was not rewritten");
        }
        assertFalse(Files.exists(dir.resolve(DB + ".a.000000099.sql")), "a partial file is removed");
        assertChunksOnceAndFilesExactly(dir, ChunkPlan.readFrom(dir).orElseThrow(), done);
        assertEquals(ChunkJournal.lowest(done).orElseThrow(), DumpMetadata.readFrom(dir).orElseThrow().position());
        assertTrue(FileManifest.readFrom(dir).orElseThrow().entries().keySet().containsAll(keptFiles.keySet()));
    }

    @Test
    void aRerunWithOtherSettingsRefusesToResumeInOneLine() throws Exception {
        Path dir = tmp.resolve("d");
        new DumpUnit(config(dir)).run();
        Files.delete(dir.resolve("metadata"));
        FatalException e = assertThrows(FatalException.class, () -> new DumpUnit(config(dir).withRows(300)).run());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("was begun with rows=400"), e.getMessage());
    }

    @Test
    void autoGoesLockFreeForAUserWithoutReloadNorLockTables() throws Exception {
        source.execute("CREATE USER IF NOT EXISTS 'lockfree_dump'@'127.0.0.1' IDENTIFIED BY 'pw'",
                "GRANT SELECT, SHOW VIEW, " + source.binlogMonitorPrivilege() + " ON *.* TO 'lockfree_dump'@'127.0.0.1'");
        Path dir = tmp.resolve("auto");
        DumpConfig c = config(dir).withConsistency(Consistency.AUTO);
        c = new DumpConfig(c.task(), c.sourceId(), io.jdm.common.jdbc.ConnectionSpec.of(source.host(), source.port(),
                "lockfree_dump", "pw"), dir, c.mydumper(), c.tableFilter(), c.tableWhere());
        DumpResult r = new DumpUnit(c).run();
        assertEquals("lock-free", DumpMetadata.readFrom(dir).orElseThrow().consistency());
        assertEquals(ChunkJournal.lowest(ChunkJournal.readFrom(dir)).orElseThrow(), r.position());
        assertSameRowsAfterLoading(dir);
    }

    @Test
    void aTableAlteredWhileItsChunksAreReadStopsTheDumpInOneLine() {
        Path dir = tmp.resolve("d");
        AtomicBoolean altered = new AtomicBoolean();
        DumpListener alterOnFirstFile = new DumpListener() {
            @Override
            public void schemaWritten(String fileName) {
            }

            @Override
            public boolean dataWritten(FileManifest.Entry file, long timeout, TimeUnit unit) {
                if (altered.compareAndSet(false, true)) {
                    source.execute("ALTER TABLE `" + DB + "`.a ADD COLUMN extra INT DEFAULT 7");
                }
                return true;
            }

            @Override
            public void completed(DumpMetadata metadata) {
            }
        };
        FatalException e = assertThrows(FatalException.class,
                () -> new DumpUnit(config(dir).withThreads(1), alterOnFirstFile).run());
        assertTrue(altered.get());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("`" + DB + "`.`a` changed (columns or dropped) during the lock-free dump"),
                e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));
    }

    @Test
    void aResumeRefusesATableAlteredSinceThePlanWasMade() throws Exception {
        Path dir = tmp.resolve("d");
        new DumpUnit(config(dir)).run();
        Files.delete(dir.resolve("metadata"));
        source.execute("ALTER TABLE `" + DB + "`.b ADD COLUMN extra INT");
        FatalException e = assertThrows(FatalException.class, () -> new DumpUnit(config(dir)).run());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("`" + DB + "`.`b` changed"), e.getMessage());
        assertTrue(e.getMessage().contains("delete " + dir), e.getMessage());
    }

    @Test
    void aDamagedJournalIsNamedInOneLineWithWhatToDo() throws Exception {
        Path dir = tmp.resolve("d");
        new DumpUnit(config(dir)).run();
        Files.delete(dir.resolve("metadata"));
        Files.writeString(dir.resolve(ChunkJournal.NAME), "{\"schema\": \"x\" \"table\"}\n",
                java.nio.file.StandardOpenOption.APPEND);
        FatalException e = assertThrows(FatalException.class, () -> new DumpUnit(config(dir)).run());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().matches("task lf dump: .*: jdm-chunks line \\d+ cannot be read \\(.*\\); delete the dump"
                + " directory and dump again"), e.getMessage());
    }

    @Test
    void aFinishedChunksFileThatIsGoneStopsTheResumeInOneLine() throws Exception {
        Path dir = tmp.resolve("d");
        new DumpUnit(config(dir)).run();
        Files.delete(dir.resolve("metadata"));
        String gone = ChunkJournal.readFrom(dir).get(0).files().get(0).name();
        Files.delete(dir.resolve(gone));
        FatalException e = assertThrows(FatalException.class, () -> new DumpUnit(config(dir)).run());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains(gone + " of a finished chunk"), e.getMessage());
    }

    @Test
    void tablesWithoutAKeyAreRefusedByName() {
        source.execute("CREATE TABLE `" + DB + "`.loose (a INT, b INT)", "CREATE TABLE `" + DB + "`.loose2 (c INT)");
        Path dir = tmp.resolve("d");
        FatalException e = assertThrows(FatalException.class, () -> new DumpUnit(config(dir)).run());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("`" + DB + "`.`loose`, `" + DB + "`.`loose2` have none"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata")));
        assertFalse(Files.exists(dir.resolve(ChunkPlan.NAME)), "no plan is written for a refused dump");
    }

    @Test
    void aFlushDumpOverAnIncompleteLockFreeOneStartsOver() throws Exception {
        Path dir = tmp.resolve("d");
        new DumpUnit(config(dir)).run();
        Files.delete(dir.resolve("metadata"));
        new DumpUnit(config(dir).withConsistency(Consistency.FLUSH)).run();
        assertFalse(Files.exists(dir.resolve(ChunkPlan.NAME)));
        assertFalse(Files.exists(dir.resolve(ChunkJournal.NAME)));
        assertEquals("flush", DumpMetadata.readFrom(dir).orElseThrow().consistency());
    }

    /** Each planned chunk is in the journal once, and the data files are exactly the journal's. */
    private static void assertChunksOnceAndFilesExactly(Path dir, ChunkPlan plan, List<ChunkJournal.Done> done)
            throws Exception {
        Set<String> chunks = new HashSet<>();
        Set<String> files = new TreeSet<>();
        for (ChunkJournal.Done d : done) {
            assertTrue(chunks.add(d.schema() + "." + d.table() + "#" + d.chunk()), "chunk recorded twice: " + d);
            d.files().forEach(f -> assertTrue(files.add(f.name()), "file in two chunks: " + f));
        }
        Set<String> expected = new HashSet<>();
        plan.tables().forEach(t -> {
            for (int i = 1; i <= t.conditions().size(); i++) {
                expected.add(t.schema() + "." + t.table() + "#" + i);
            }
        });
        assertEquals(expected, chunks);
        Set<String> onDisk = new TreeSet<>();
        for (String n : DumpTestSupport.fileNames(dir)) {
            DumpFileNames.parse(n).filter(p -> p.kind() == DumpFileNames.Kind.DATA).ifPresent(p -> onDisk.add(n));
        }
        assertEquals(files, onDisk);
    }

    private static void assertSameRowsAfterLoading(Path dir) throws Exception {
        SqlServer target = TestServers.shared().target();
        DumpTestSupport.load(dir, target);
        for (String t : List.of("a", "b")) {
            assertEquals(DumpTestSupport.rows(source, new TableName(DB, t)),
                    DumpTestSupport.rows(target, new TableName(DB, t)), t);
        }
    }
}
