package io.jdm.common.error;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * Sorts failures into retriable and fatal, once, by SQLState and vendor code. Every unit asks this
 * class rather than keeping its own list.
 */
public final class ErrorClassifier {
    /** Vendor codes that a retry can outlive. */
    private static final Set<Integer> RETRIABLE_CODES = Set.of(
            1205, // ER_LOCK_WAIT_TIMEOUT
            1213, // ER_LOCK_DEADLOCK
            1040, // ER_CON_COUNT_ERROR (too many connections)
            1053, // ER_SERVER_SHUTDOWN
            2002, 2003, 2006, 2013, 2055, // client: can't connect, gone away, lost connection
            1927, // MariaDB ER_CONNECTION_KILLED
            1158, 1159, 1160, 1161, // network read/write errors and timeouts
            8002, 8022, 8027, 8028, // TiDB: write conflicts, schema changed, infoschema changed
            9001, 9002, 9005, 9006, 9007); // TiDB: PD/TiKV unavailable, server is busy, write conflict

    private ErrorClassifier() {
    }

    public static boolean isRetriable(Throwable t) {
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
        if (e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
            return true;
        }
        if (RETRIABLE_CODES.contains(e.getErrorCode())) {
            return true;
        }
        String state = e.getSQLState();
        // 08xxx: connection exceptions; 40001: serialization failure / deadlock.
        return state != null && (state.startsWith("08") || state.equals("40001"));
    }

    /** True for a duplicate-key error (1062), which load and sync treat specially. */
    public static boolean isDuplicateKey(SQLException e) {
        return e.getErrorCode() == 1062;
    }

    /** True when the server refused for lack of a privilege or a wrong password. */
    public static boolean isAccessDenied(SQLException e) {
        int c = e.getErrorCode();
        return c == 1044 || c == 1045 || c == 1142 || c == 1143 || c == 1227 || c == 1370;
    }

    /** Wraps a throwable into the right family with a one-line message. */
    public static JdmException wrap(String context, Throwable t) {
        if (t instanceof JdmException j) {
            return j;
        }
        String msg = context + ": " + oneLine(t);
        return isRetriable(t) ? new RetriableException(msg, t) : new FatalException(msg, t);
    }

    /** The innermost useful message of a cause chain, on one line. */
    public static String oneLine(Throwable t) {
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
