package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.sql.TableName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadPlanTest {
    private static DumpDirectory.DataFile file(String table, int index, long size) {
        String name = "db." + table + "." + String.format("%09d", index) + ".sql";
        return new DumpDirectory.DataFile(new TableName("db", table), name, Path.of(name), index, "", size);
    }

    /**
     * LOAD DATA groups: a whole table each when there are as many tables as workers, a share of the
     * table when there are fewer, never more than MAX_GROUP_BYTES, and only consecutive files not begun.
     */
    @Test
    void groupsAreATablesConsecutiveFilesNotBegunUpToItsShareOfThePoolAndTheByteCap() throws Exception {
        List<DumpDirectory.DataFile> files = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            files.add(file("one", i, 1000));
        }
        FileQueue four = FileQueue.of(LoadPlan.order(files, Map.of()), 4);
        List<List<Long>> groups = new ArrayList<>();
        DumpDirectory.DataFile f;
        while ((f = four.next()) != null) {
            List<Long> g = new ArrayList<>(List.of(f.index()));
            four.claimFollowing(f, x -> true).forEach(x -> g.add(x.index()));
            groups.add(g);
        }
        assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L), List.of(5L, 6L), List.of(7L, 8L)), groups,
                "one table, four workers: a quarter each");

        long big = BulkLoader.MAX_GROUP_BYTES / 2 - 1;
        List<DumpDirectory.DataFile> large = List.of(file("t", 1, big), file("t", 2, big), file("t", 3, big));
        FileQueue one = FileQueue.of(large, 1);
        DumpDirectory.DataFile first = one.next();
        assertEquals(List.of(2L), one.claimFollowing(first, x -> true).stream().map(DumpDirectory.DataFile::index)
                .toList(), "the third file would pass the byte cap");

        List<DumpDirectory.DataFile> three = List.of(file("a", 1, 10), file("a", 2, 10), file("a", 3, 10));
        FileQueue begun = FileQueue.of(three, 1);
        DumpDirectory.DataFile a1 = begun.next();
        assertEquals(List.of(), begun.claimFollowing(a1, x -> x.index() != 2),
                "a begun file ends the group: groups are consecutive");
        assertEquals(2L, begun.next().index());
    }

    @Test
    void smallTablesGoInTheFirstRoundAndFinishedFilesAreLeftOut() {
        List<DumpDirectory.DataFile> files = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            files.add(file("big", i, 1_000_000));
        }
        files.add(file("small", 1, 10));
        files.add(file("mid", 1, 5000));
        files.add(file("mid", 2, 5000));
        Map<String, LoaderCheckpoint.Row> done = Map.of("db.big.000000002.sql",
                new LoaderCheckpoint.Row("db.big.000000002.sql", 100, 100, LoaderCheckpoint.FINISHED),
                "db.mid.000000001.sql", new LoaderCheckpoint.Row("db.mid.000000001.sql", 10, 0, LoaderCheckpoint.LOADING));
        List<String> order = LoadPlan.order(files, done).stream().map(DumpDirectory.DataFile::name).toList();
        assertEquals(List.of("db.big.000000001.sql", "db.mid.000000001.sql", "db.small.000000001.sql",
                "db.big.000000003.sql", "db.mid.000000002.sql", "db.big.000000004.sql", "db.big.000000005.sql",
                "db.big.000000006.sql"), order);
    }

    @Test
    void scanReadsJdmDumplingAndMydumperNamesAndAppliesTheFilter(@TempDir Path dir) throws Exception {
        for (String f : new String[] {"metadata", "d-schema-create.sql", "d.t-schema.sql", "d.t.000000001.sql",
                "d.t.000000002.sql.gz", "d.u.sql", "d.u-schema.sql", "d.v-schema-view.sql", "d.we%2Eird.00001.sql.zst",
                "d.skip.000000001.sql", "notes.txt"}) {
            Files.writeString(dir.resolve(f), "");
        }
        DumpDirectory d = DumpDirectory.scan(dir, (db, t) -> !t.equals("skip"));
        assertEquals(List.of("d"), new ArrayList<>(d.databases().keySet()));
        assertEquals(List.of("d.t.000000001.sql", "d.t.000000002.sql.gz", "d.u.sql", "d.we%2Eird.00001.sql.zst"),
                d.data().stream().map(DumpDirectory.DataFile::name).sorted().toList());
        assertTrue(d.data().stream().anyMatch(f -> f.source().table().equals("we.ird") && f.compression().equals(".zst")));
        assertEquals(2, d.tables().size());
        assertEquals(1, d.views().size());
    }

    @Test
    void scanReadsOlderJdmAtNamesByTheirManifest(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("d.we@003bird.000000001.sql"), "");
        Files.writeString(dir.resolve(FileManifest.NAME), "# jdm data files: crc32c size rows name\n"
                + "00000000 0 0 d.we@003bird.000000001.sql\n");
        DumpDirectory d = DumpDirectory.scan(dir, (db, t) -> true);
        assertEquals(List.of("we;ird"), d.data().stream().map(f -> f.source().table()).toList());
    }

    @Test
    void scanNamesEachSqlFileItDoesNotApply(@TempDir Path dir) throws Exception {
        for (String f : new String[] {"metadata", "notes.txt", "d.t-schema.sql", "d.t-schema-triggers.sql",
                "d-schema-post.sql.gz", "d.s-schema-sequence.sql", "p-placement-policy-create.sql", "extra.sql"}) {
            Files.writeString(dir.resolve(f), "");
        }
        assertEquals(List.of(
                "skipping d-schema-post.sql.gz: its functions, procedures and events are not created; run the file on "
                        + "the target after the load",
                "skipping d.s-schema-sequence.sql: its sequences are not created; run the file on the target before "
                        + "the load",
                "skipping d.t-schema-triggers.sql: its triggers are not created; run the file on the target after the "
                        + "load",
                "skipping extra.sql: not a file of Dumpling's, mydumper's or jdm's layout; load it by hand if it "
                        + "belongs to the dump",
                "skipping p-placement-policy-create.sql: placement policies are not created; run the file on the TiDB "
                        + "target before the load"),
                DumpDirectory.scan(dir, (db, t) -> true).skipped());
    }
}
