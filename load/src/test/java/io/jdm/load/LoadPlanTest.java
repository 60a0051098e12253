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
