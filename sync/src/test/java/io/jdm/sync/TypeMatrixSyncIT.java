package io.jdm.sync;

import io.jdm.embedded.TypeMatrix;
import static io.jdm.sync.SyncTestSupport.assertSameRows;
import static io.jdm.sync.SyncTestSupport.sourcePosition;
import static io.jdm.sync.SyncTestSupport.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every type of the type matrix replicates exactly through INSERT, UPDATE and DELETE. */
class TypeMatrixSyncIT {
    private static final String DB = "typematrixsyncit";

    @Test
    void everyTypeReplicatesExactlyForInsertUpdateDelete() throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        src.freshDatabase(DB);
        tgt.freshDatabase(DB);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_typematrix");
        String t = "`" + DB + "`.`types`";
        src.execute("SET GLOBAL sql_mode = 'NO_ENGINE_SUBSTITUTION'");
        try {
            src.execute(TypeMatrix.createTable(t));
            tgt.execute(TypeMatrix.createTable(t));
            // a second table whose only key is a NOT NULL unique key, and a keyless one
            src.execute("CREATE TABLE `" + DB + "`.`uk` (a INT NOT NULL, b VARCHAR(10), UNIQUE KEY (a))",
                    "CREATE TABLE `" + DB + "`.`nokey` (a INT, b VARCHAR(10), f FLOAT)");
            tgt.execute("CREATE TABLE `" + DB + "`.`uk` (a INT NOT NULL, b VARCHAR(10), UNIQUE KEY (a))",
                    "CREATE TABLE `" + DB + "`.`nokey` (a INT, b VARCHAR(10), f FLOAT)");
            BinlogPosition start = sourcePosition(src);
            SyncConfig cfg = SyncConfig.builder("typematrix", spec(src), spec(tgt)).start(start).workerCount(4)
                    .batch(50).metaSchema("jdm_meta_typematrix").serverId(101)
                    .tableFilter((d, tb) -> d.equals(DB)).build();
            SyncUnit unit = new SyncUnit(cfg);
            unit.start();
            try {
                try (var c = src.connect(); var st = c.createStatement()) {
                    st.execute("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'");
                    st.execute("SET SESSION time_zone = '+00:00'");
                    for (String ins : TypeMatrix.inserts(t)) {
                        st.execute(ins);
                    }
                    st.execute("INSERT INTO `" + DB + "`.uk VALUES (1,'a'),(2,'b'),(3,'c')");
                    st.execute("INSERT INTO `" + DB + "`.nokey VALUES (1,'a',1.5),(1,'a',1.5),(2,NULL,0.1),(NULL,'x',NULL)");
                }
                assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)), "caught up after inserts");
                assertSameRows(src, tgt, new TableName(DB, "types"));
                assertSameRows(src, tgt, new TableName(DB, "uk"));
                assertSameRows(src, tgt, new TableName(DB, "nokey"));

                try (var c = src.connect(); var st = c.createStatement()) {
                    st.execute("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'");
                    st.execute("SET SESSION time_zone = '+00:00'");
                    // every row takes another row's values: each column goes through an UPDATE
                    for (String u : SyncTypeMatrix.rotations(t)) {
                        st.execute(u);
                    }
                    st.execute("UPDATE `" + DB + "`.uk SET a = a + 10, b = CONCAT(b, '!')");
                    st.execute("UPDATE `" + DB + "`.nokey SET b = 'z' WHERE a = 1 LIMIT 1");
                    st.execute("UPDATE `" + DB + "`.nokey SET f = 2.25 WHERE a = 2");
                }
                assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)), "caught up after updates");
                assertSameRows(src, tgt, new TableName(DB, "types"));
                assertSameRows(src, tgt, new TableName(DB, "uk"));
                assertSameRows(src, tgt, new TableName(DB, "nokey"));

                src.execute("DELETE FROM " + t + " WHERE id IN (1, 3, 5)",
                        "DELETE FROM `" + DB + "`.uk WHERE a = 12",
                        "DELETE FROM `" + DB + "`.nokey WHERE a = 1 LIMIT 1",
                        "DELETE FROM `" + DB + "`.nokey WHERE a IS NULL");
                assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)), "caught up after deletes");
                assertSameRows(src, tgt, new TableName(DB, "types"));
                assertSameRows(src, tgt, new TableName(DB, "uk"));
                assertSameRows(src, tgt, new TableName(DB, "nokey"));
                assertEquals(2, SyncTestSupport.rows(tgt, new TableName(DB, "types")).size());
                assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            } finally {
                unit.stop();
            }
        } finally {
            src.execute("SET GLOBAL sql_mode = DEFAULT");
        }
    }

    /**
     * Each of latin1's 256 bytes replicates as itself through INSERT and UPDATE, the five that
     * windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) among them: read as U+FFFD they
     * would arrive as {@code ?}.
     */
    @Test
    void everyLatin1ByteReplicatesAsItself() throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        String db = "typematrixsyncit_bytes";
        src.freshDatabase(db);
        tgt.freshDatabase(db);
        tgt.execute("DROP DATABASE IF EXISTS jdm_meta_typematrix_bytes");
        String create = "CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, l VARCHAR(300) CHARACTER SET latin1,"
                + " c CHAR(10) CHARACTER SET latin1)";
        src.execute(create);
        tgt.execute(create);
        StringBuilder all = new StringBuilder();
        for (int b = 0; b < 256; b++) {
            all.append(String.format("%02X", b));
        }
        BinlogPosition start = sourcePosition(src);
        SyncConfig cfg = SyncConfig.builder("typematrix_bytes", spec(src), spec(tgt)).start(start).workerCount(2)
                .metaSchema("jdm_meta_typematrix_bytes").serverId(104).tableFilter((d, tb) -> d.equals(db)).build();
        SyncUnit unit = new SyncUnit(cfg);
        unit.start();
        try {
            src.execute("INSERT INTO `" + db + "`.t VALUES (1, CONVERT(UNHEX('" + all + "') USING latin1),"
                            + " CONVERT(UNHEX('818D8F909D') USING latin1)), (2, 'x', 'y')",
                    "UPDATE `" + db + "`.t SET l = CONCAT(l, CONVERT(UNHEX('9D8180') USING latin1)),"
                            + " c = CONVERT(UNHEX('90') USING latin1) WHERE id = 2");
            assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)), "caught up");
            String hex = "SELECT id, HEX(l), HEX(c) FROM `" + db + "`.t ORDER BY id";
            assertEquals(List.of("1|" + all + "|818D8F909D", "2|789D8180|90"), src.rows(hex));
            assertEquals(src.rows(hex), tgt.rows(hex));
            assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
        } finally {
            unit.stop();
        }
    }

    /** A utf8mb4 database on a target whose server default is latin1: tables created during sync. */
    @Test
    void everyTypeOfATableCreatedDuringSyncInAUtf8mb4DatabaseOnALatin1Target() throws Exception {
        createdDuringSync("typematrixsyncit_u8", "utf8mb4", "latin1_swedish_ci", 102);
    }

    /** A latin1 database on a target whose server default is utf8mb4. */
    @Test
    void everyTypeOfATableCreatedDuringSyncInALatin1DatabaseOnAUtf8mb4Target() throws Exception {
        createdDuringSync("typematrixsyncit_l1", "latin1", "utf8mb4_general_ci", 103);
    }

    /**
     * The database and the matrix table (without a table charset: it takes the database's) are
     * created while sync runs, so rows are decoded with the schema tracker's copy.
     */
    private void createdDuringSync(String db, String charset, String targetServerCollation, long serverId)
            throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer src = pair.source();
        SqlServer tgt = pair.target();
        String task = "typematrix" + charset;
        src.execute("DROP DATABASE IF EXISTS `" + db + "`");
        tgt.execute("DROP DATABASE IF EXISTS `" + db + "`", "DROP DATABASE IF EXISTS jdm_meta_" + task);
        String t = "`" + db + "`.`types`";
        String create = TypeMatrix.createTable(t).replace(") DEFAULT CHARSET=utf8mb4", ")");
        String oldCollation;
        try (var c = tgt.connect(); var st = c.createStatement();
             var rs = st.executeQuery("SELECT @@GLOBAL.collation_server")) {
            rs.next();
            oldCollation = rs.getString(1);
            st.execute("SET GLOBAL collation_server = '" + targetServerCollation + "'");
        }
        src.execute("SET GLOBAL sql_mode = 'NO_ENGINE_SUBSTITUTION'");
        try {
            SyncUnit unit = new SyncUnit(SyncConfig.builder(task, spec(src), spec(tgt)).start(sourcePosition(src))
                    .workerCount(4).batch(50).metaSchema("jdm_meta_" + task).serverId(serverId)
                    .tableFilter((d, tb) -> d.equals(db)).build());
            unit.start();
            try {
                try (var c = src.connect(); var st = c.createStatement()) {
                    st.execute("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'");
                    st.execute("SET SESSION time_zone = '+00:00'");
                    st.execute("CREATE DATABASE `" + db + "` CHARACTER SET " + charset);
                    st.execute(create);
                    for (String ins : TypeMatrix.inserts(t)) {
                        st.execute(ins);
                    }
                    for (String u : SyncTypeMatrix.rotations(t)) {
                        st.execute(u);
                    }
                }
                assertTrue(unit.awaitCaughtUp(sourcePosition(src), Duration.ofSeconds(30)),
                        () -> "caught up: " + unit.failure().map(Throwable::getMessage).orElse(""));
                assertEquals(showCreate(src, t), showCreate(tgt, t));
                assertSameRows(src, tgt, new TableName(db, "types"));
                assertTrue(unit.failure().isEmpty(), () -> unit.failure().get().getMessage());
            } finally {
                unit.stop();
            }
        } finally {
            src.execute("SET GLOBAL sql_mode = DEFAULT");
            tgt.execute("SET GLOBAL collation_server = '" + oldCollation + "'");
        }
    }

    private static String showCreate(SqlServer s, String table) throws java.sql.SQLException {
        try (var c = s.connect(); var st = c.createStatement();
             var rs = st.executeQuery("SHOW CREATE TABLE " + table)) {
            rs.next();
            return rs.getString(2);
        }
    }
}
