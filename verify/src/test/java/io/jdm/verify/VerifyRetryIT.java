package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.TableName;
import io.jdm.verify.VerifyReport.Result;
import io.jdm.verify.VerifyReport.TableResult;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chunk's comparison is retried on the one retry policy: a retriable failure (a deadlock) is
 * compared again and the table matches; a failure no retry passes marks the table ERROR with one
 * line after a single try. The failures are raised by the source server itself: the source table
 * is a view whose rows go through a function that signals the error while a sequence says so.
 */
class VerifyRetryIT {
    private static final String DB = "verify_retry";
    private static VerifyItSupport it;
    @TempDir
    Path fixDir;

    @BeforeAll
    static void servers() throws SQLException {
        it = new VerifyItSupport();
        it.pair.source().freshDatabase(DB);
        it.pair.target().freshDatabase(DB);
        it.onSource("CREATE TABLE " + DB + ".base (id INT, v VARCHAR(10))",
                "INSERT INTO " + DB + ".base VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    }

    /** A source view {@code name} over the three rows that fails its first {@code failFirst} reads with {@code errno}. */
    private TableName failing(String name, int failFirst, int errno) throws SQLException {
        TableName t = new TableName(DB, name);
        String reads = DB + "." + name + "_reads";
        String flaky = DB + "." + name + "_flaky";
        // READS SQL DATA: with the binlog on, a function must say it does not write (the sequence is no table)
        it.onSource("CREATE SEQUENCE " + reads + " START WITH 1 NOCACHE",
                "CREATE FUNCTION " + flaky + "() RETURNS INT NOT DETERMINISTIC READS SQL DATA BEGIN IF NEXTVAL(" + reads + ") <= "
                        + failFirst + " THEN SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = " + errno
                        + ", MESSAGE_TEXT = 'injected by the test'; END IF; RETURN 1; END",
                "CREATE VIEW " + t.quoted() + " AS SELECT id, v FROM " + DB + ".base WHERE " + flaky + "() = 1");
        it.onTarget("CREATE TABLE " + t.quoted() + " (id INT, v VARCHAR(10))",
                "INSERT INTO " + t.quoted() + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        return t;
    }

    private static long reads(String name) throws SQLException {
        try (Connection c = DataSources.connect(it.source); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT next_not_cached_value - 1 FROM " + DB + "." + name + "_reads")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private TableResult verify(TableName t) throws Exception {
        VerifyConfig c = new VerifyConfig("retry", it.source, it.target, List.of(TablePair.same(t)), 1, 1000,
                fixDir, 50, SnapshotOptions.NONE);
        return new Verifier(c).run().table(t);
    }

    @Test
    void aDeadlockIsComparedAgainAndTheTableMatches() throws Exception {
        TableName t = failing("deadlocked", 1, 1213);
        TableResult r = verify(t);
        assertEquals(Result.MATCH, r.result(), () -> String.valueOf(r.error()));
        assertTrue(reads("deadlocked") > 1, "read again after the deadlock");
    }

    @Test
    void aFailureNoRetryPassesMarksTheTableAfterOneTry() throws Exception {
        TableName t = failing("refused", Integer.MAX_VALUE, 1644);
        TableResult r = verify(t);
        assertEquals(Result.ERROR, r.result());
        assertTrue(r.error().contains("injected by the test"), r.error());
        assertFalse(r.error().contains("\n"), r.error());
        assertEquals(1, reads("refused"), "tried once");
    }
}
