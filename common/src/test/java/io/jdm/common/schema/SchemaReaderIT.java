package io.jdm.common.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jdm.common.sql.TableName;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
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
}
