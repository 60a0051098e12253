package io.jdm.sync.reader;

/**
 * The status-variable block of a QUERY event, as the source wrote it: the session the statement
 * ran in, still as numbers (collation ids, sql_mode bits, a locale number); the {@link SessionResolver}
 * names them. Codes and lengths follow MySQL 5.7/8.x ({@code libbinlogevents statement_events.h})
 * and MariaDB 10.x/11.x ({@code sql/log_event.h}). The lengths differ per code, so one code not
 * known here makes the rest of the block unreadable: {@link #unknownCode} then says which, and the
 * statement cannot be replayed faithfully.
 */
final class StatusVars {
    static final int Q_FLAGS2_CODE = 0;
    static final int Q_SQL_MODE_CODE = 1;
    /** Written by 5.0.0 – 5.0.3 only: length, string, NUL. */
    static final int Q_CATALOG_CODE = 2;
    static final int Q_AUTO_INCREMENT = 3;
    static final int Q_CHARSET_CODE = 4;
    static final int Q_TIME_ZONE_CODE = 5;
    static final int Q_CATALOG_NZ_CODE = 6;
    static final int Q_LC_TIME_NAMES_CODE = 7;
    static final int Q_CHARSET_DATABASE_CODE = 8;
    static final int Q_TABLE_MAP_FOR_UPDATE_CODE = 9;
    static final int Q_MASTER_DATA_WRITTEN_CODE = 10;
    static final int Q_INVOKER = 11;
    static final int Q_UPDATED_DB_NAMES = 12;
    static final int Q_MICROSECONDS = 13;
    static final int Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP = 16;
    static final int Q_DDL_LOGGED_WITH_XID = 17;
    static final int Q_DEFAULT_COLLATION_FOR_UTF8MB4 = 18;
    static final int Q_SQL_REQUIRE_PRIMARY_KEY = 19;
    static final int Q_DEFAULT_TABLE_ENCRYPTION = 20;
    static final int Q_HRNOW = 128;
    static final int Q_XID = 129;
    static final int Q_GTID_FLAGS3 = 130;
    static final int Q_CHARACTER_SET_COLLATIONS = 131;
    /** MariaDB: padding written by debug builds; ends the block. */
    static final int Q_DUMMY = 255;

    /** Q_UPDATED_DB_NAMES count meaning "too many databases to list": no names follow. */
    private static final int OVER_MAX_DBS_IN_EVENT_MTS = 254;
    /** Gtid_log_event FL_COMMIT_ALTER_E1 | FL_ROLLBACK_ALTER_E1: an 8-byte start-alter sequence follows. */
    private static final int FLAGS3_WITH_SEQ_NO = 4 | 8;

    static final long OPTION_AUTO_IS_NULL = 1L << 14;
    static final long OPTION_NOT_AUTOCOMMIT = 1L << 19;
    static final long OPTION_NO_FOREIGN_KEY_CHECKS = 1L << 26;
    static final long OPTION_RELAXED_UNIQUE_CHECKS = 1L << 27;

    Long flags2;
    Long sqlMode;
    Integer autoIncrementIncrement;
    Integer autoIncrementOffset;
    Integer clientCharset;
    Integer collationConnection;
    Integer collationServer;
    String timeZone;
    Integer lcTimeNames;
    Integer collationDatabase;
    /** Fractional seconds of the statement's start: MySQL's Q_MICROSECONDS or MariaDB's Q_HRNOW. */
    Integer microseconds;
    Boolean explicitDefaultsForTimestamp;
    Integer defaultCollationForUtf8mb4;
    Boolean sqlRequirePrimaryKey;
    Boolean defaultTableEncryption;
    /** MariaDB character_set_collations: pairs (charset's primary collation id, collation id). */
    int[] characterSetCollations;
    /** The first code this decoder does not know, or -1. */
    int unknownCode = -1;
    /** Offset of {@link #unknownCode} inside the block. */
    int unknownAt = -1;

    /** Decodes {@code len} bytes of {@code b} from {@code off}. */
    static StatusVars decode(byte[] b, int off, int len) {
        StatusVars v = new StatusVars();
        Reader r = new Reader(b, off, off + len);
        while (r.pos < r.end) {
            int at = r.pos - off;
            int code = r.u8();
            switch (code) {
                case Q_FLAGS2_CODE -> v.flags2 = r.uint(4);
                case Q_SQL_MODE_CODE -> v.sqlMode = r.uint(8);
                case Q_CATALOG_CODE -> r.skip(r.u8() + 1);
                case Q_AUTO_INCREMENT -> {
                    v.autoIncrementIncrement = (int) r.uint(2);
                    v.autoIncrementOffset = (int) r.uint(2);
                }
                case Q_CHARSET_CODE -> {
                    v.clientCharset = (int) r.uint(2);
                    v.collationConnection = (int) r.uint(2);
                    v.collationServer = (int) r.uint(2);
                }
                case Q_TIME_ZONE_CODE -> v.timeZone = r.string(r.u8());
                case Q_CATALOG_NZ_CODE -> r.skip(r.u8());
                case Q_LC_TIME_NAMES_CODE -> v.lcTimeNames = (int) r.uint(2);
                case Q_CHARSET_DATABASE_CODE -> v.collationDatabase = (int) r.uint(2);
                case Q_TABLE_MAP_FOR_UPDATE_CODE, Q_DDL_LOGGED_WITH_XID, Q_XID -> r.skip(8);
                case Q_MASTER_DATA_WRITTEN_CODE -> r.skip(4);
                case Q_INVOKER -> {
                    r.skip(r.u8());
                    r.skip(r.u8());
                }
                case Q_UPDATED_DB_NAMES -> {
                    int n = r.u8();
                    for (int i = 0; n != OVER_MAX_DBS_IN_EVENT_MTS && i < n; i++) {
                        r.skipZeroTerminated();
                    }
                }
                case Q_MICROSECONDS, Q_HRNOW -> v.microseconds = (int) r.uint(3);
                case Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP -> v.explicitDefaultsForTimestamp = r.u8() != 0;
                case Q_DEFAULT_COLLATION_FOR_UTF8MB4 -> v.defaultCollationForUtf8mb4 = (int) r.uint(2);
                case Q_SQL_REQUIRE_PRIMARY_KEY -> v.sqlRequirePrimaryKey = r.u8() != 0;
                case Q_DEFAULT_TABLE_ENCRYPTION -> v.defaultTableEncryption = r.u8() != 0;
                case Q_GTID_FLAGS3 -> {
                    if ((r.u8() & FLAGS3_WITH_SEQ_NO) != 0) {
                        r.skip(8);
                    }
                }
                case Q_CHARACTER_SET_COLLATIONS -> {
                    int n = r.u8();
                    int[] pairs = new int[2 * n];
                    for (int i = 0; i < pairs.length; i++) {
                        pairs[i] = (int) r.uint(2);
                    }
                    v.characterSetCollations = pairs;
                }
                case Q_DUMMY -> r.pos = r.end;
                default -> {
                    v.unknownCode = code;
                    v.unknownAt = at;
                    return v;
                }
            }
        }
        return v;
    }

    /** Little-endian reads inside the block; reading past its end is a corrupt event. */
    private static final class Reader {
        private final byte[] b;
        private final int end;
        private int pos;

        Reader(byte[] b, int pos, int end) {
            this.b = b;
            this.pos = pos;
            this.end = end;
        }

        int u8() {
            need(1);
            return b[pos++] & 0xFF;
        }

        long uint(int n) {
            need(n);
            long v = 0;
            for (int i = 0; i < n; i++) {
                v |= (long) (b[pos++] & 0xFF) << (8 * i);
            }
            return v;
        }

        String string(int n) {
            need(n);
            String s = new String(b, pos, n, java.nio.charset.StandardCharsets.US_ASCII);
            pos += n;
            return s;
        }

        void skip(int n) {
            need(n);
            pos += n;
        }

        void skipZeroTerminated() {
            while (u8() != 0) {
                // a database name; not needed here
            }
        }

        private void need(int n) {
            if (pos + n > end) {
                throw new IllegalArgumentException("the status variables of a QUERY event end inside a value "
                        + "(at byte " + pos + ", " + n + " more needed, block ends at " + end + ")");
            }
        }
    }
}
