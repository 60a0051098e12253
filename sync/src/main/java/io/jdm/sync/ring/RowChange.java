package io.jdm.sync.ring;

/**
 * One row change, decoded and converted to canonical values (one per source column, generated
 * columns included). Immutable once published: writers keep references past the ring slot.
 *
 * @param before the old image (UPDATE, DELETE), else null
 * @param after the new image (INSERT, UPDATE), else null
 * @param eventMillis the source's event timestamp, for lag
 */
public record RowChange(TableInfo table, Kind kind, Object[] before, Object[] after, ChangePos pos,
                        long eventMillis) {

    public enum Kind { INSERT, UPDATE, DELETE }

    /** The image that carries the row's current identity in the target (before for UPDATE/DELETE). */
    public Object[] oldImage() {
        return kind == Kind.INSERT ? after : before;
    }
}
