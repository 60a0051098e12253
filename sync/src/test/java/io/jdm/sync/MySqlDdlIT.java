package io.jdm.sync;

import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MySQL 8's own DDL through a MySQL 8 source's binlog while rows keep changing: read with MySQL's
 * grammar, replayed on the schema tracker's copies and on a MySQL 8 target, which ends with the
 * source's definitions and rows. Among them CREATE TABLE … SELECT, which 8.0.21+ logs (GTIDs on)
 * as {@code CREATE TABLE … START TRANSACTION} followed by its rows in one transaction.
 */
class MySqlDdlIT {
    private static final String DB = "mysqlddlit";
    private static final List<String> TABLES = List.of("inv", "t1", "t3", "c", "g", "k", "f", "d", "l2");

    private final ServerPair pair = TestServers.shared();
    private final SqlServer src = pair.source();
    private final SqlServer tgt = pair.target();

    @Test
    void mySql8DdlDuringSyncEndsWithTheSourcesTablesAndRows() throws Exception {
        assumeTrue(TestServers.sourceFlavor() == ServerFlavor.MYSQL8 && TestServers.targetFlavor() == ServerFlavor.MYSQL8,
                "MySQL 8.0 syntax, source and target: run with -Djdm.it.servers=mysql8");
        src.freshDatabase(DB);
        tgt.freshDatabase(DB);
        for (SqlServer s : List.of(src, tgt)) {
            s.execute("CREATE TABLE " + DB + ".inv (id INT PRIMARY KEY, secret VARCHAR(10), qty INT)",
                    "CREATE TABLE " + DB + ".t1 (a INT PRIMARY KEY, b VARCHAR(10))",
                    "CREATE TABLE " + DB + ".g (id INT PRIMARY KEY)",
                    "INSERT INTO " + DB + ".t1 VALUES (1, 'one'), (2, 'two')",
                    "INSERT INTO " + DB + ".g VALUES (1)");
        }
        var start = sourcePosition(src);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_mysqlddl");
        SyncUnit unit = new SyncUnit(SyncConfig.builder("mysqlddl", spec(src), spec(tgt)).workerCount(3)
                .metaSchema("jdm_meta_mysqlddl").serverId(7221).start(start)
                .tableFilter((d, t) -> d.equals(DB)).build());
        unit.start();
        String q = DB + ".";
        try {
            src.execute("INSERT INTO " + q + "inv VALUES (1, 's1', 10)",
                    "ALTER TABLE " + q + "inv ALTER COLUMN secret SET INVISIBLE",
                    "INSERT INTO " + q + "inv (id, secret, qty) VALUES (2, 's2', 20)",
                    "UPDATE " + q + "inv SET secret = 'S1' WHERE id = 1",
                    "ALTER TABLE " + q + "inv ALTER COLUMN secret SET VISIBLE",
                    "ALTER TABLE " + q + "inv RENAME COLUMN qty TO quantity",
                    "INSERT INTO " + q + "inv VALUES (3, 's3', 30)",
                    "CREATE TABLE " + q + "t2 SELECT * FROM " + q + "t1",
                    "INSERT INTO " + q + "t2 VALUES (3, 'three')",
                    "CREATE TABLE " + q + "c (a INT, b INT, CONSTRAINT c_pos CHECK (a > 0) NOT ENFORCED, "
                            + "CHECK (b < 100))",
                    "INSERT INTO " + q + "c VALUES (5, 1)",
                    "ALTER TABLE " + q + "c AUTOEXTEND_SIZE=4M, ALTER CHECK c_pos ENFORCED",
                    "ALTER TABLE " + q + "g ADD COLUMN p POINT SRID 4326",
                    "INSERT INTO " + q + "g VALUES (2, ST_GeomFromText('POINT(45 7)', 4326))",
                    "CREATE TABLE " + q + "k (id INT PRIMARY KEY, v INT) PARTITION BY KEY() PARTITIONS 3",
                    "INSERT INTO " + q + "k VALUES (1, 1), (2, 2), (3, 3), (4, 4)",
                    "CREATE TABLE " + q + "f (a INT, b INT, c INT INVISIBLE, INDEX fx ((a * b)), "
                            + "INDEX fd (b DESC), INDEX fi (c) INVISIBLE)",
                    "INSERT INTO " + q + "f (a, b, c) VALUES (1, 2, 3), (4, 5, 6)",
                    "ALTER TABLE " + q + "f ALTER INDEX fi VISIBLE, ALTER INDEX fd INVISIBLE",
                    "ALTER TABLE " + q + "f ADD COLUMN e INT NOT NULL DEFAULT 7, ALGORITHM=INSTANT",
                    "INSERT INTO " + q + "f (a, b, c, e) VALUES (7, 8, 9, 10)",
                    "CREATE TABLE " + q + "d (id INT PRIMARY KEY, s VARCHAR(20) DEFAULT (CONCAT('d-', 'x')), "
                            + "j JSON DEFAULT (JSON_ARRAY(1, 2)), n INT DEFAULT (1 + 2))",
                    "INSERT INTO " + q + "d (id) VALUES (1)",
                    "CREATE TABLE " + q + "l LIKE " + q + "f",
                    "INSERT INTO " + q + "l (a, b, c, e) SELECT a, b, c, e FROM " + q + "f",
                    "RENAME TABLE " + q + "t2 TO " + q + "t3, " + q + "l TO " + q + "l2",
                    "INSERT INTO " + q + "t3 VALUES (4, 'four')",
                    "DELETE FROM " + q + "l2 WHERE a = 1");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(90)),
                    () -> "not caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
            for (String table : TABLES) {
                assertEquals(showCreate(src, table), showCreate(tgt, table), "SHOW CREATE TABLE " + table);
                assertEquals(src.hexRows(DB, table), tgt.hexRows(DB, table), "every column as hex of " + table);
            }
            assertEquals(List.of("1|one", "2|two", "3|three", "4|four"), tgt.rows("SELECT a, b FROM " + q + "t3 ORDER BY a"),
                    "the rows CREATE TABLE … SELECT copied, and those after it");
        } finally {
            unit.stop();
        }
        assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
    }

    private static String showCreate(SqlServer s, String table) throws Exception {
        List<String> r = s.rows("SHOW CREATE TABLE `" + DB + "`.`" + table + "`");
        assertEquals(1, r.size(), table);
        return r.get(0);
    }
}
