package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.sql.TableName;
import java.util.List;
import org.junit.jupiter.api.Test;

class TablePairTest {
    private static final TableName TARGET = new TableName("db", "t");

    @Test
    void aPairWithExtraColumnsIsComparedAloneWithItsOwnFixFile() {
        TablePair plain = new TablePair(new TableName("db_1", "t"), TARGET);
        TablePair shard = new TablePair(new TableName("db_2", "t_2"), TARGET,
                new ExtraColumns(List.of("c_table", "c_schema"), List.of("2", "a.b/c")));
        assertFalse(plain.filtered());
        assertTrue(shard.filtered());
        assertEquals("db_2.t_2 -> db.t (c_table = '2', c_schema = 'a.b/c')", shard.toString());
        assertEquals("db.t.fix.sql", FixSql.fileName(plain));
        assertEquals("db.t.c_table=2.c_schema=a%2Eb%2Fc.fix.sql", FixSql.fileName(shard));
        assertEquals(List.of(plain), VerifyConfig.merging(List.of(plain, shard)));
    }

    @Test
    void theFilterIsLiteralsThatMeanTheSameUnderEverySqlMode() {
        ExtraColumns e = new ExtraColumns(List.of("c`t", "c_s"), List.of("1'\\", ""));
        assertEquals(" AND `c``t` = _utf8mb4 X'31275c' AND `c_s` = ''",
                e.appendConditions(new StringBuilder()).toString());
        assertEquals("", ExtraColumns.NONE.appendConditions(new StringBuilder()).toString());
    }
}
