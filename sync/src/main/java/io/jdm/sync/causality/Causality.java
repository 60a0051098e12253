package io.jdm.sync.causality;

import com.lmax.disruptor.EventHandler;
import io.jdm.sync.checkpoint.AppliedFilter;
import io.jdm.sync.ring.PipelineCounters;
import io.jdm.sync.ring.RingSlot;
import io.jdm.sync.ring.RowChange;
import io.jdm.sync.ring.WriterProgress;
import java.util.HashMap;
import java.util.Map;

/**
 * The ring's first consumer. For each change: its keys, its route (hash of the first key), whether
 * an earlier run already applied it (then it is skipped), and whether it must wait for a drain:
 * when one of its keys was last touched by another writer that has not committed it yet. Rows of
 * one key therefore reach the target in binlog order. DDL always drains, and is skipped when an
 * earlier run already applied it (a restart reads the DDL's transaction again).
 */
public final class Causality implements EventHandler<RingSlot> {
    /** Past this many tracked keys, committed ones are swept; if still too many, the next change drains. */
    private static final int MAX_TRACKED = 1 << 18;
    /**
     * The fewest tracked keys at which committed ones are swept. A committed key can no longer cause
     * a drain, so sweeping it changes no decision; sweeping early (at twice what the last sweep
     * left, from this on) lets a key's entry die young. Swept only at MAX_TRACKED, the entries of
     * a live load lived for seconds: copied by every young collection until promoted (measured: 14
     * MB of survivors a collection, a sync's young pauses 43 ms at the median).
     */
    static final int SWEEP_FROM = 1 << 13;

    private record Owner(int writer, long seq) {
    }

    private final int writers;
    private final WriterProgress progress;
    private final AppliedFilter applied;
    private final PipelineCounters counters;
    private Map<String, Owner> owners = new HashMap<>();
    /** The most keys tracked since {@link #owners} was made: a HashMap keeps the table it grew to. */
    private int grown;
    private int sweepAt = SWEEP_FROM;
    private boolean drainNext;

    public Causality(int writers, WriterProgress progress, AppliedFilter applied, PipelineCounters counters) {
        this.writers = writers;
        this.progress = progress;
        this.applied = applied;
        this.counters = counters;
    }

    @Override
    public void onEvent(RingSlot slot, long seq, boolean endOfBatch) {
        if (slot.progress != null) {
            slot.skip = true; // a boundary only moves the writers' positions
            return;
        }
        counters.events.increment();
        if (slot.ddl != null) {
            slot.drainBefore = true;
            // applying a DDL moves every writer's row to it in one transaction: any writer can tell
            slot.skip = applied.applied(slot.ddl.pos(), 0);
            forgetAll();
            drainNext = false;
            return;
        }
        RowChange c = slot.change;
        String[] keys = KeyHasher.keys(c);
        int hash = KeyHasher.hash(keys[0]);
        slot.keys = keys;
        slot.route = KeyHasher.route(hash, writers);
        if (applied.applied(c.pos(), hash)) {
            slot.skip = true;
            counters.skipped.increment();
            return;
        }
        if (drainNext || conflicts(keys, slot.route)) {
            slot.drainBefore = true;
            counters.drains.increment();
            forgetAll();
            drainNext = false;
        }
        Owner me = new Owner(slot.route, seq);
        for (String k : keys) {
            owners.put(k, me);
        }
        if (owners.size() > sweepAt) {
            grown = Math.max(grown, owners.size()); // between sweeps the map only grows, or is cleared
            boolean full = owners.size() > MAX_TRACKED;
            owners.values().removeIf(o -> o.seq <= progress.sequence(o.writer));
            if (full) {
                drainNext = owners.size() > MAX_TRACKED / 2;
            }
            sweepAt = Math.min(MAX_TRACKED, Math.max(SWEEP_FROM, 2 * owners.size()));
            shrinkIfSparse();
        }
    }

    /** After a drain every key is committed: none is tracked. */
    private void forgetAll() {
        grown = Math.max(grown, owners.size());
        owners.clear();
        sweepAt = SWEEP_FROM;
        shrinkIfSparse();
    }

    /**
     * A map once grown far past what it now holds is made again: sweeping and clearing walk the whole
     * table, not only its entries.
     */
    private void shrinkIfSparse() {
        if (grown > 4 * SWEEP_FROM && owners.size() < grown / 8) {
            owners = new HashMap<>(owners);
            grown = owners.size();
        }
    }

    /** Exposed for tests: how many keys are tracked. */
    int tracked() {
        return owners.size();
    }

    private boolean conflicts(String[] keys, int route) {
        for (String k : keys) {
            Owner o = owners.get(k);
            if (o != null && o.writer != route && o.seq > progress.sequence(o.writer)) {
                return true;
            }
        }
        return false;
    }

    /** Exposed for tests: the writer a change goes to among {@code writers}. */
    public static int routeOf(RowChange c, int writers) {
        return KeyHasher.route(KeyHasher.hash(KeyHasher.keys(c)[0]), writers);
    }

    /** The stable hash of a change's first key, as the applied filter needs it. */
    public static int hashOf(RowChange c) {
        return KeyHasher.hash(KeyHasher.keys(c)[0]);
    }
}
