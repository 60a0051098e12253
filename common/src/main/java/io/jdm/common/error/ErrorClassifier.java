package io.jdm.common.error;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_ACCESS_DENIED_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_BAD_DB_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_CON_COUNT_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_COLUMNACCESS_DENIED_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_DBACCESS_DENIED_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_DUP_ENTRY;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_LOCK_DEADLOCK;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_LOCK_WAIT_TIMEOUT;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NET_ERROR_ON_WRITE;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NET_READ_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NET_READ_INTERRUPTED;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NET_WRITE_INTERRUPTED;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NO_SUCH_TABLE;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_PROCACCESS_DENIED_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_SERVER_SHUTDOWN;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_SPECIFIC_ACCESS_DENIED_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_TABLEACCESS_DENIED_ERROR;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Sorts failures into retriable and fatal, once, by SQLState and vendor code. Every unit asks this
 * class rather than keeping its own list.
 */
public final class ErrorClassifier {
    /** Client-side codes (the client library's, not the server's): can't connect, gone away, lost connection. */
    private static final int CR_CONNECTION_ERROR = 2002;
    private static final int CR_CONN_HOST_ERROR = 2003;
    private static final int CR_SERVER_GONE_ERROR = 2006;
    private static final int CR_SERVER_LOST = 2013;
    private static final int CR_SERVER_LOST_EXTENDED = 2055;
    /** MariaDB's ER_CONNECTION_KILLED: the connection was killed (KILL, or the server shutting down). */
    private static final int MARIADB_CONNECTION_KILLED = 1927;

    /**
     * Vendor codes that a retry can outlive: the connection errors, and the TiDB errors that DM's
     * target connections retry (TiDB's dbutil retry list): a conflict or an expired schema aborts
     * the transaction, and running it again from the start succeeds.
     */
    private static final Set<Integer> RETRIABLE_CODES = Set.of(
            ER_LOCK_WAIT_TIMEOUT,
            ER_LOCK_DEADLOCK,
            ER_CON_COUNT_ERROR,
            ER_SERVER_SHUTDOWN,
            CR_CONNECTION_ERROR, CR_CONN_HOST_ERROR, CR_SERVER_GONE_ERROR, CR_SERVER_LOST, CR_SERVER_LOST_EXTENDED,
            MARIADB_CONNECTION_KILLED,
            ER_NET_READ_ERROR, ER_NET_READ_INTERRUPTED, ER_NET_ERROR_ON_WRITE, ER_NET_WRITE_INTERRUPTED,
            8002, // TiDB: SELECT FOR UPDATE write conflict
            8005, // TiDB: write conflict in TiDB (optimistic transaction)
            8022, // TiDB: transaction is retryable
            8027, // TiDB: information schema is out of date
            8028, // TiDB: information schema is changed
            8245, // TiDB: on DM's retry list
            9001, // TiDB: PD server timeout
            9002, // TiDB: TiKV server timeout
            9003, // TiDB: TiKV server is busy
            9004, // TiDB: resolve lock timeout
            9005, // TiDB: region is unavailable
            9006, // TiDB: GC life time is shorter than the transaction duration
            9007); // TiDB: write conflict
    /** ER_UNKNOWN_ERROR: TiDB reports some schema changes under it; only those messages are retried. */
    private static final int UNKNOWN_ERROR = 1105;
    private static final List<String> RETRIABLE_UNKNOWN_MESSAGES = List.of(
            "Information schema is out of date", "Information schema is changed", "schema is changed",
            "schema version changed");
    /** TiDB: transaction is too large (txn-total-size-limit); a smaller transaction passes. */
    public static final int TXN_TOO_LARGE = 8004;
    /** TiDB: entry too large (txn-entry-size-limit): one row or index entry; no retry passes. */
    public static final int ENTRY_TOO_LARGE = 8025;

    private ErrorClassifier() {
    }

    public static boolean isRetriable(Throwable t) {
        if (isCertificateRefused(t)) {
            return false;
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof JdmException j) {
                return j.isRetriable();
            }
            if (c instanceof SQLException s && isRetriable(s)) {
                return true;
            }
            if (c instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    public static boolean isRetriable(SQLException e) {
        if (isCertificateRefused(e)) {
            return false;
        }
        if (e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
            return true;
        }
        if (RETRIABLE_CODES.contains(e.getErrorCode())) {
            return true;
        }
        if (e.getErrorCode() == UNKNOWN_ERROR) {
            String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
            return RETRIABLE_UNKNOWN_MESSAGES.stream().anyMatch(r -> m.contains(r.toLowerCase(Locale.ROOT)));
        }
        String state = e.getSQLState();
        // 08xxx: connection exceptions; 40001: serialization failure / deadlock.
        return state != null && (state.startsWith("08") || state.equals("40001"));
    }

    /** The vendor code of the first SQL error in the cause chain, else 0. */
    public static int code(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException s && s.getErrorCode() != 0) {
                return s.getErrorCode();
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return 0;
    }

    /**
     * Why a retry happened, as a metric label: the vendor code of the SQL error ({@code 9007}), or
     * {@code io} for a lost stream without one, or {@code other}.
     */
    public static String reason(Throwable t) {
        int code = code(t);
        if (code != 0) {
            return String.valueOf(code);
        }
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof IOException || c instanceof SQLRecoverableException) {
                return "io";
            }
        }
        return "other";
    }

    /** True when TiDB refused a transaction as too large (8004): the same changes in smaller transactions pass. */
    public static boolean isTxnTooLarge(Throwable t) {
        return code(t) == TXN_TOO_LARGE;
    }

    /** True when TiDB refused one row or index entry as too large (8025): no retry and no split passes. */
    public static boolean isEntryTooLarge(Throwable t) {
        return code(t) == ENTRY_TOO_LARGE;
    }

    /** True for a duplicate-key error (1062), which load and sync treat specially. */
    public static boolean isDuplicateKey(SQLException e) {
        return e.getErrorCode() == ER_DUP_ENTRY;
    }

    /**
     * True when the server refuses {@code LOAD DATA LOCAL}: its {@code local_infile} is off (1148;
     * MySQL 8's 3948, MariaDB's 4166).
     */
    public static boolean isLocalInfileRefused(SQLException e) {
        int code = e.getErrorCode();
        return code == 1148 || code == 3948 || code == 4166;
    }

    /** True when the statement named a table that does not exist (1146). */
    public static boolean isNoSuchTable(SQLException e) {
        return e.getErrorCode() == ER_NO_SUCH_TABLE;
    }

    /** True when the table or its whole database does not exist (1146, 1049): nothing there to read or undo. */
    public static boolean isNoSuchTableOrDatabase(SQLException e) {
        return isNoSuchTable(e) || e.getErrorCode() == ER_BAD_DB_ERROR;
    }

    /** True when the server refused for lack of a privilege or a wrong password. */
    public static boolean isAccessDenied(SQLException e) {
        int c = e.getErrorCode();
        return c == ER_DBACCESS_DENIED_ERROR || c == ER_ACCESS_DENIED_ERROR
                || c == ER_TABLEACCESS_DENIED_ERROR || c == ER_COLUMNACCESS_DENIED_ERROR
                || c == ER_SPECIFIC_ACCESS_DENIED_ERROR || c == ER_PROCACCESS_DENIED_ERROR;
    }

    /** Wraps a throwable into the right family with a one-line message. */
    public static JdmException wrap(String context, Throwable t) {
        if (t instanceof JdmException j) {
            return j;
        }
        String msg = context + ": " + oneLine(t);
        return isRetriable(t) ? new RetriableException(msg, t) : new FatalException(msg, t);
    }

    /**
     * True when a TLS handshake refused the server's certificate (its CA or its host name): no retry
     * changes a certificate. See {@link CertificateRefusal}.
     */
    public static boolean isCertificateRefused(Throwable t) {
        return CertificateRefusal.oneLine(t).isPresent();
    }

    /**
     * The innermost useful message of a cause chain, on one line; for a refused server certificate,
     * what was refused and what to do.
     */
    public static String oneLine(Throwable t) {
        Optional<String> tls = CertificateRefusal.oneLine(t);
        if (tls.isPresent()) {
            return tls.get();
        }
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c && (c.getMessage() == null
                || c instanceof java.util.concurrent.ExecutionException
                || c.getClass() == RuntimeException.class)) {
            c = c.getCause();
        }
        String m = c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
