package io.jdm.sync.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The joined table of optimistic shard mode: widest types, union of columns and indexes, conflicts named. */
class TableShapeTest {
    private static TableShape shape(TableShape.Col... cols) {
        Map<String, TableShape.Col> m = new TreeMap<>();
        for (TableShape.Col c : cols) {
            m.put(c.name().toLowerCase(), c);
        }
        return new TableShape(m, Map.of("primary", new TableShape.Index("PRIMARY", true, List.of("id"))));
    }

    private static TableShape.Col col(String name, String type, boolean nullable, String def) {
        return new TableShape.Col(name, type, nullable, def, null);
    }

    @Test
    void typesWidenWithinTheirFamilyOnly() {
        assertEquals("bigint(20)", TableShape.joinType("int(11)", "bigint(20)"));
        assertEquals("varchar(40)", TableShape.joinType("varchar(40)", "varchar(10)"));
        assertEquals("decimal(12,4)", TableShape.joinType("decimal(10,2)", "decimal(8,4)"));
        assertNull(TableShape.joinType("int(11)", "int(10) unsigned"), "signedness differs");
        assertNull(TableShape.joinType("varchar(10)", "char(10)"));
        assertNull(TableShape.joinType("int(11)", "varchar(10)"));
    }

    @Test
    void aColumnOneShardAddedIsInTheJoinAndOneShardDroppedStaysUntilAllDropped() throws Exception {
        TableShape base = shape(col("id", "int(11)", false, null), col("old", "int(11)", true, "NULL"));
        TableShape added = shape(col("id", "int(11)", false, null), col("old", "int(11)", true, "NULL"),
                col("c2", "int(11)", true, "NULL"));
        TableShape dropped = shape(col("id", "int(11)", false, null));
        TableShape j = TableShape.join(List.of(base, added), List.of("a", "b"));
        assertTrue(j.sameAs(added));
        assertTrue(TableShape.join(List.of(base, dropped), List.of("a", "b")).sameAs(base), "kept while a has it");
        assertTrue(TableShape.join(List.of(dropped, dropped), List.of("a", "b")).sameAs(dropped), "gone when all dropped");
        assertFalse(base.sameAs(added));
    }

    @Test
    void unrelatedTypesAndUnwritableColumnsConflictNamingTheShards() {
        TableShape a = shape(col("id", "int(11)", false, null), col("z", "int(11)", true, "NULL"));
        TableShape b = shape(col("id", "int(11)", false, null), col("z", "varchar(10)", true, "NULL"));
        String why = assertThrows(TableShape.Conflict.class, () -> TableShape.join(List.of(a, b),
                List.of("s1:db_1.t", "s2:db_1.t"))).getMessage();
        assertTrue(why.contains("column z") && why.contains("s1:db_1.t") && why.contains("s2:db_1.t"), why);
        TableShape c = shape(col("id", "int(11)", false, null), col("n", "int(11)", false, null));
        TableShape d = shape(col("id", "int(11)", false, null));
        why = assertThrows(TableShape.Conflict.class, () -> TableShape.join(List.of(c, d), List.of("x", "y")))
                .getMessage();
        assertTrue(why.contains("NOT NULL without a default") && why.contains("y lack it"), why);
    }
}
