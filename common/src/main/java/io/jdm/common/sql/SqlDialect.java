package io.jdm.common.sql;

/**
 * How the server that ran a statement reads its text: the two sql_mode flags that change lexing,
 * and its version, which decides which conditional comments ({@code /*!50100 … *&#47;}) are code.
 *
 * @param ansiQuotes {@code "x"} is an identifier, not a string (sql_mode ANSI_QUOTES)
 * @param noBackslashEscapes a backslash in a string is an ordinary character (NO_BACKSLASH_ESCAPES)
 * @param serverVersion the version as conditional comments write it: 8.0.36 is 80036, 11.4.5 is 110405
 */
public record SqlDialect(boolean ansiQuotes, boolean noBackslashEscapes, long serverVersion) {
    /** MySQL's defaults, on a server new enough to run every conditional comment. */
    public static final SqlDialect DEFAULT = new SqlDialect(false, false, Long.MAX_VALUE);

    public SqlDialect {
        if (serverVersion < 0) {
            throw new IllegalArgumentException("serverVersion: must be >= 0, got " + serverVersion);
        }
    }
}
