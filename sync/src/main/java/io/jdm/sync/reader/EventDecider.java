package io.jdm.sync.reader;

import io.jdm.common.config.Action;
import io.jdm.common.config.EventType;

/**
 * Decides what happens to one binlog event: DM's {@code filters}. Called for every rows event
 * (with a null statement) and every DDL statement (one table's statement after DROP/RENAME lists
 * are split). {@link Action#IGNORE} skips the event, {@link Action#ERROR} stops the task.
 */
@FunctionalInterface
public interface EventDecider {
    /** Applies everything. */
    EventDecider ALWAYS_DO = (db, table, type, sql) -> Action.DO;

    /**
     * @param table empty for CREATE/DROP DATABASE
     * @param type the event's own type (insert, update, delete, or a DDL kind)
     * @param sql the DDL statement as the source ran it; null for row events
     */
    Action decide(String db, String table, EventType type, String sql);
}
