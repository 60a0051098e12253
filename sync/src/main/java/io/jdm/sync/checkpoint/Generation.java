package io.jdm.sync.checkpoint;

import io.jdm.sync.ring.ChangePos;
import java.util.Arrays;

/**
 * The committed positions of one set of writers (one run's worker-count). Writer {@code w}'s
 * position says: every change routed to {@code w} at or before it is applied, none after.
 */
public record Generation(int id, ChangePos[] positions) {

    public int workerCount() {
        return positions.length;
    }

    /** True when the writer this change routes to (under this generation's count) has applied it. */
    public boolean applied(ChangePos pos, int keyHash) {
        ChangePos p = positions[Math.floorMod(keyHash, positions.length)];
        return p != null && !pos.isAfter(p);
    }

    public ChangePos min() {
        return Arrays.stream(positions).filter(java.util.Objects::nonNull).min(ChangePos::compareTo).orElse(null);
    }

    public ChangePos max() {
        return Arrays.stream(positions).filter(java.util.Objects::nonNull).max(ChangePos::compareTo).orElse(null);
    }
}
