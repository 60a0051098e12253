package io.jdm.sync.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.RowChange.Kind;
import io.jdm.sync.ring.TableInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Merging changes of one row inside a batch, and refusing to when order could change. */
class CompactorTest {
    private static final TableInfo T = TableInfo.of(new TableSchema(new TableName("d", "t"), List.of(
            new Column("id", 1, "int", "int", false, false, null, null),
            new Column("uk", 2, "int", "int", false, false, null, null),
            new Column("v", 3, "varchar", "varchar(5)", true, false, "utf8mb4", "utf8mb4_general_ci")),
            List.of("id"), List.of(List.of("uk"))), new TableName("d", "t"));

    private static Pending p(Kind k, Object[] before, Object[] after) {
        List<String> keys = new ArrayList<>();
        for (Object[] row : new Object[][] {before, after}) {
            if (row != null) {
                keys.add("pk" + row[0]);
                keys.add("uk" + row[1]);
            }
        }
        return new Pending(k, T, before, after, keys.stream().distinct().toArray(String[]::new));
    }

    private static Object[] r(int id, int uk, String v) {
        return new Object[] {(long) id, (long) uk, v};
    }

    @Test
    void insertThenUpdatesBecomeOneInsert() {
        List<Pending> out = Compactor.compact(List.of(p(Kind.INSERT, null, r(1, 1, "a")),
                p(Kind.UPDATE, r(1, 1, "a"), r(1, 1, "b")), p(Kind.UPDATE, r(1, 1, "b"), r(1, 1, "c"))));
        assertEquals(1, out.size());
        assertEquals(Kind.INSERT, out.get(0).kind());
        assertArrayEquals(r(1, 1, "c"), out.get(0).after());
    }

    @Test
    void updateThenDeleteDeletesTheOriginalKey() {
        List<Pending> out = Compactor.compact(List.of(p(Kind.UPDATE, r(1, 1, "a"), r(2, 1, "a")),
                p(Kind.DELETE, r(2, 1, "a"), null)));
        assertEquals(1, out.size());
        assertEquals(Kind.DELETE, out.get(0).kind());
        assertArrayEquals(r(1, 1, "a"), out.get(0).before());
    }

    @Test
    void noMergeAcrossAChangeThatSharesAKey() {
        // row 2 takes uk 5 after row 1 gave it up; merging row 1's later update upward would reorder them
        List<Pending> in = List.of(p(Kind.UPDATE, r(1, 5, "a"), r(1, 6, "a")), p(Kind.INSERT, null, r(2, 5, "x")),
                p(Kind.UPDATE, r(1, 6, "a"), r(1, 5, "b")));
        assertEquals(3, Compactor.compact(in).size());
    }

    @Test
    void deleteThenInsertOfOneIdentityBecomesOneRowWrittenOverTheOld() {
        List<Pending> out = Compactor.compact(List.of(p(Kind.DELETE, r(1, 1, "a"), null),
                p(Kind.INSERT, null, r(1, 2, "b"))));
        assertEquals(1, out.size());
        assertEquals(Kind.UPDATE, out.get(0).kind());
        assertTrue(out.get(0).replaces());
        assertArrayEquals(r(1, 2, "b"), out.get(0).after());
        assertEquals(List.of("INSERT INTO `d`.`t` (`id`,`uk`,`v`) VALUES (1,2,'b') ON DUPLICATE KEY UPDATE "
                + "`id`=VALUES(`id`),`uk`=VALUES(`uk`),`v`=VALUES(`v`)"), GrouperTest.statements(out, false, false));
        assertEquals(List.of("REPLACE INTO `d`.`t` (`id`,`uk`,`v`) VALUES (1,2,'b')"),
                GrouperTest.statements(out, true, false));
    }

    @Test
    void aRowInsertedDeletedAndInsertedAgainIsWrittenEvenThoughTheTargetNeverHadIt() {
        // the first two merge into a DELETE of a row the target does not hold: a plain UPDATE would change nothing
        List<Pending> out = Compactor.compact(List.of(p(Kind.INSERT, null, r(1, 1, "a")),
                p(Kind.DELETE, r(1, 1, "a"), null), p(Kind.INSERT, null, r(1, 1, "b")),
                p(Kind.UPDATE, r(1, 1, "b"), r(1, 1, "c"))));
        assertEquals(1, out.size());
        for (boolean multipleRows : new boolean[] {false, true}) {
            assertEquals(List.of("INSERT INTO `d`.`t` (`id`,`uk`,`v`) VALUES (1,1,'c') ON DUPLICATE KEY UPDATE "
                    + "`id`=VALUES(`id`),`uk`=VALUES(`uk`),`v`=VALUES(`v`)"),
                    GrouperTest.statements(out, false, multipleRows));
        }
    }

    @Test
    void deleteThenInsertOfAnotherIdentityStaysTwoChanges() {
        // row 2 takes the unique value row 1 gave up: both rows exist on the source afterwards
        assertEquals(2, Compactor.compact(List.of(p(Kind.DELETE, r(1, 1, "a"), null),
                p(Kind.INSERT, null, r(2, 1, "b")))).size());
    }

    @Test
    void deleteThenInsertIsNotMergedWhereTheTargetHasColumnsOfItsOwn() {
        TableInfo wider = TableInfo.of(T.schema(), T.target(), true);
        List<Pending> in = List.of(new Pending(Kind.DELETE, wider, r(1, 1, "a"), null, new String[] {"pk1", "uk1"}),
                new Pending(Kind.INSERT, wider, null, r(1, 1, "b"), new String[] {"pk1", "uk1"}));
        assertEquals(2, Compactor.compact(in).size());
    }
}
