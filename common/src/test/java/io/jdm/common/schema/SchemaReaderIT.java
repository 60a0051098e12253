package io.jdm.common.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.common.config.BlockAllowListConfig;
import io.jdm.common.filter.TableFilter;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;

/**
 * A schema's tables read together ({@link SchemaReader#readAll}) are the tables read one by one:
 * columns with their types, charsets, generated and invisible ones, the primary key and the unique
 * keys whose columns are all NOT NULL, of tables with and without them.
 */
class SchemaReaderIT {
    private static final String DB = "schema_reader_it";

    @Test
    void aSchemaReadTogetherIsItsTablesReadOneByOne() throws Exception {
        SqlServer s = TestServers.shared().source();
        s.freshDatabase(DB);
        s.execute("USE " + DB,
                "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(10) CHARACTER SET latin1, g INT AS (id + 1) VIRTUAL)",
                "CREATE TABLE b (x INT NOT NULL, y INT NOT NULL, z INT NULL, w TEXT, UNIQUE KEY uz (z),"
                        + " UNIQUE KEY uxy (y, x), UNIQUE KEY ux (x))",
                "CREATE TABLE c (n INT, t DATETIME(3))",
                "CREATE TABLE d (k BIGINT NOT NULL, m INT NOT NULL, PRIMARY KEY (m, k), UNIQUE KEY u (k))");
        try (Connection c = s.connect()) {
            Map<String, TableSchema> all = SchemaReader.readAll(c, DB);
            assertEquals(List.of("a", "b", "c", "d"), List.copyOf(all.keySet()));
            for (String t : all.keySet()) {
                assertEquals(SchemaReader.read(c, new TableName(DB, t)), all.get(t), t);
            }
            assertEquals(List.of("id"), all.get("a").primaryKey());
            assertEquals(List.of(List.of("x"), List.of("y", "x")), all.get("b").uniqueKeys());
            assertEquals(List.of("m", "k"), all.get("d").primaryKey());
            assertEquals(List.of(), all.get("c").primaryKey());
            SQLException e = assertThrows(SQLException.class, () -> SchemaReader.read(c, new TableName(DB, "none")));
            assertEquals("42S02", e.getSQLState());
        }
    }

    /**
     * Tables asked for together ({@link SchemaReader#readTogether}) come back from the schemas that
     * hold {@value TableReadCache#WHOLE_AFTER} or more of them only, each as it reads on its own; the
     * other tables of such a schema, and the tables of a schema asked for less, are not in the answer.
     * Read each ({@link SchemaReader#readEach}), every table there comes back as it reads alone.
     */
    @Test
    void tablesReadTogetherAreThoseOfSchemasWithManyOfThemAsEachReadsAlone() throws Exception {
        SqlServer s = TestServers.shared().source();
        String many = DB + "_many";
        String few = DB + "_few";
        s.freshDatabase(many);
        s.freshDatabase(few);
        int n = TableReadCache.WHOLE_AFTER + 1;
        for (int i = 0; i < n; i++) {
            s.execute("CREATE TABLE " + many + ".t" + i + " (id INT NOT NULL, v" + i + " VARCHAR(" + (i + 1) + ")"
                    + (i % 3 == 0 ? "" : i % 3 == 1 ? ", PRIMARY KEY (id)" : ", UNIQUE KEY u (v" + i + ")") + ")");
        }
        s.execute("CREATE TABLE " + few + ".f (id INT PRIMARY KEY)");
        List<TableName> asked = new java.util.ArrayList<>();
        for (int i = 1; i < n; i++) { // t0 is left out
            asked.add(new TableName(many, "t" + i));
        }
        asked.add(new TableName(few, "f"));
        try (Connection c = s.connect()) {
            Map<TableName, TableSchema> together = SchemaReader.readTogether(c, asked);
            assertEquals(n - 1, together.size(), together.keySet().toString());
            for (TableName t : asked.subList(0, n - 1)) {
                assertEquals(SchemaReader.read(c, t), together.get(t), t.toString());
            }
            assertEquals(Map.of(), SchemaReader.readTogether(c, asked.subList(0, TableReadCache.WHOLE_AFTER - 1)));
            List<TableName> each = new java.util.ArrayList<>(asked);
            each.add(new TableName(few, "none"));
            Map<TableName, TableSchema> read = SchemaReader.readEach(c, each);
            assertEquals(new java.util.HashSet<>(asked), read.keySet(), "every table there, and none other");
            for (TableName t : asked) {
                assertEquals(SchemaReader.read(c, t), read.get(t), t.toString());
            }
        }
    }

    /**
     * A listing through a block-allow-list names only the schemas it may select to the server, and
     * lists what a listing of every schema, then filtered, lists: do-dbs with a wildcard, do-tables in
     * a schema do-dbs leaves out, ignore-tables, views apart from tables.
     */
    @Test
    void aListingThroughABlockAllowListIsTheWholeListingFiltered() throws Exception {
        SqlServer s = TestServers.shared().source();
        for (String db : List.of("scope_it_a", "scope_it_b", "scope_it_c")) {
            s.freshDatabase(db);
            s.execute("CREATE TABLE " + db + ".t1 (id INT)", "CREATE TABLE " + db + ".t2 (id INT)",
                    "CREATE VIEW " + db + ".v AS SELECT id FROM " + db + ".t1");
        }
        List<TableFilter> filters = List.of(
                filter(List.of("scope_it_a"), List.of(), List.of()),
                filter(List.of("scope_it_[ab]"), List.of(), List.of(new BlockAllowListConfig.TableRule("scope_it_b", "t2"))),
                filter(List.of("scope_it_a"), List.of(new BlockAllowListConfig.TableRule("scope_it_c", "t1")), List.of()),
                filter(List.of("none_such"), List.of(), List.of()),
                TableFilter.of(BlockAllowListConfig.allowAll(), false, "dm_meta"));
        try (Connection c = s.connect()) {
            for (TableFilter f : filters) {
                BiPredicate<String, String> unscoped = f::matchTable;
                assertEquals(SchemaReader.listTables(c, unscoped), SchemaReader.listTables(c, f));
                assertEquals(SchemaReader.listViews(c, unscoped), SchemaReader.listViews(c, f));
            }
            assertEquals(List.of(new TableName("scope_it_a", "t1"), new TableName("scope_it_a", "t2"),
                            new TableName("scope_it_b", "t1")),
                    SchemaReader.listTables(c, filters.get(1)));
            assertEquals(List.of(), SchemaReader.listTables(c, filters.get(3)));
        }
    }

    private static TableFilter filter(List<String> doDbs, List<BlockAllowListConfig.TableRule> doTables,
                                      List<BlockAllowListConfig.TableRule> ignoreTables) {
        return TableFilter.of(new BlockAllowListConfig("bw", doDbs, List.of(), doTables, ignoreTables), false,
                "dm_meta");
    }
}
