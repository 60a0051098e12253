package io.jdm.common.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Many tables of one schema asked for have the schema read whole, once, and what it gives is what
 * each table read alone gives: the engines of transactional tables and of tables outside
 * transactions with and without a key. A table created after that read, and one not there, are
 * read alone; a table not there is asked again, not remembered.
 */
class TableReadCacheIT {
    private static final String DB = "table_read_cache_it";
    private static final int TABLES = 24;

    @Test
    void theSixteenthTableOfASchemaReadsTheRestOfItWithWhatEachReadAloneGives() throws Exception {
        SqlServer s = TestServers.shared().source();
        s.freshDatabase(DB);
        List<String> ddl = new ArrayList<>(List.of("USE " + DB));
        for (int i = 0; i < TABLES; i++) {
            ddl.add("CREATE TABLE t" + i + " (id INT NOT NULL" + (i % 3 == 2 ? "" : ", PRIMARY KEY (id)") + ") ENGINE="
                    + (i % 3 == 0 ? "InnoDB" : "Aria"));
        }
        s.execute(ddl.toArray(String[]::new));
        List<String> reads = new ArrayList<>();
        TableEngines engines = new TableEngines();
        TableReadCache<TableEngines.Engine> cache = new TableReadCache<>(new TableReadCache.Reader<>() {
            @Override
            public TableEngines.Engine one(Connection c, TableName table) throws SQLException {
                reads.add(table.table());
                return engines.of(c, table);
            }

            @Override
            public Map<String, TableEngines.Engine> whole(Connection c, String schema) throws SQLException {
                reads.add("*" + schema);
                Map<String, TableEngines.Engine> all = new java.util.LinkedHashMap<>();
                for (int i = 0; i < TABLES; i++) {
                    all.put("t" + i, engines.of(c, new TableName(schema, "t" + i)));
                }
                return all;
            }
        });
        try (Connection c = s.connect()) {
            for (int i = 0; i < TABLES; i++) {
                TableName t = new TableName(DB, "t" + i);
                TableEngines.Engine e = engines.of(c, t);
                assertEquals(TableEngines.read(c, t), e, t.table());
                assertEquals(i % 3 == 0 ? "InnoDB" : "Aria", e.name(), t.table());
                assertEquals(i % 3 == 0, e.transactional(), t.table());
                assertEquals(i % 3 == 1, e.keyed(), t.table());
                assertEquals(e, cache.get(c, t));
                assertEquals(e, cache.get(c, t), "asked again");
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < TableReadCache.WHOLE_AFTER - 1; i++) {
                expected.add("t" + i);
            }
            expected.add("*" + DB);
            assertEquals(expected, reads, "tables read alone until the sixteenth, then the schema once");

            s.execute("CREATE TABLE " + DB + ".later (id INT) ENGINE=Aria");
            TableName later = new TableName(DB, "later");
            assertEquals(new TableEngines.Engine("Aria", false, false), engines.of(c, later));
            reads.clear();
            assertEquals(new TableEngines.Engine("Aria", false, false), cache.get(c, later));
            assertEquals(List.of("later"), reads, "a table created after the schema was read is read alone");

            TableReadCache<String> absent = new TableReadCache<>(new TableReadCache.Reader<>() {
                @Override
                public String one(Connection c1, TableName table) {
                    reads.add("absent " + table.table());
                    return null;
                }

                @Override
                public Map<String, String> whole(Connection c1, String schema) {
                    throw new AssertionError("one table asked for many times is not many tables");
                }
            });
            reads.clear();
            for (int i = 0; i < TableReadCache.WHOLE_AFTER + 1; i++) {
                assertNull(absent.get(c, new TableName(DB, "none")));
            }
            assertEquals(TableReadCache.WHOLE_AFTER + 1, reads.size(), "a table not there is asked again");
        }
    }
}
