package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.jdm.common.config.OnDuplicate;
import io.jdm.common.error.JdmException;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.ServerFlavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target table that already holds rows no load of the task wrote, as a task run again under a
 * new name over the rows of the first finds them: without a primary or NOT NULL unique key the load
 * stops before writing anything, as it would otherwise load every row a second time; a keyed table
 * goes on as before, its rows meeting on the key.
 */
class PriorRowsIT {
    private static SqlServer source;
    private static SqlServer target;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void servers() {
        ServerPair pair = TestServers.shared();
        source = pair.source();
        target = pair.target();
    }

    @Test
    void aKeylessTableHoldingRowsOfAnotherTaskStopsTheLoadUntilItIsEmptiedAndAKeyedOneLoadsAsBefore()
            throws Exception {
        String db = "PriorRowsIT_keyless";
        Path dir = HandDump.write(source, target, tmp, null, db, "CREATE TABLE `t` (id INT, v VARCHAR(20))",
                file("(1,'one'),(2,'two'),(2,'two'),(3,NULL)"), file("(4,'four')"));
        LoadConfig first = HandDump.config(target, "prior_first", dir);
        assertTrue(new LoadUnit(first).run().completed());
        List<String> loaded = target.hexRows(db, "t");
        assertEquals(source.hexRows(db, "t"), loaded);
        List<String> firstCheckpoint = checkpoint("prior_first");

        LoadConfig renamed = HandDump.config(target, "prior_renamed", dir);
        JdmException e = assertThrows(JdmException.class, new LoadUnit(renamed)::run);
        String why = e.getMessage();
        assertFalse(why.contains("\n"), why);
        assertTrue(why.contains("`" + db + "`.`t`") && why.contains("no primary or NOT NULL unique key")
                && why.contains("empty or drop") && why.contains("task name"), why);
        assertEquals(loaded, target.hexRows(db, "t"), "nothing written");
        assertEquals(List.of(), checkpoint("prior_renamed"), "no checkpoint row registered");
        assertEquals(firstCheckpoint, checkpoint("prior_first"));

        assertTrue(new LoadUnit(first).run().completed(), "the task's own name resumes from its checkpoint");
        assertEquals(loaded, target.hexRows(db, "t"));

        target.execute("TRUNCATE TABLE `" + db + "`.t");
        assertTrue(new LoadUnit(renamed).run().completed());
        assertEquals(source.hexRows(db, "t"), target.hexRows(db, "t"));

        // a keyed table goes on as before: the dump's rows meet the rows there on the key
        String keyed = "PriorRowsIT_keyed";
        dir = HandDump.write(source, target, tmp, null, keyed, "CREATE TABLE `t` (id INT PRIMARY KEY, v VARCHAR(20))",
                file("(1,'one'),(2,'two'),(3,NULL)"));
        assertTrue(new LoadUnit(HandDump.config(target, "prior_keyed_first", dir)).run().completed());
        target.execute("UPDATE `" + keyed + "`.t SET v = 'changed' WHERE id = 2");
        assertTrue(new LoadUnit(HandDump.config(target, "prior_keyed_renamed", dir)
                .withOnDuplicate(OnDuplicate.REPLACE)).run().completed());
        assertEquals(source.hexRows(keyed, "t"), target.hexRows(keyed, "t"), "the dump's rows replace those they meet");
    }

    /**
     * A keyless source table whose target has a generated invisible AUTO_INCREMENT key (MySQL 8.0's
     * sql_generate_invisible_primary_key, or one added by hand): the dump's INSERTs leave the key out,
     * so rows written again get new numbers; the key tells nothing apart and the load stops as for a
     * keyless table, instead of adding every row a second time.
     */
    @Test
    void anInvisibleAutoIncrementKeyOfTheTargetTellsNoRowsApart() throws Exception {
        assumeFalse(TestServers.targetFlavor() == ServerFlavor.MYSQL57, "MySQL 5.7 has no invisible columns");
        String db = "PriorRowsIT_invisible";
        Path dir = HandDump.write(source, target, tmp, null, db, "CREATE TABLE `t` (id INT, v VARCHAR(20))",
                file("(1,'one'),(2,'two'),(2,'two')"));
        target.execute("CREATE DATABASE `" + db + "`", "CREATE TABLE `" + db + "`.t (id INT, v VARCHAR(20),"
                + " row_key BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY)");
        assertTrue(new LoadUnit(HandDump.config(target, "prior_invisible_first", dir)).run().completed());
        List<String> loaded = target.rows("SELECT id, v, row_key FROM `" + db + "`.t ORDER BY row_key");
        assertEquals(List.of("1|one|1", "2|two|2", "2|two|3"), loaded);

        JdmException e = assertThrows(JdmException.class,
                new LoadUnit(HandDump.config(target, "prior_invisible_renamed", dir))::run);
        assertTrue(e.getMessage().contains("no primary or NOT NULL unique key"), e.getMessage());
        assertEquals(loaded, target.rows("SELECT id, v, row_key FROM `" + db + "`.t ORDER BY row_key"),
                "nothing written a second time");
    }

    /**
     * Two sources merged into one keyless target table by routes of their own: the second to load
     * reads the first's checkpoint rows with the first's routes, so it sees the merged table begun by
     * the task and loads beside those rows instead of stopping.
     */
    @Test
    void anotherSourcesRowsAreReadWithItsOwnRoutes() throws Exception {
        String merged = "PriorRowsIT_merged";
        Path dirA = HandDump.write(source, target, tmp, null, "PriorRowsIT_ma", "CREATE TABLE `t` (id INT, v VARCHAR(20))",
                file("(1,'a'),(1,'a')"));
        Path dirB = HandDump.write(source, target, tmp, null, "PriorRowsIT_mb", "CREATE TABLE `t` (id INT, v VARCHAR(20))",
                file("(2,'b')"));
        target.execute("DROP DATABASE IF EXISTS `" + merged + "`", "CREATE DATABASE `" + merged + "`",
                "CREATE TABLE `" + merged + "`.t (id INT, v VARCHAR(20))");
        java.util.function.UnaryOperator<TableName> routeA = t -> t.schema().equals("PriorRowsIT_ma")
                ? new TableName(merged, t.table().isEmpty() ? "" : "t") : t;
        java.util.function.UnaryOperator<TableName> routeB = t -> t.schema().equals("PriorRowsIT_mb")
                ? new TableName(merged, t.table().isEmpty() ? "" : "t") : t;
        LoadConfig b = HandDump.config(target, "prior_merge", dirB).withRouter(routeB);
        assertTrue(new LoadUnit(b).run().completed());
        LoadConfig a = LoadConfig.of("prior_merge", "src_a", b.target(), dirA).withPoolSize(1).withRouter(routeA)
                .withSourceRouters(id -> id.equals(b.sourceId()) ? routeB : null);
        assertTrue(new LoadUnit(a).run().completed(), "the merged table holds this task's rows, from source b");
        assertEquals(List.of("1|a", "1|a", "2|b"), target.rows("SELECT id, v FROM `" + merged + "`.t ORDER BY id"));
    }

    /**
     * A schema of many target tables has their keys read with the whole schema's ({@link
     * io.jdm.common.schema.TableEngines#keyed(java.sql.Connection, java.util.Collection)}): the tables
     * named are still exactly the keyless ones holding rows, a unique key on a column that may be
     * NULL and (MySQL 8.0, MariaDB) an invisible AUTO_INCREMENT key counting as none.
     */
    @Test
    void aSchemaOfManyTargetTablesNamesExactlyItsKeylessTablesHoldingRows() throws Exception {
        String db = "PriorRowsIT_many";
        boolean invisible = TestServers.targetFlavor() != ServerFlavor.MYSQL57;
        target.execute("DROP DATABASE IF EXISTS `" + db + "`", "CREATE DATABASE `" + db + "`");
        List<TableName> all = new java.util.ArrayList<>();
        List<TableName> expected = new java.util.ArrayList<>();
        for (int i = 0; i < io.jdm.common.schema.TableReadCache.WHOLE_AFTER + 4; i++) {
            String key = switch (i % 5) {
                case 0 -> ""; // keyless
                case 1 -> ", UNIQUE KEY u (v)"; // v may be NULL
                case 2 -> invisible ? ", k BIGINT NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY" : "";
                case 3 -> ", UNIQUE KEY u (id)";
                default -> ", PRIMARY KEY (id, v)";
            };
            TableName t = new TableName(db, "t" + i);
            target.execute("CREATE TABLE " + t.quoted() + " (id INT NOT NULL, v INT" + (i % 5 == 1 ? " NULL"
                    : " NOT NULL") + key + ")");
            boolean rows = i % 10 != 0; // every other keyless table is empty
            if (rows) {
                target.execute("INSERT INTO " + t.quoted() + " (id, v) VALUES (1, 1)");
            }
            all.add(t);
            if (rows && i % 5 <= 2) {
                expected.add(t);
            }
        }
        try (java.sql.Connection c = target.connect()) {
            assertEquals(expected.stream().sorted().toList(), PriorRows.keylessHeld(c, "jdm_meta", "prior_many",
                    id -> java.util.function.UnaryOperator.identity(), all));
        }
    }

    private static List<String> checkpoint(String task) throws Exception {
        return target.rows("SELECT source_id, file, `offset`, end_offset, status, rows_loaded FROM jdm_meta."
                + task + "_loader_checkpoint ORDER BY file");
    }

    private static byte[] file(String rows) {
        return (HandDump.HEADER + "INSERT INTO `t` VALUES " + rows + ";\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
