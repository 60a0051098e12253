package io.jdm.sync.reader;

/**
 * A statement that is a DDL sync applies (by its head) but that the grammar cannot read. Never
 * passed by: the caller, which knows the binlog position, stops the task with it.
 */
final class UnreadableDdlException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final int SHOWN = 200;

    private final String statement;

    UnreadableDdlException(String sql, String why) {
        super(why, null, false, false);
        this.statement = sql;
    }

    /** The statement on one line, shortened to what a log line can hold. */
    String shortStatement() {
        String one = DdlPlanner.oneLine(statement);
        return one.length() <= SHOWN ? one : one.substring(0, SHOWN - 3) + "...";
    }
}
