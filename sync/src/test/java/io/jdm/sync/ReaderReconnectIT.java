package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import io.jdm.sync.reader.BinlogReader;
import io.jdm.sync.reader.ChangeSink;
import io.jdm.sync.reader.EventDecider;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.DdlChange;
import io.jdm.sync.ring.RowChange;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The binlog reader's reconnects, on the one retry policy: a killed binlog dump connection is
 * reopened from the last transaction boundary with no event lost or handed on twice, and what no
 * reconnect can pass (a missing privilege, a purged position) stops the reader at once, in one line,
 * long before the retry budget runs out.
 */
class ReaderReconnectIT {
    private static final Duration BUDGET = Duration.ofSeconds(60);

    @Test
    void aKilledStreamIsReopenedAndLosesNoEvent() throws Exception {
        String db = "reader_reconnect_kill";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        src.freshDatabase(db);
        pair.target().freshDatabase(db);
        String create = "CREATE TABLE " + db + ".t (id BIGINT PRIMARY KEY, v VARCHAR(20))";
        src.execute(create);
        pair.target().execute(create);
        Rows sink = new Rows();
        CompletableFuture<JdmException> failure = new CompletableFuture<>();
        BinlogReader reader = new BinlogReader(settings(spec(src), pair, db, 7301), sourcePosition(src), sink,
                failure::complete);
        reader.start(Duration.ofSeconds(30));
        try {
            for (int round = 0; round < 3; round++) {
                for (int i = 1; i <= 40; i++) {
                    long id = round * 40L + i;
                    src.execute("INSERT INTO " + db + ".t VALUES (" + id + ", 'row " + id + "')");
                }
                if (round < 2) {
                    SyncFaultIT.killBinlogDump(src);
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (sink.ids.size() < 120 && !failure.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertFalse(failure.isDone(), () -> failure.join().getMessage());
            assertEquals(LongStream.rangeClosed(1, 120).boxed().toList(), List.copyOf(sink.ids),
                    "every row once, in binlog order");
            assertEquals(2, reader.reconnects(), "one reconnect per kill");
        } finally {
            reader.stop();
            reader.join(Duration.ofSeconds(10));
        }
    }

    @Test
    void aStreamQuietForLongerThanTheBudgetIsStillReopenedWhenItDrops() throws Exception {
        String db = "reader_reconnect_quiet";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        src.freshDatabase(db);
        src.execute("CREATE TABLE " + db + ".t (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        Rows sink = new Rows();
        CompletableFuture<JdmException> failure = new CompletableFuture<>();
        Duration budget = Duration.ofSeconds(3);
        BinlogReader reader = new BinlogReader(settings(spec(src), pair, db, 7303, budget), sourcePosition(src),
                sink, failure::complete);
        reader.start(Duration.ofSeconds(30));
        try {
            src.execute("INSERT INTO " + db + ".t VALUES (1, 'before')");
            SyncFaultIT.killBinlogDump(src);
            awaitRows(sink, 1, failure);
            Thread.sleep(budget.toMillis() + 2_000); // quiet since that reconnect, heartbeats only, longer than the budget
            SyncFaultIT.killBinlogDump(src);
            src.execute("INSERT INTO " + db + ".t VALUES (2, 'after')");
            awaitRows(sink, 2, failure);
            assertFalse(failure.isDone(), () -> failure.join().getMessage());
            assertEquals(List.of(1L, 2L), List.copyOf(sink.ids), "the row written after the drop arrives");
            assertEquals(2, reader.reconnects());
        } finally {
            reader.stop();
            reader.join(Duration.ofSeconds(10));
        }
    }

    @Test
    void aSourceThatRefusesTheStreamStopsTheReaderAtOnce() throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        for (String host : new String[] {"%", "localhost", "127.0.0.1"}) {
            src.execute("CREATE USER IF NOT EXISTS 'jdm_norepl'@'" + host + "' IDENTIFIED BY 'norepl'",
                    "GRANT SELECT ON *.* TO 'jdm_norepl'@'" + host + "'");
        }
        ConnectionSpec noRepl = ConnectionSpec.of(src.host(), src.port(), "jdm_norepl", "norepl");
        JdmException e = stopsAtOnce(pair, noRepl, sourcePosition(src));
        assertTrue(e.getMessage().contains("refused the binlog stream"), e.getMessage());
        assertTrue(e.getMessage().contains("REPLICATION SLAVE"), e.getMessage());
    }

    @Test
    void aPurgedPositionStopsTheReaderAtOnceAndSaysHowToStartOver() throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        BinlogPosition now = sourcePosition(src);
        String gone = now.file().substring(0, now.file().lastIndexOf('.') + 1) + "999999";
        JdmException e = stopsAtOnce(pair, spec(src), BinlogPosition.of(gone, 4));
        assertTrue(e.getMessage().contains("no longer has it"), e.getMessage());
        assertTrue(e.getMessage().contains("start over"), e.getMessage());
    }

    private static void awaitRows(Rows sink, int n, CompletableFuture<JdmException> failure)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sink.ids.size() < n && !failure.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    /** Starts a reader that must fail with a fatal one-line error, without a reconnect. */
    private static JdmException stopsAtOnce(ServerPair pair, ConnectionSpec source, BinlogPosition from)
            throws Exception {
        CompletableFuture<JdmException> failure = new CompletableFuture<>();
        BinlogReader reader = new BinlogReader(settings(source, pair, "reader_reconnect_none", 7302), from,
                new Rows(), failure::complete);
        long t0 = System.nanoTime();
        reader.start(Duration.ofSeconds(30));
        try {
            JdmException e = failure.get(30, TimeUnit.SECONDS);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertNotNull(e);
            assertInstanceOf(FatalException.class, e, e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
            assertEquals(0, reader.reconnects(), "no reconnect: " + e.getMessage());
            assertTrue(ms < BUDGET.toMillis() / 4, "stopped after " + ms + " ms");
            return e;
        } finally {
            reader.stop();
            reader.join(Duration.ofSeconds(10));
        }
    }

    private static BinlogReader.Settings settings(ConnectionSpec source, ServerPair pair, String db, long serverId) {
        return settings(source, pair, db, serverId, BUDGET);
    }

    private static BinlogReader.Settings settings(ConnectionSpec source, ServerPair pair, String db, long serverId,
                                                  Duration budget) {
        return new BinlogReader.Settings("reconnectit", source, serverId, false, Duration.ofSeconds(1), budget,
                Duration.ofSeconds(1), (d, t) -> d.equals(db), n -> n, spec(pair.target()),
                BinlogReader.scratchSchema("jdm_meta_reconnect", "reconnectit", "s" + serverId),
                EventDecider.ALWAYS_DO, false, "DROP DATABASE jdm_meta_reconnect", null, null, null);
    }

    /** The ids of the rows handed on, in order. */
    private static final class Rows implements ChangeSink {
        final List<Long> ids = new CopyOnWriteArrayList<>();

        @Override
        public void row(RowChange change) {
            ids.add(((Number) change.after()[0]).longValue());
        }

        @Override
        public void ddl(DdlChange ddl) {
        }

        @Override
        public void progress(ChangePos boundary) {
        }
    }
}
