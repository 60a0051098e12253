package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The schema tracker reads a definition on the one retry policy: a target that cannot be reached
 * for a while is waited for within the budget, and a table whose definition is known nowhere
 * stops the reader at once.
 */
class SchemaTrackerRetryIT {
    private static final String DB = "tracker_retry";
    private static final Duration BUDGET = Duration.ofSeconds(60);

    @Test
    void aTargetThatComesBackIsWaitedFor() throws Exception {
        ServerPair pair = prepare();
        SqlServer tgt = pair.target();
        try (LatePort late = new LatePort(tgt.host(), tgt.port());
             SchemaTracker tracker = tracker(pair, ConnectionSpec.of(tgt.host(), late.port(), tgt.user(),
                     tgt.password()))) {
            late.openAfter(Duration.ofMillis(1500));
            long t0 = System.nanoTime();
            TableSchema s = tracker.schema(new TableName(DB, "t"));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(2, s.columns().size());
            assertTrue(ms >= 1400, "read after " + ms + " ms, before the target could be reached");
            assertTrue(late.accepted() >= 1, "read through the port once it opened");
        }
    }

    @Test
    void aTableKnownNowhereStopsAtOnce() {
        ServerPair pair = prepare();
        SqlServer tgt = pair.target();
        try (SchemaTracker tracker = tracker(pair, spec(tgt))) {
            long t0 = System.nanoTime();
            FatalException e = assertThrows(FatalException.class, () -> tracker.schema(new TableName(DB, "nowhere")));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(e.getMessage().contains("is unknown"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(ms < 10_000, "failed after " + ms + " ms, not at once");
        }
    }

    private static ServerPair prepare() {
        ServerPair pair = TestServers.shared();
        pair.source().freshDatabase(DB);
        pair.target().freshDatabase(DB);
        String create = "CREATE TABLE " + DB + ".t (id INT PRIMARY KEY, v VARCHAR(10))";
        pair.source().execute(create);
        pair.target().execute(create);
        return pair;
    }

    private static SchemaTracker tracker(ServerPair pair, ConnectionSpec target) {
        return new SchemaTracker(target, spec(pair.source()), SchemaTracker.scratchSchema("jdm_meta_trk", "trk", "s"),
                (d, t) -> d.equals(DB), n -> n, BUDGET, DdlGrammar.mariadb());
    }

    private static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), s.user(), s.password());
    }
}
