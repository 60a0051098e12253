package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.awaitFailure;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A target table with more columns than the source (DM's "downstream has more columns"). Where the
 * source logs column names (binlog_row_metadata=FULL) the binlog's columns are written by name and
 * the target's own columns keep their defaults or values, across inserts, updates, deletes and a
 * later DDL that the reader meets after the source has moved on. Without names the task stops with
 * one line that says what would let it go on.
 */
class ExtraTargetColumnsIT {

    @Test
    void binlogColumnsAreWrittenByNameAndTheTargetsOwnColumnsAreKept() throws Exception {
        namedColumns("extracolsit", 7141, false);
    }

    /** Safe mode (the first minute after every start) writes upserts here: REPLACE would reset them. */
    @Test
    void safeModeKeepsTheTargetsOwnColumnsToo() throws Exception {
        namedColumns("extracolsit_safe", 7143, true);
    }

    private static void namedColumns(String db, int serverId, boolean safe) throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_" + db);
        src.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, a VARCHAR(10), b INT)");
        // extra columns first, between and last, one with a default the target computes
        tgt.execute("CREATE TABLE `" + db + "`.t (note VARCHAR(20) DEFAULT 'target', id INT PRIMARY KEY,"
                + " a VARCHAR(10), extra INT NOT NULL DEFAULT 7, b INT,"
                + " loaded_at TIMESTAMP NOT NULL DEFAULT '2001-01-01 00:00:00')");
        tgt.execute("INSERT INTO `" + db + "`.t (note, id, a, extra, b) VALUES ('kept', 100, 'old', 99, 1)");
        src.execute("INSERT INTO `" + db + "`.t VALUES (100, 'old', 1)");
        String old = scalar(src, "SELECT @@GLOBAL.binlog_row_metadata");
        src.execute("SET GLOBAL binlog_row_metadata = FULL");
        SyncUnit unit = new SyncUnit(SyncConfig.builder(db, spec(src), spec(tgt)).workerCount(3)
                .metaSchema("jdm_meta_" + db).serverId(serverId).start(sourcePosition(src)).safeMode(safe)
                .safeModeDuration(Duration.ZERO)
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        try {
            src.execute("INSERT INTO `" + db + "`.t VALUES (1, 'x', 10), (2, 'y', 20), (3, 'z', 30)",
                    "UPDATE `" + db + "`.t SET a = 'new', b = 2 WHERE id = 100",
                    "UPDATE `" + db + "`.t SET b = b + 1 WHERE id IN (1, 2)",
                    "DELETE FROM `" + db + "`.t WHERE id = 3",
                    "ALTER TABLE `" + db + "`.t ADD COLUMN c INT DEFAULT 5",
                    "INSERT INTO `" + db + "`.t VALUES (4, 'w', 40, 41)",
                    "UPDATE `" + db + "`.t SET c = 6 WHERE id = 1");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
        } finally {
            src.execute("SET GLOBAL binlog_row_metadata = " + old);
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        String cols = "id, HEX(a), b, c";
        assertEquals(src.rows("SELECT " + cols + " FROM `" + db + "`.t ORDER BY id"),
                tgt.rows("SELECT " + cols + " FROM `" + db + "`.t ORDER BY id"));
        assertEquals(List.of("1|target|7|2001-01-01 00:00:00", "2|target|7|2001-01-01 00:00:00",
                        "4|target|7|2001-01-01 00:00:00", "100|kept|99|2001-01-01 00:00:00"),
                tgt.rows("SELECT id, note, extra, loaded_at FROM `" + db + "`.t ORDER BY id"));
    }

    @Test
    void withoutColumnNamesTheTaskStopsWithOneLineThatSaysWhatHelps() throws Exception {
        String db = "extracolsit_nonames";
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_extracols2");
        src.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, a INT)");
        tgt.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, a INT, extra INT DEFAULT 7)");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("extracols2", spec(src), spec(tgt)).workerCount(2)
                .metaSchema("jdm_meta_extracols2").serverId(7142).start(sourcePosition(src))
                .tableFilter((d, t) -> d.equals(db)).build());
        unit.start();
        String message;
        try {
            // the source moved on before the reader meets the rows: its current definition cannot stand in
            src.execute("INSERT INTO `" + db + "`.t VALUES (1, 1)", "ALTER TABLE `" + db + "`.t ADD COLUMN b INT");
            message = awaitFailure(unit, Duration.ofSeconds(30));
        } finally {
            unit.stop();
        }
        assertTrue(message.contains("binlog_row_metadata=FULL") && !message.contains("\n"), message);
        assertEquals(List.of(), tgt.rows("SELECT id FROM `" + db + "`.t"), "nothing applied in another shape");
    }

    private static String scalar(SqlServer server, String sql) throws Exception {
        try (Connection c = server.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

}
