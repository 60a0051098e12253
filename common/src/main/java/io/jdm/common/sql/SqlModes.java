package io.jdm.common.sql;


/**
 * The sql_mode values jdm's sessions run in. The source's and target's global sql_mode never
 * decide how a value is read or written back.
 */
public final class SqlModes {
    /**
     * Reading the source (dump): the empty mode, as mydumper sets it. {@code SHOW CREATE} follows
     * the session's mode ({@code ANSI_QUOTES} writes double-quoted names, {@code NO_FIELD_OPTIONS},
     * {@code NO_TABLE_OPTIONS} or {@code ORACLE} drop or rewrite parts of a table) and so do values
     * ({@code PAD_CHAR_TO_FULL_LENGTH} pads CHAR).
     */
    public static final String READ = "";

    /**
     * Writing the target (load, sync): strict, so a value the target cannot hold (a narrower column)
     * fails instead of being truncated; explicit 0 kept in AUTO_INCREMENT columns; zero and invalid
     * dates the source holds accepted; backslash escapes and backtick names as the dump writes them.
     */
    public static final String REPLAY = "STRICT_TRANS_TABLES,NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES,"
            + "NO_ENGINE_SUBSTITUTION";

    /**
     * {@link #REPLAY} without strictness: only for a statement that writes an ENUM's index 0 (the
     * empty "error" value a non-strict source session stores), which strict mode refuses.
     */
    public static final String REPLAY_NON_STRICT = "NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES,NO_ENGINE_SUBSTITUTION";

    private SqlModes() {
    }

    /**
     * True when {@code value} is index 0 of an ENUM column: the empty string where {@code ''} is not
     * one of the column's labels (where it is, {@code ''} is a valid label and strict mode takes it).
     */
    public static boolean isEnumErrorValue(TypedColumn column, Object value) {
        return "".equals(value) && "enum".equals(column.dataType()) && !TypedColumn.labels(column.columnType()).contains("");
    }
}
