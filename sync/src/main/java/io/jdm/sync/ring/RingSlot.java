package io.jdm.sync.ring;

/**
 * A pre-allocated ring entry. The reader fills {@link #change} or {@link #ddl}; the causality
 * stage fills the routing fields; writers only read. Disruptor's sequence barriers publish the
 * writes between stages.
 */
public final class RingSlot {
    public RowChange change;
    public DdlChange ddl;
    /** The writer that applies the change: a pure function of the change (see ChangeKeys). */
    public int route;
    /** Every writer commits and waits for the others before handling this slot. */
    public boolean drainBefore;
    /** Already applied by an earlier run: writers pass it by. */
    public boolean skip;
    /** Key strings of the change (table-qualified), for compaction. */
    public String[] keys;

    public void set(RowChange c) {
        change = c;
        ddl = null;
        reset();
    }

    public void set(DdlChange d) {
        change = null;
        ddl = d;
        reset();
    }

    private void reset() {
        route = 0;
        drainBefore = false;
        skip = false;
        keys = null;
    }

    public ChangePos pos() {
        return change != null ? change.pos() : ddl.pos();
    }

    public long eventMillis() {
        return change != null ? change.eventMillis() : ddl.eventMillis();
    }
}
