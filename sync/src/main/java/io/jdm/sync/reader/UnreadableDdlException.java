package io.jdm.sync.reader;

/**
 * A statement that is a DDL sync applies (by its head) but that the grammar cannot read. Never
 * passed by: the caller, which knows the binlog position, stops the task with it.
 */
final class UnreadableDdlException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final int SHOWN = 200;

    private final String statement;
    private final String reason;

    UnreadableDdlException(String sql, String why) {
        super("sync: cannot read the DDL statement (" + why + "): " + shorten(sql), null, false, false);
        this.statement = sql;
        this.reason = why;
    }

    /** What the grammar found wrong, on one line. */
    String reason() {
        return reason;
    }

    /** The statement on one line, shortened to what a log line can hold. */
    String shortStatement() {
        return shorten(statement);
    }

    static String shorten(String sql) {
        String one = DdlPlanner.oneLine(sql);
        return one.length() <= SHOWN ? one : one.substring(0, SHOWN - 3) + "...";
    }
}
