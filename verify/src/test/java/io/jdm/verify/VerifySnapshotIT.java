package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.error.FatalException;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.verify.VerifyReport.Result;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --snapshot}: the source is compared as of one position P while it keeps being written, and
 * the target once the caller says it has passed P.
 */
class VerifySnapshotIT {
    private static final String DB = "verify_snapshot";
    private static final TableName T = new TableName(DB, "live");
    private static VerifyItSupport it;

    @BeforeAll
    static void servers() {
        it = new VerifyItSupport();
    }

    @BeforeEach
    void table() throws SQLException {
        it.pair.source().freshDatabase(DB);
        it.pair.target().freshDatabase(DB);
        it.both("CREATE TABLE " + T.quoted() + " (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO " + T.quoted() + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        it.onSource("INSERT INTO " + T.quoted() + " VALUES (4, 'written before P')");
    }

    private VerifyConfig config(SnapshotOptions s) {
        return VerifyConfig.of(it.source, it.target, List.of(TablePair.same(T))).withThreads(2).withSnapshot(s);
    }

    private static void quietly(Sql sql) {
        try {
            sql.run();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private interface Sql {
        void run() throws SQLException;
    }

    @Test
    void sourceIsReadAtPAndTargetAfterItCaughtUp() {
        List<BinlogPosition> asked = new ArrayList<>();
        AtomicInteger polls = new AtomicInteger();
        SnapshotOptions s = SnapshotOptions.waitFor(p -> {
            asked.add(p);
            if (polls.incrementAndGet() < 3) {
                return false;
            }
            // Replication catches up to P; meanwhile the source moves on past P.
            quietly(() -> it.onTarget("INSERT INTO " + T.quoted() + " VALUES (4, 'written before P')"));
            quietly(() -> it.onSource("INSERT INTO " + T.quoted() + " VALUES (5, 'written after P')",
                    "UPDATE " + T.quoted() + " SET v = 'changed after P' WHERE id = 1"));
            return true;
        }, Duration.ofSeconds(20));
        VerifyReport r = new Verifier(config(s)).run();
        assertEquals(Result.MATCH, r.table(T).result(), r.renderTable());
        assertEquals(4, r.table(T).rowsSource(), "the snapshot holds the rows up to P only");
        assertNotNull(r.snapshotPosition());
        assertEquals(r.snapshotPosition(), asked.get(0));
        assertTrue(polls.get() >= 3);

        // Without the snapshot the rows written after P are seen, so the same data differs.
        VerifyReport plain = new Verifier(config(SnapshotOptions.NONE)).run();
        assertEquals(Result.DIFFERENT, plain.table(T).result(), plain.renderTable());
        assertEquals(1, plain.table(T).missing());
        assertEquals(1, plain.table(T).changed());
    }

    @Test
    void aChunkThatDiffersIsComparedAgainAtANewSnapshot() {
        AtomicInteger calls = new AtomicInteger();
        // The first round's "caught up" answer is wrong (the target still lacks row 4); the second is right.
        SnapshotOptions s = SnapshotOptions.waitFor(p -> {
            if (calls.incrementAndGet() == 2) {
                quietly(() -> it.onTarget("INSERT INTO " + T.quoted() + " VALUES (4, 'written before P')"));
            }
            return true;
        }, Duration.ofSeconds(20), 2);
        VerifyReport r = new Verifier(config(s)).run();
        assertEquals(2, calls.get(), "one wait per round");
        assertEquals(Result.MATCH, r.table(T).result(), r.renderTable());
        assertEquals(4, r.table(T).rowsTarget());
    }

    @Test
    void aTargetThatNeverCatchesUpFailsWithOneLine() {
        SnapshotOptions s = SnapshotOptions.waitFor(p -> false, Duration.ofMillis(500));
        FatalException e = assertThrows(FatalException.class, () -> new Verifier(config(s)).run());
        assertTrue(e.getMessage().contains("did not reach source position"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }
}
