package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The files of a dump still being written, where they load as LOAD DATA: a table's files wait for
 * its last one, unless the dump waits for the load, and a finished table's files go at once.
 */
class ArrivingFilesTest {
    private static DumpDirectory.DataFile file(String table, int index) {
        String name = "db." + table + "." + String.format("%09d", index) + ".sql";
        return new DumpDirectory.DataFile(new TableName("db", table), name, Path.of(name), index, "", 100);
    }

    private static final LoadJob JOB = new LoadJob(LoadConfig.of("t", "s", ConnectionSpec.of("127.0.0.1", 1, "u", ""),
            Path.of(".")), new LoadMetrics("t", "s"));

    @Test
    void aTablesFilesWaitForItsLastOneUnlessTheDumpWaits() throws Exception {
        AtomicBoolean dumpWaits = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();
        ArrivingFiles files = new ArrivingFiles(JOB, f -> { }, taken::addAndGet, dumpWaits::get, () -> true);
        files.add(file("a", 1));
        files.add(file("a", 2));
        files.add(file("b", 1));
        files.add(file("b", 2));
        files.add(file("b", 3));
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            files.tableWritten(new TableName("db", "a"));
        });
        closer.start();
        long t0 = System.nanoTime();
        DumpDirectory.DataFile first = files.next(); // held until a is written, though b is bigger
        assertEquals("db.a.000000001.sql", first.name());
        assertEquals(true, System.nanoTime() - t0 >= 250_000_000L, "handed out before the table was written");
        assertEquals(List.of("db.a.000000002.sql"), files.claimFollowing(first, f -> true).stream()
                .map(DumpDirectory.DataFile::name).toList());
        assertEquals(2, taken.get(), "the files a worker took, its group's included");

        dumpWaits.set(true); // b is not written, but the dump waits for the load: b goes as far as it is
        DumpDirectory.DataFile b = files.next();
        assertEquals("db.b.000000001.sql", b.name());
        assertEquals(2, files.claimFollowing(b, f -> true).size());

        dumpWaits.set(false);
        files.add(file("c", 1));
        files.close(); // the dump is complete: nothing is held
        assertEquals("db.c.000000001.sql", files.next().name());
        assertNull(files.next());
        assertEquals(6, taken.get(), "every file handed out counted once");
    }

    @Test
    void aWrittenTableGoesAsOneGroupFromItsFirstFileWhateverOrderItsFilesCameIn() throws Exception {
        ArrivingFiles files = new ArrivingFiles(JOB, f -> { }, n -> { }, () -> false, () -> true);
        for (int i : new int[] {2, 3, 1, 5, 4}) { // two dump threads finish the chunks out of order
            files.add(file("a", i));
        }
        files.add(file("b", 1));
        List<List<String>> groups = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        List<Thread> workers = new java.util.ArrayList<>();
        for (int w = 0; w < 4; w++) { // the pool's workers all wake when the table is written
            Thread t = new Thread(() -> {
                try {
                    List<DumpDirectory.DataFile> g = files.nextGroup(f -> true);
                    if (!g.isEmpty()) {
                        groups.add(g.stream().map(DumpDirectory.DataFile::name).toList());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            workers.add(t);
        }
        Thread.sleep(200);
        files.tableWritten(new TableName("db", "a"));
        Thread.sleep(200);
        files.close();
        for (Thread t : workers) {
            t.join(5000);
        }
        assertEquals(List.of(List.of("db.a.000000001.sql", "db.a.000000002.sql", "db.a.000000003.sql",
                "db.a.000000004.sql", "db.a.000000005.sql"), List.of("db.b.000000001.sql")), groups,
                "one group fills the empty table; the other workers get none of its files");
    }

    @Test
    void toldToHoldNoFileGoesWhileATableIsBeingCreated() throws Exception {
        ArrivingFiles files = new ArrivingFiles(JOB, f -> { }, n -> { }, () -> false, () -> false);
        files.add(file("a", 1));
        files.creationBegan(); // not told to hold yet: a file goes beside the creation
        assertEquals("db.a.000000001.sql", files.next().name());

        files.holdWhileCreating();
        files.add(file("a", 2));
        files.creationBegan(); // two creations now
        Thread ender = new Thread(() -> {
            try {
                Thread.sleep(200);
                files.creationEnded();
                Thread.sleep(200);
                files.creationEnded();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ender.start();
        long t0 = System.nanoTime();
        assertEquals("db.a.000000002.sql", files.next().name());
        assertEquals(true, System.nanoTime() - t0 >= 350_000_000L, "handed out while a table was being created");
        ender.join();

        files.add(file("a", 3));
        files.creationBegan();
        files.close(); // nothing more is created once the following ended: the rest goes
        assertEquals("db.a.000000003.sql", files.next().name());
        assertNull(files.next());
    }
}
