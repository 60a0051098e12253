package io.jdm.sync.checkpoint;

import io.jdm.sync.ring.ChangePos;
import java.util.List;

/**
 * Decides, on a restart, whether a change read again was already applied by an earlier run: yes
 * if the writer it routed to in any stored generation committed past it. Old generations (from
 * runs with another worker-count) are kept until the global checkpoint passes them.
 */
public final class AppliedFilter {
    private final List<Generation> generations;
    private final ChangePos horizon;

    public AppliedFilter(List<Generation> generations) {
        this.generations = List.copyOf(generations);
        this.horizon = generations.stream().map(Generation::max).filter(java.util.Objects::nonNull)
                .max(ChangePos::compareTo).orElse(null);
    }

    public static AppliedFilter none() {
        return new AppliedFilter(List.of());
    }

    public boolean applied(ChangePos pos, int keyHash) {
        if (horizon == null || pos.isAfter(horizon)) {
            return false; // past every stored position: the common case, one comparison
        }
        for (Generation g : generations) {
            if (g.applied(pos, keyHash)) {
                return true;
            }
        }
        return false;
    }

    /** The last position any stored writer reached; beyond it nothing was applied. */
    public ChangePos horizon() {
        return horizon;
    }
}
