package io.jdm.sync.ring;

/**
 * Told of each row change a writer has committed to the target, in the order the writer committed
 * them, from the writer's thread once its transaction (with its checkpoint) went through. Must be
 * quick: it runs on the sync's path. The continuous validator is one.
 */
@FunctionalInterface
public interface CommitListener {
    CommitListener NONE = (kind, table, before, after, eventMillis) -> { };

    /**
     * {@code before} is null for an INSERT, {@code after} for a DELETE; {@code eventMillis} is when
     * the source logged the change (its binlog event's time).
     */
    void committed(RowChange.Kind kind, TableInfo table, Object[] before, Object[] after, long eventMillis);
}
