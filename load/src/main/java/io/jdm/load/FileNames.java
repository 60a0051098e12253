package io.jdm.load;

/**
 * The rule for the character set of every file the load runs, data or schema: utf8mb4 unless the
 * file's first statement is its own {@code SET NAMES} (Dumpling and mydumper begin every file with
 * {@code SET NAMES binary}; jdm's own files with {@code SET NAMES utf8mb4}). A connection keeps what
 * the previous file set, so the default is run anew for each file that does not set its own.
 * One per file read.
 */
final class FileNames {
    /** The character set of a file that sets none. */
    static final String DEFAULT = "SET NAMES utf8mb4";

    private boolean pending = true;

    /**
     * The statement to run before the file's statement {@code sql}: {@link #DEFAULT} before its first
     * statement unless that is a {@code SET NAMES}; otherwise null.
     */
    String before(String sql) {
        if (!pending) {
            return null;
        }
        pending = false;
        return SqlText.isSetNames(sql) ? null : DEFAULT;
    }

    /** At the file's end, or before its rows: {@link #DEFAULT} if the file had no statement before; otherwise null. */
    String beforeRows() {
        return before("");
    }
}
