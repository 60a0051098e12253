package io.jdm.sync.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.schema.Column;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.RowChange.Kind;
import io.jdm.sync.ring.TableInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Multi-row grouping: fewer statements, and never a reordering of two changes that share a key. */
class GrouperTest {
    private static final TableInfo T1 = table("t1");
    private static final TableInfo T2 = table("t2");

    private static TableInfo table(String name) {
        return TableInfo.of(new TableSchema(new TableName("d", name), List.of(
                new Column("id", 1, "int", "int", false, false, null, null),
                new Column("uk", 2, "int", "int", false, false, null, null),
                new Column("v", 3, "int", "int", true, false, null, null)),
                List.of("id"), List.of(List.of("uk"))), new TableName("d", name));
    }

    private static Pending p(TableInfo t, Kind k, Object[] before, Object[] after) {
        List<String> keys = new ArrayList<>();
        for (Object[] row : new Object[][] {before, after}) {
            if (row != null) {
                keys.add(t.source().table() + ":pk" + row[0]);
                keys.add(t.source().table() + ":uk" + row[1]);
            }
        }
        return new Pending(k, t, before, after, keys.stream().distinct().toArray(String[]::new));
    }

    private static Object[] r(long id, long uk, long v) {
        return new Object[] {id, uk, v};
    }

    private static List<String> statements(List<Pending> batch, boolean safe) {
        return statements(batch, safe, true);
    }

    /** The statements {@link SqlBuilder} writes for {@code batch}, without their {@code ;}. */
    static List<String> statements(List<Pending> batch, boolean safe, boolean multipleRows) {
        StringBuilder sb = new StringBuilder();
        new SqlBuilder(multipleRows).append(sb, batch, safe);
        List<String> out = new ArrayList<>();
        for (String s : sb.toString().split(";\n")) {
            if (!s.isBlank()) {
                out.add(s);
            }
        }
        return out;
    }

    @Test
    void interleavedTablesBecomeOneStatementPerTableAndKind() {
        List<Pending> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(p(i % 2 == 0 ? T1 : T2, Kind.INSERT, null, r(i, i, i)));
            batch.add(p(i % 2 == 0 ? T2 : T1, Kind.DELETE, r(100 + i, 100 + i, 0), null));
        }
        List<String> sql = statements(batch, false);
        assertEquals(4, sql.size(), String.join("\n", sql));
        assertTrue(sql.get(0).startsWith("INSERT INTO `d`.`t1`"), sql.get(0));
        assertTrue(sql.get(1).startsWith("DELETE FROM `d`.`t2` WHERE (`id`) IN ("), sql.get(1));
    }

    @Test
    void aChangeNeverMovesBeforeOneThatSharesAKey() {
        // row 1 is deleted, then inserted again: the INSERT must not join the INSERT group before the DELETE
        List<Pending> batch = List.of(p(T1, Kind.INSERT, null, r(5, 5, 0)), p(T1, Kind.DELETE, r(1, 1, 0), null),
                p(T1, Kind.INSERT, null, r(1, 1, 9)));
        List<String> sql = statements(batch, false);
        assertEquals(List.of("INSERT INTO `d`.`t1` (`id`,`uk`,`v`) VALUES (5,5,0)",
                "DELETE FROM `d`.`t1` WHERE `id` = 1 LIMIT 1",
                "INSERT INTO `d`.`t1` (`id`,`uk`,`v`) VALUES (1,1,9)"), sql);
    }

    @Test
    void aSafeModeUpdateIsWrittenAsReplaceThatGroupsWithTheOthers() {
        // rows 1 and 2 keep their key: REPLACE alone overwrites them; row 4 moves to 5: its old key is deleted first
        List<Pending> batch = List.of(p(T1, Kind.UPDATE, r(1, 1, 0), r(1, 1, 1)), p(T1, Kind.UPDATE, r(2, 2, 0), r(2, 2, 1)),
                p(T1, Kind.UPDATE, r(4, 4, 0), r(5, 4, 0)), p(T1, Kind.INSERT, null, r(3, 3, 3)));
        List<String> sql = statements(batch, true);
        assertEquals(List.of("REPLACE INTO `d`.`t1` (`id`,`uk`,`v`) VALUES (1,1,1),(2,2,1)",
                "DELETE FROM `d`.`t1` WHERE `id` = 4 LIMIT 1",
                "REPLACE INTO `d`.`t1` (`id`,`uk`,`v`) VALUES (5,4,0),(3,3,3)"), sql);
    }

    /**
     * Random batches of a table with a primary and a unique key, generated from a model of the
     * source (so every change is one the binlog could hold): writing the grouped batch in REPLACE
     * semantics, where order between changes sharing a key decides the result, ends in the same
     * rows as writing it change by change.
     */
    @Test
    void randomBatchesEndInTheSameRowsAsChangeByChange() {
        Random rnd = new Random(7);
        for (int round = 0; round < 2000; round++) {
            Map<TableInfo, Map<Long, Object[]>> source = new HashMap<>();
            for (TableInfo t : List.of(T1, T2)) {
                Map<Long, Object[]> rows = new TreeMap<>();
                for (long id = 0; id < 6; id++) {
                    if (rnd.nextBoolean()) {
                        rows.put(id, r(id, id, 0));
                    }
                }
                source.put(t, rows);
            }
            Map<TableInfo, Map<Long, Object[]>> start = copy(source);
            List<Pending> batch = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                TableInfo t = rnd.nextBoolean() ? T1 : T2;
                Pending c = randomChange(rnd, t, source.get(t));
                if (c != null) {
                    batch.add(c);
                }
            }
            boolean safe = rnd.nextBoolean();
            List<Pending> input = rnd.nextBoolean() ? Compactor.compact(batch) : batch;
            Map<TableInfo, Map<Long, Object[]>> target = copy(start);
            for (Pending c : Grouper.group(input, safe)) {
                apply(target, c);
            }
            assertEquals(render(source), render(target), "round " + round + " safe=" + safe);
        }
    }

    /** One change the source could make now, applied to the model; null when none fits. */
    private static Pending randomChange(Random rnd, TableInfo t, Map<Long, Object[]> rows) {
        long id = rnd.nextInt(6);
        long uk = rnd.nextInt(6);
        Object[] now = rows.get(id);
        boolean ukFree = rows.values().stream().noneMatch(row -> (long) row[1] == uk && (long) row[0] != id);
        switch (rnd.nextInt(3)) {
            case 0 -> {
                if (now != null || !ukFree) {
                    return null;
                }
                Object[] after = r(id, uk, rnd.nextInt(100));
                rows.put(id, after);
                return p(t, Kind.INSERT, null, after);
            }
            case 1 -> {
                if (now == null) {
                    return null;
                }
                rows.remove(id);
                return p(t, Kind.DELETE, now, null);
            }
            default -> {
                if (now == null || !ukFree) {
                    return null;
                }
                long newId = rnd.nextInt(4) == 0 ? rnd.nextInt(6) : id;
                if (newId != id && rows.containsKey(newId)) {
                    return null;
                }
                Object[] after = r(newId, uk, rnd.nextInt(100));
                rows.remove(id);
                rows.put(newId, after);
                return p(t, Kind.UPDATE, now, after);
            }
        }
    }

    /** REPLACE semantics: a written row first removes every row it collides with on either key. */
    private static void apply(Map<TableInfo, Map<Long, Object[]>> db, Pending c) {
        Map<Long, Object[]> rows = db.get(c.table());
        if (c.before() != null) {
            rows.remove((Long) c.before()[0]);
        }
        if (c.after() != null) {
            rows.values().removeIf(row -> row[1].equals(c.after()[1]));
            rows.put((Long) c.after()[0], c.after());
        }
    }

    private static Map<TableInfo, Map<Long, Object[]>> copy(Map<TableInfo, Map<Long, Object[]>> db) {
        Map<TableInfo, Map<Long, Object[]>> out = new HashMap<>();
        db.forEach((t, rows) -> out.put(t, new TreeMap<>(rows)));
        return out;
    }

    private static Map<String, String> render(Map<TableInfo, Map<Long, Object[]>> db) {
        Map<String, String> out = new LinkedHashMap<>();
        for (TableInfo t : List.of(T1, T2)) {
            StringBuilder sb = new StringBuilder();
            db.get(t).values().forEach(row -> sb.append(List.of(row)).append(' '));
            out.put(t.source().table(), sb.toString());
        }
        return out;
    }
}
