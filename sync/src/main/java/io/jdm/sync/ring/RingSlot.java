package io.jdm.sync.ring;

/**
 * A pre-allocated ring entry. The reader fills {@link #change} or {@link #ddl}; the causality
 * stage fills the routing fields; writers only read. Disruptor's sequence barriers publish the
 * writes between stages.
 */
public final class RingSlot {
    public RowChange change;
    public DdlChange ddl;
    /** Neither change nor DDL: the reader passed this transaction boundary (see ChangeSink.progress). */
    public ChangePos progress;
    /** The writer that applies the change: a pure function of the change (see ChangeKeys). */
    public int route;
    /** Every writer commits and waits for the others before handling this slot. */
    public boolean drainBefore;
    /** Already applied by an earlier run: writers pass it by. */
    public boolean skip;
    /** Key strings of the change (table-qualified), for compaction. */
    public String[] keys;
    /** The change's bytes taken from the {@link ByteBudget}; the writer it is routed to gives them back. */
    public long bytes;

    public void set(RowChange c, long budgetBytes) {
        change = c;
        ddl = null;
        progress = null;
        reset();
        bytes = budgetBytes;
    }

    public void set(DdlChange d) {
        change = null;
        ddl = d;
        progress = null;
        reset();
    }

    public void set(ChangePos boundary) {
        change = null;
        ddl = null;
        progress = boundary;
        reset();
    }

    private void reset() {
        route = 0;
        drainBefore = false;
        skip = false;
        keys = null;
        bytes = 0;
    }

    public ChangePos pos() {
        return change != null ? change.pos() : ddl != null ? ddl.pos() : progress;
    }

    public long eventMillis() {
        return change != null ? change.eventMillis() : ddl != null ? ddl.eventMillis() : 0;
    }
}
