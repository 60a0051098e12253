package io.jdm.common.dumpdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class DumpFeedTest {
    private static FileManifest.Entry file(int n) {
        return file(n, 100);
    }

    private static FileManifest.Entry file(int n, long size) {
        return new FileManifest.Entry(String.format("d.t.%09d.sql", n), 0, size, 1);
    }

    @Test
    void eventsComeInAnnouncedOrderAndTheDumpWaitsOnceMaxAheadBytesAreNotLoaded() throws Exception {
        DumpFeed feed = new DumpFeed(250);
        feed.schemaWritten("d-schema-create.sql");
        feed.schemaWritten("d.t-schema.sql");
        assertTrue(feed.dataWritten(file(1), 1, TimeUnit.SECONDS));
        assertTrue(feed.dataWritten(file(2, 140), 1, TimeUnit.SECONDS));
        assertTrue(feed.dataWritten(file(4, 10), 1, TimeUnit.SECONDS), "240 bytes waiting held the dump");
        assertFalse(feed.dataWritten(file(3), 50, TimeUnit.MILLISECONDS), "a file went past the bound");
        assertEquals(List.of(new DumpFeed.SchemaFile("d-schema-create.sql"), new DumpFeed.SchemaFile("d.t-schema.sql"),
                new DumpFeed.DataFile(file(1)), new DumpFeed.DataFile(file(2, 140)), new DumpFeed.DataFile(file(4, 10))),
                feed.take(1, TimeUnit.SECONDS));
        assertFalse(feed.dataWritten(file(3), 50, TimeUnit.MILLISECONDS), "taking is not loading");

        CountDownLatch waiting = new CountDownLatch(1);
        AtomicBoolean accepted = new AtomicBoolean();
        Thread dump = new Thread(() -> {
            try {
                waiting.countDown();
                accepted.set(feed.dataWritten(file(3), 30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        dump.start();
        assertTrue(waiting.await(10, TimeUnit.SECONDS));
        feed.fileLoaded(file(1).name());
        dump.join(TimeUnit.SECONDS.toMillis(30));
        assertTrue(accepted.get(), "a loaded file did not let the waiting dump go on");
        assertEquals(List.of(new DumpFeed.DataFile(file(3))), feed.take(1, TimeUnit.SECONDS));
        assertEquals(3, feed.mostAhead());
        assertEquals(250, feed.mostAheadBytes());
        assertEquals(1, feed.filesLoaded());
        assertThrows(IllegalStateException.class, () -> feed.fileLoaded(file(1).name()), "loaded twice");
        assertThrows(IllegalStateException.class, () -> feed.fileLoaded("d.t.000000009.sql"), "never announced");
        feed.filesBegun(1);
        feed.filesBegun(2); // a worker took a group of two: both begun, neither finished
        assertEquals(-1, feed.begunWhenComplete(), "counted before the dump completed");

        DumpMetadata meta = new DumpMetadata(LocalDateTime.of(2026, 1, 1, 0, 0), LocalDateTime.of(2026, 1, 1, 0, 1),
                null, "none");
        feed.completed(meta);
        assertEquals(1, feed.loadedWhenComplete());
        assertEquals(3, feed.begunWhenComplete());
        feed.filesBegun(1);
        assertEquals(3, feed.begunWhenComplete(), "a file begun after the dump completed counted as before it");
        assertEquals(List.of(new DumpFeed.Complete(meta)), feed.take(1, TimeUnit.SECONDS));
        assertEquals(List.of(), feed.take(10, TimeUnit.MILLISECONDS));
    }

    @Test
    void aClosedFeedLetsTheDumpGoOnAndTakesNothingMore() throws Exception {
        DumpFeed feed = new DumpFeed(1);
        assertTrue(feed.dataWritten(file(1), 1, TimeUnit.SECONDS));
        Thread dump = new Thread(() -> {
            try {
                feed.dataWritten(file(2), 30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        dump.start();
        feed.close();
        dump.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(dump.isAlive(), "the dump still waits for a load that is gone");
        assertTrue(feed.dataWritten(file(3), 0, TimeUnit.MILLISECONDS));
        assertEquals(List.of(), feed.take(10, TimeUnit.MILLISECONDS));
        assertEquals(1, feed.mostAhead());
    }
}
