package io.jdm.common.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransactionRollbackException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The classification table: which target errors a retry can outlive, as DM sorts TiDB's. */
class ErrorClassifierTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "9007 | Write conflict, txnStartTS=1, conflictStartTS=2                         | true",
        "8005 | Write Conflict, txnStartTS is stale                                      | true",
        "8022 | Error: KV error safe to retry                                            | true",
        "8027 | Information schema is out of date                                        | true",
        "8028 | Information schema is changed during the execution of the statement      | true",
        "8245 | TiDB error                                                               | true",
        "9001 | PD server timeout                                                        | true",
        "9002 | TiKV server timeout                                                      | true",
        "9003 | TiKV server is busy                                                      | true",
        "9004 | Resolve lock timeout                                                     | true",
        "9005 | Region is unavailable                                                    | true",
        "9006 | GC life time is shorter than transaction duration                        | true",
        "1213 | Deadlock found when trying to get lock                                   | true",
        "1205 | Lock wait timeout exceeded; try restarting transaction                   | true",
        "2013 | Lost connection to server during query                                   | true",
        "1105 | Information schema is out of date: schema failed to update in 1 lease    | true",
        "1105 | [domain:8028]Information schema is changed during the execution          | true",
        "1105 | unknown error: region epoch not match                                    | false",
        "8004 | Transaction is too large, size: 104857600                                | false",
        "8025 | entry too large, the max entry size is 6291456, the size of data is 7000 | false",
        "1146 | Table 'db.t' doesn't exist                                               | false",
        "1054 | Unknown column 'x' in 'field list'                                       | false",
        "1062 | Duplicate entry '1' for key 'PRIMARY'                                    | false",
        "1366 | Incorrect integer value                                                  | false",
    })
    void sortsTargetErrors(int code, String message, boolean retriable) {
        SQLException e = new SQLException(message, "HY000", code);
        assertEquals(retriable, ErrorClassifier.isRetriable(e), code + " " + message);
        assertEquals(retriable, ErrorClassifier.isRetriable(new RuntimeException("wrapped", e)));
        assertEquals(retriable, ErrorClassifier.wrap("ctx", e).isRetriable());
    }

    @Test
    void sqlStatesAndDriverFamiliesStayRetriable() {
        assertTrue(ErrorClassifier.isRetriable(new SQLException("link failure", "08S01", 0)));
        assertTrue(ErrorClassifier.isRetriable(new SQLTransactionRollbackException("deadlock", "40001", 0)));
        assertTrue(ErrorClassifier.isRetriable(new EOFException("stream ended")));
        assertFalse(ErrorClassifier.isRetriable(new IllegalStateException("bug")));
    }

    /** The chains seen from Connector/J 9 (host check, CA check) and from the JDK's handshake (binlog). */
    @Test
    void aRefusedServerCertificateIsFatalAndSaysWhatToDo() {
        SQLException jdbc = new SQLRecoverableException("Communications link failure\n\nThe last packet ...", "08S01", 0,
                new IOException("wrapped", new CertificateException("Server identity verification failed. None of"
                        + " the certificate's DNS or IP Subject Alternative Name entries matched the server"
                        + " hostname/IP '127.0.0.1'.")));
        assertFalse(ErrorClassifier.isRetriable(jdbc));
        assertFalse(ErrorClassifier.isRetriable((Throwable) jdbc));
        assertEquals("TLS: the server's certificate does not name the host connected to (Server identity"
                + " verification failed. None of the certificate's DNS or IP Subject Alternative Name entries"
                + " matched the server hostname/IP '127.0.0.1'.); connect by a name or address the certificate"
                + " holds, or set ssl-verify-host: false in that server's security section to check only that"
                + " ssl-ca issued it", ErrorClassifier.oneLine(jdbc));
        SSLHandshakeException binlog = new SSLHandshakeException("No subject alternative names matching IP address"
                + " 127.0.0.1 found");
        binlog.initCause(new CertificateException("No subject alternative names matching IP address 127.0.0.1 found"));
        assertFalse(ErrorClassifier.isRetriable(binlog));
        assertTrue(ErrorClassifier.oneLine(binlog).startsWith("TLS: the server's certificate does not name the host"
                + " connected to (No subject alternative names matching IP address 127.0.0.1 found); "));
        SSLHandshakeException ca = new SSLHandshakeException("PKIX path building failed");
        ca.initCause(new CertificateException(new CertPathValidatorException("Path does not chain with any of the"
                + " trust anchors")));
        assertEquals("TLS: the server's certificate was not issued by a CA in ssl-ca (Path does not chain with any of"
                + " the trust anchors); set ssl-ca to the CA that issued it", ErrorClassifier.oneLine(
                        new RuntimeException(ca)));
        // Not in a handshake: a certificate that could not be read is not the server's refused
        IllegalArgumentException unread = new IllegalArgumentException("bad PEM", new CertificateException("x"));
        assertEquals("bad PEM", ErrorClassifier.oneLine(unread));
    }

    @Test
    void reasonIsTheCodeOfTheFirstSqlError() {
        SQLException e = new SQLException("Write conflict", "HY000", 9007);
        assertEquals(9007, ErrorClassifier.code(new RuntimeException(e)));
        assertEquals("9007", ErrorClassifier.reason(new RuntimeException(e)));
        assertEquals("io", ErrorClassifier.reason(new EOFException()));
        assertEquals("other", ErrorClassifier.reason(new IllegalStateException()));
        assertTrue(ErrorClassifier.isTxnTooLarge(new SQLException("too large", "HY000", 8004)));
        assertTrue(ErrorClassifier.isEntryTooLarge(new RuntimeException(new SQLException("x", "HY000", 8025))));
    }
}
