package io.jdm.sync.causality;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import io.jdm.sync.checkpoint.AppliedFilter;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.PipelineCounters;
import io.jdm.sync.ring.RingSlot;
import io.jdm.sync.ring.RowChange;
import io.jdm.sync.ring.TableInfo;
import io.jdm.sync.ring.WriterProgress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ring's causality stage: which changes must wait for a drain, and what it keeps meanwhile. */
class CausalityTest {
    private static final int WRITERS = 4;
    private static final TableInfo T = TableInfo.of(new TableSchema(new TableName("d", "t"), List.of(
            new Column("id", 1, "int", "int", false, false, null, null),
            new Column("v", 2, "int", "int", true, false, null, null)),
            List.of("id"), List.of()), new TableName("d", "t"));

    private final WriterProgress progress = new WriterProgress(WRITERS);
    private final Causality causality = new Causality(WRITERS, progress, AppliedFilter.none(), new PipelineCounters());
    private long seq;

    /** Publishes {@code c} to the stage as the ring's next slot and returns the slot. */
    private RingSlot next(RowChange c) {
        RingSlot slot = new RingSlot();
        slot.set(c, 0);
        causality.onEvent(slot, seq++, true);
        return slot;
    }

    private RowChange insert(long id) {
        return new RowChange(T, RowChange.Kind.INSERT, null, new Object[] {id, 0L}, pos(), 0);
    }

    private RowChange moveKey(long from, long to) {
        return new RowChange(T, RowChange.Kind.UPDATE, new Object[] {from, 0L}, new Object[] {to, 0L}, pos(), 0);
    }

    private ChangePos pos() {
        return new ChangePos("bin.000001", 4 + seq, 0, 0, "");
    }

    /**
     * A live load touches ever new keys, each committed soon after: their entries are swept once the
     * stage tracks a few thousand, not kept until a quarter million (where they outlived young
     * collections and were copied by each).
     */
    @Test
    void keysOnceCommittedAreNotKeptForLong() {
        int most = 0;
        for (long id = 0; id < 100_000; id++) {
            long s = seq;
            RingSlot slot = next(insert(id));
            assertFalse(slot.drainBefore, "no key of another writer is pending");
            progress.committed(slot.route, s, null);
            most = Math.max(most, causality.tracked());
        }
        assertTrue(most <= 2 * Causality.SWEEP_FROM + 2, "tracked at most " + most);
    }

    /** Sweeping drops committed keys only: a key another writer has not committed yet still drains. */
    @Test
    void aKeyPendingOnAnotherWriterStillDrainsAfterSweeps() {
        long a = 1_000_000;
        long b = a + 1;
        while (Causality.routeOf(insert(b), WRITERS) == Causality.routeOf(insert(a), WRITERS)) {
            b++;
        }
        RingSlot pending = next(insert(b)); // its writer does not commit it
        assertNotEquals(Causality.routeOf(insert(a), WRITERS), pending.route);
        for (long id = 0; id < 3 * Causality.SWEEP_FROM; id++) {
            long s = seq;
            RingSlot slot = next(insert(id));
            if (slot.route != pending.route) {
                progress.committed(slot.route, s, null);
            } else {
                assertFalse(slot.drainBefore);
            }
        }
        assertTrue(next(moveKey(a, b)).drainBefore, "the row moved onto b must wait for b's insert");
    }
}
