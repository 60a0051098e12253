package io.jdm.sync.reader;

import io.jdm.common.position.Flavor;
import java.util.StringJoiner;

/**
 * sql_mode as a QUERY event stores it (the session's 8-byte bit set) back to the names SET takes.
 * The bit order is the server's list of mode names ({@code sql_mode_names}); MySQL and MariaDB
 * agree up to bit 31 except bit 4, and differ above it. Bits MySQL 8.0 retired (8 – 17, 28) keep
 * their 5.7 names: an 8.0 server never sets them.
 */
final class SqlModeBits {
    private static final String[] COMMON = {
        "REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", null, "ONLY_FULL_GROUP_BY",
        "NO_UNSIGNED_SUBTRACTION", "NO_DIR_IN_CREATE", "POSTGRESQL", "ORACLE", "MSSQL", "DB2", "MAXDB",
        "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS", "MYSQL323", "MYSQL40", "ANSI",
        "NO_AUTO_VALUE_ON_ZERO", "NO_BACKSLASH_ESCAPES", "STRICT_TRANS_TABLES", "STRICT_ALL_TABLES",
        "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ALLOW_INVALID_DATES", "ERROR_FOR_DIVISION_BY_ZERO", "TRADITIONAL",
        "NO_AUTO_CREATE_USER", "HIGH_NOT_PRECEDENCE", "NO_ENGINE_SUBSTITUTION", "PAD_CHAR_TO_FULL_LENGTH",
    };
    private static final String[] MYSQL = with(COMMON, 4, null, "TIME_TRUNCATE_FRACTIONAL");
    private static final String[] MARIADB = with(COMMON, 4, "IGNORE_BAD_TABLE_OPTIONS", "EMPTY_STRING_IS_NULL",
            "SIMULTANEOUS_ASSIGNMENT", "TIME_ROUND_FRACTIONAL");

    private SqlModeBits() {
    }

    private static String[] with(String[] base, int bit, String name, String... above) {
        String[] out = new String[base.length + above.length];
        System.arraycopy(base, 0, out, 0, base.length);
        out[bit] = name;
        System.arraycopy(above, 0, out, base.length, above.length);
        return out;
    }

    /**
     * The names of the set bits, comma-separated.
     *
     * @throws IllegalArgumentException naming a set bit this flavour has no mode for
     */
    static String names(long bits, Flavor flavor) {
        String[] table = flavor == Flavor.MARIADB ? MARIADB : MYSQL;
        StringJoiner j = new StringJoiner(",");
        for (int i = 0; i < 64; i++) {
            if ((bits & (1L << i)) == 0) {
                continue;
            }
            if (i >= table.length || table[i] == null) {
                throw new IllegalArgumentException("sql_mode bit " + i + " (0x" + Long.toHexString(1L << i)
                        + ") has no name on " + flavor);
            }
            j.add(table[i]);
        }
        return j.toString();
    }
}
