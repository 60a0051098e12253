package io.jdm.sync.validator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.TableName;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pending row's table, as saved in the meta schema and read back by the next run. */
class RowCodecTest {
    @Test
    void aMergedShardsTableKeepsItsExtractedValues() {
        ValidatedTable t = new ValidatedTable(new TableName("s1", "orders_1"), new TableName("shop", "orders"),
                List.of(new Column("id", 1, "int", "int(11)", false, false, null, null),
                        new Column("v", 2, "varchar", "varchar(8)", true, false, "utf8mb4", "utf8mb4_bin")),
                new int[] {0, 1}, new int[] {0}, null,
                new ExtraColumns(List.of("c_table", "c_source"), List.of("1", "replica01")));
        ValidatedTable back = RowCodec.table(RowCodec.parse(RowCodec.table(t).toString()));
        assertEquals(t.extra(), back.extra());
        assertEquals(t.source(), back.source());
        assertEquals(t.target(), back.target());
        assertEquals(t.columns(), back.columns());
        assertArrayEquals(t.key(), back.key());

        ValidatedTable plain = new ValidatedTable(t.source(), t.target(), t.columns(), t.imageIndex(), t.key(), null,
                ExtraColumns.NONE);
        assertEquals(ExtraColumns.NONE, RowCodec.table(RowCodec.parse(RowCodec.table(plain).toString())).extra());
    }
}
