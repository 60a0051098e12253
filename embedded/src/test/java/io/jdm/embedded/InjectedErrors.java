package io.jdm.embedded;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Makes a MariaDB target answer row writes with the errors TiDB returns (9007 write conflict,
 * 8028 schema changed, 8004 transaction too large, ...), so retries are tested over the wire.
 * BEFORE INSERT/UPDATE/DELETE triggers on the chosen tables read an armed error from a control
 * row and SIGNAL it. The counts are sequences: NEXTVAL is not rolled back with the statement it
 * failed, so "fail the next N" fails exactly N times, and unlike a MyISAM counter it holds no
 * table lock for the statement, which would join writers' row locks into deadlocks InnoDB cannot see.
 */
public final class InjectedErrors {
    private static final String CONTROL = "jdm_injected_errors";
    private static final String TXN_ROWS = "jdm_injected_txn_rows";
    private static final String SEEN = "jdm_injected_seen";
    private static final String CANDIDATES = "jdm_injected_candidates";
    private static final String FIRES = "jdm_injected_fires";
    private final SqlServer server;
    private final String db;

    private InjectedErrors(SqlServer server, String db) {
        this.server = server;
        this.db = db;
    }

    /** Creates the control tables in {@code db} and the triggers on {@code tables} (disarmed). */
    public static InjectedErrors install(SqlServer target, String db, String... tables) {
        InjectedErrors e = new InjectedErrors(target, db);
        target.execute("CREATE TABLE " + e.q(CONTROL) + " (id INT PRIMARY KEY, errno INT NOT NULL, msg VARCHAR(255)"
                        + " NOT NULL, every INT NOT NULL, cnt INT NOT NULL, txn_limit INT NOT NULL) ENGINE=InnoDB",
                "INSERT INTO " + e.q(CONTROL) + " VALUES (1, 0, '', 1, 0, 0)",
                "CREATE TABLE " + e.q(TXN_ROWS) + " (conn BIGINT PRIMARY KEY, n INT NOT NULL) ENGINE=InnoDB",
                "CREATE SEQUENCE " + e.q(SEEN) + " START WITH 1 NOCACHE",
                "CREATE SEQUENCE " + e.q(CANDIDATES) + " START WITH 1 NOCACHE",
                "CREATE SEQUENCE " + e.q(FIRES) + " START WITH 1 NOCACHE");
        for (String t : tables) {
            for (String op : new String[] {"INSERT", "UPDATE", "DELETE"}) {
                target.execute("CREATE TRIGGER " + e.q(t + "_inject_" + op.toLowerCase()) + " BEFORE " + op + " ON "
                        + e.q(t) + " FOR EACH ROW " + e.body());
            }
        }
        return e;
    }

    private String body() {
        String fire = "SET v_fire = NEXTVAL(" + q(FIRES) + "); SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = v_err,"
                + " MESSAGE_TEXT = v_msg;";
        return "BEGIN\n"
                + "  DECLARE v_err, v_every, v_cnt, v_limit, v_rows, v_fire INT DEFAULT 0;\n"
                + "  DECLARE v_seen, v_cand BIGINT DEFAULT 0; DECLARE v_msg VARCHAR(255) DEFAULT '';\n"
                + "  SELECT errno, msg, every, cnt, txn_limit INTO v_err, v_msg, v_every, v_cnt, v_limit FROM "
                + q(CONTROL) + " WHERE id = 1;\n"
                + "  IF v_limit > 0 THEN\n"
                + "    INSERT INTO " + q(TXN_ROWS) + " VALUES (CONNECTION_ID(), 1) ON DUPLICATE KEY UPDATE n = n + 1;\n"
                + "    SELECT n INTO v_rows FROM " + q(TXN_ROWS) + " WHERE conn = CONNECTION_ID();\n"
                + "    IF v_rows > v_limit THEN " + fire + " END IF;\n"
                + "  ELSEIF v_cnt > 0 THEN\n"
                + "    SET v_seen = NEXTVAL(" + q(SEEN) + ");\n"
                + "    IF v_seen % v_every = 0 THEN\n"
                + "      SET v_cand = NEXTVAL(" + q(CANDIDATES) + ");\n"
                + "      IF v_cand <= v_cnt THEN " + fire + " END IF;\n"
                + "    END IF;\n"
                + "  END IF;\n"
                + "END";
    }

    /** Of the row writes from now on, those whose ordinal is a multiple of {@code every} fail, {@code count} times. */
    public void failEvery(int every, int count, int errno, String message) {
        server.execute("UPDATE " + q(CONTROL) + " SET cnt = 0 WHERE id = 1",
                "ALTER SEQUENCE " + q(SEEN) + " RESTART WITH 1", "ALTER SEQUENCE " + q(CANDIDATES) + " RESTART WITH 1",
                "UPDATE " + q(CONTROL) + " SET errno = " + errno + ", msg = '" + message.replace("'", "''")
                        + "', every = " + every + ", cnt = " + count + ", txn_limit = 0 WHERE id = 1");
    }

    /**
     * Every transaction that writes more than {@code rows} rows to the tables fails with this error
     * at the row past the limit. A transaction ends for the count when it writes
     * {@code checkpointTable} (quoted), as the units do last in each of theirs.
     */
    public void failTransactionsOver(int rows, String checkpointTable, int errno, String message) {
        for (String op : new String[] {"INSERT", "UPDATE"}) {
            server.execute("CREATE TRIGGER IF NOT EXISTS " + checkpointTable.substring(0, checkpointTable.indexOf('.'))
                    + ".`jdm_injected_reset_" + op.toLowerCase() + "` BEFORE " + op + " ON " + checkpointTable
                    + " FOR EACH ROW DELETE FROM " + q(TXN_ROWS) + " WHERE conn = CONNECTION_ID()");
        }
        server.execute("DELETE FROM " + q(TXN_ROWS), "UPDATE " + q(CONTROL) + " SET errno = " + errno + ", msg = '"
                + message.replace("'", "''") + "', cnt = 0, txn_limit = " + rows + " WHERE id = 1");
    }

    /** No more errors. */
    public void disarm() {
        server.execute("UPDATE " + q(CONTROL) + " SET cnt = 0, txn_limit = 0 WHERE id = 1");
    }

    /** How many errors the triggers raised since install. */
    public long fired() throws SQLException {
        try (Connection c = server.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT next_not_cached_value - 1 FROM " + q(FIRES))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private String q(String name) {
        return "`" + db.replace("`", "``") + "`.`" + name.replace("`", "``") + "`";
    }
}
