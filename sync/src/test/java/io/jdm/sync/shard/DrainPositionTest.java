package io.jdm.sync.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.common.filter.ExtraColumns;
import io.jdm.sync.ring.ChangePos;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where a restarted source's spools are drained: a quiet source stands at the boundary the last
 * run's writers reached, where a drain would be taken for a change already applied.
 */
class DrainPositionTest {
    private final ShardCoordinator shards = new ShardCoordinator(null, "m", "t", "s1", List.of("s1", "s2"), false,
            t -> ExtraColumns.NONE);

    @Test
    void aDrainAtTheLastRunsBoundaryGoesJustPastIt() {
        ChangePos boundary = new ChangePos("b.000001", 900, -1, -1, "0-1-38");
        shards.drainAfter(boundary);
        ChangePos at = shards.drainPosition(boundary);
        assertEquals(new ChangePos("b.000001", 900, -1, 0, "0-1-38"), at);
        assertEquals(1, at.compareTo(boundary));
        // still before the next transaction, whose changes sit at that offset with the same GTIDs before them
        assertEquals(-1, at.compareTo(new ChangePos("b.000001", 900, 0, 0, "0-1-38")));
        // a restart after such a drain goes past it again
        shards.drainAfter(at);
        assertEquals(new ChangePos("b.000001", 900, -1, 1, "0-1-38"), shards.drainPosition(boundary));
    }

    @Test
    void otherBoundariesKeepTheirPlace() {
        ChangePos last = new ChangePos("b.000001", 900, 3, 0, "0-1-38"); // the last run's last change
        shards.drainAfter(last);
        ChangePos before = new ChangePos("b.000001", 700, -1, -1, "0-1-37");
        assertEquals(before, shards.drainPosition(before), "read again: drains wait for a later boundary");
        ChangePos after = new ChangePos("b.000001", 1000, -1, -1, "0-1-38");
        assertEquals(after, shards.drainPosition(after));
        shards.drainAfter(null);
        assertEquals(before, shards.drainPosition(before));
    }
}
