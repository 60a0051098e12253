package io.jdm.sync.writer;

import io.jdm.sync.ring.RowChange;

/**
 * A change waiting in a writer's batch, possibly merged from several (compact): {@code before} is
 * the row as the target has it now, {@code after} the row as it must become. {@code replaces}
 * marks an UPDATE merged from a DELETE and a later INSERT of the same identity: the target may not
 * hold {@code before} (the deleted row may itself have been inserted earlier in the batch), so it
 * is written as an upsert or REPLACE, never as a plain UPDATE. {@code eventMillis} is when the
 * source logged the change (its binlog event's time), for what is told of it after the commit.
 */
record Pending(RowChange.Kind kind, io.jdm.sync.ring.TableInfo table, Object[] before, Object[] after,
               String[] keys, boolean replaces, long eventMillis) {

    Pending(RowChange.Kind kind, io.jdm.sync.ring.TableInfo table, Object[] before, Object[] after, String[] keys) {
        this(kind, table, before, after, keys, false);
    }

    /** A change made by the writer (merged, or split for its statement): no binlog event time of its own. */
    Pending(RowChange.Kind kind, io.jdm.sync.ring.TableInfo table, Object[] before, Object[] after, String[] keys,
            boolean replaces) {
        this(kind, table, before, after, keys, replaces, 0);
    }

    static Pending of(RowChange c, String[] keys) {
        return new Pending(c.kind(), c.table(), c.before(), c.after(), keys, false, c.eventMillis());
    }

    /** True for an UPDATE that leaves the identity key as it was (it can become an upsert). */
    boolean keepsIdentity() {
        if (kind != RowChange.Kind.UPDATE) {
            return false;
        }
        for (int i : table.identity()) {
            if (!java.util.Objects.deepEquals(before[i], after[i])) {
                return false;
            }
        }
        return true;
    }
}
