package io.jdm.common.config;

/**
 * When the load adds a table's secondary indexes after its rows rather than creating them with the
 * table ({@code loaders.*.defer-indexes}): building an index once from all the rows is cheaper than
 * inserting every row into it, for a table large enough; for a small table the ALTER TABLE it then
 * takes costs more than it saves.
 */
public enum DeferIndexes {
    /** {@code false}: every table is created with its indexes. */
    NEVER,
    /** {@code true}: every table's secondary indexes are added after its rows. */
    ALWAYS,
    /** {@code auto}: the indexes of a table of {@code fromBytes} or more are added after its rows. */
    LARGE_TABLES;

    /**
     * Whether a table of {@code bytes} has its indexes added after its rows.
     *
     * @param bytes the table's size; negative when not known, which {@link #LARGE_TABLES} takes as small
     * @param fromBytes the size from which {@link #LARGE_TABLES} defers
     */
    public boolean defers(long bytes, long fromBytes) {
        return switch (this) {
            case NEVER -> false;
            case ALWAYS -> true;
            case LARGE_TABLES -> bytes >= 0 && bytes >= fromBytes;
        };
    }

    /** As a task file writes it. */
    public String text() {
        return switch (this) {
            case NEVER -> "false";
            case ALWAYS -> "true";
            case LARGE_TABLES -> "auto";
        };
    }
}
