package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerProfile;
import io.jdm.verify.VerifyReport.DiffKind;
import io.jdm.verify.VerifyReport.Result;
import io.jdm.verify.VerifyReport.RowDiff;
import io.jdm.verify.VerifyReport.TableResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Target tables merged from several shards (DM's shard merge) compared as the union of the shards. */
class VerifyMergeIT {
    private static VerifyItSupport it;
    private static EmbeddedMariaDb second;
    private static ConnectionSpec secondSpec;
    @TempDir
    Path fixDir;

    @BeforeAll
    static void servers() {
        it = new VerifyItSupport();
        for (String db : List.of("vm_1", "vm_2", "vm_3", "vm_k1", "vm_k2", "vm_n1", "vm_n2")) {
            it.pair.source().freshDatabase(db);
        }
        it.pair.target().freshDatabase("vm_all");
        second = EmbeddedMariaDb.start("verify-merge-second", ServerProfile.SOURCE);
        second.freshDatabase("vm_x");
        secondSpec = VerifyItSupport.spec(second);
    }

    @AfterAll
    static void stop() {
        if (second != null) {
            second.close();
        }
    }

    private static String seq(int n) {
        return "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < " + n + ") ";
    }

    /** vm_1.t holds odd ids 1..1999, vm_2.t even ids 2..2000; the target holds both. */
    private static List<TablePair> intShards(String table) throws Exception {
        String ddl = " (id INT PRIMARY KEY, v VARCHAR(20), d DECIMAL(8,2))";
        TableName target = new TableName("vm_all", table);
        it.onSource("CREATE TABLE vm_1." + table + ddl, "CREATE TABLE vm_2." + table + ddl,
                "INSERT INTO vm_1." + table + " " + seq(1000) + "SELECT 2 * n - 1, CONCAT('v', n), n / 4 FROM s",
                "INSERT INTO vm_2." + table + " " + seq(1000) + "SELECT 2 * n, CONCAT('w', n), n / 8 FROM s");
        it.onTarget("CREATE TABLE " + target.quoted() + ddl,
                "INSERT INTO " + target.quoted() + " " + seq(1000) + "SELECT 2 * n - 1, CONCAT('v', n), n / 4 FROM s",
                "INSERT INTO " + target.quoted() + " " + seq(1000) + "SELECT 2 * n, CONCAT('w', n), n / 8 FROM s");
        return List.of(new TablePair(new TableName("vm_1", table), target),
                new TablePair(new TableName("vm_2", table), target));
    }

    private VerifyConfig config(List<TablePair> pairs, long chunkRows) {
        return new VerifyConfig("merge", it.source, it.target, pairs, 2, chunkRows, fixDir, 50, SnapshotOptions.NONE);
    }

    private static RowDiff only(TableResult t, DiffKind kind) {
        List<RowDiff> rows = t.rows().stream().filter(d -> d.kind() == kind).toList();
        assertEquals(1, rows.size(), "one " + kind + " row in " + t.rows());
        return rows.get(0);
    }

    @Test
    void equalUnionMatchesAndDifferencesAreNamedWithTheirShard() throws Exception {
        List<TablePair> pairs = intShards("t");
        TableName target = new TableName("vm_all", "t");
        VerifyConfig c = config(pairs, 300);
        VerifyReport r = new Verifier(c).run();
        TableResult tr = r.table(target);
        assertEquals(Result.MATCH, tr.result(), r.renderTable());
        assertEquals(2000, tr.rowsSource());
        assertEquals(2000, tr.rowsTarget());
        assertTrue(tr.chunks() >= 5, "ranges: " + tr.chunks());
        assertEquals(List.of("vm_1.t", "vm_2.t"), tr.shards());
        assertEquals(0, r.exitCode());
        assertTrue(r.renderTable().contains("vm_all.t <- 2 shards"), r.renderTable());

        it.onTarget("UPDATE vm_all.t SET v = 'changed' WHERE id = 1234",
                "INSERT INTO vm_all.t VALUES (5000, 'nobody', 0)",
                "DELETE FROM vm_all.t WHERE id = 777");
        r = new Verifier(c).run();
        tr = r.table(target);
        assertEquals(Result.DIFFERENT, tr.result(), r.renderTable());
        assertEquals(1, r.exitCode());
        assertEquals(1, tr.changed());
        assertEquals(1, tr.extra());
        assertEquals(1, tr.missing());
        assertEquals(0, tr.collisions());
        assertEquals(2000, tr.rowsSource());
        assertEquals(2000, tr.rowsTarget());
        RowDiff changed = only(tr, DiffKind.CHANGED);
        assertEquals("id=1234", changed.key());
        assertEquals("from shard vm_2.t", changed.detail());
        assertEquals("v", changed.columns().get(0).column());
        assertEquals("'w617'", changed.columns().get(0).source());
        assertEquals("'changed'", changed.columns().get(0).target());
        assertEquals("id=5000", only(tr, DiffKind.EXTRA).key());
        RowDiff missing = only(tr, DiffKind.MISSING);
        assertEquals("id=777", missing.key());
        assertEquals("from shard vm_1.t", missing.detail());
        assertTrue(r.toJson().contains("\"detail\" : \"from shard vm_2.t\""), r.toJson());
        assertTrue(r.toJson().contains("\"collisions\" : 0"), r.toJson());

        String fix = Files.readString(fixDir.resolve(FixSql.fileName(target)));
        assertTrue(fix.contains("DELETE FROM `vm_all`.`t` WHERE `id` = 5000;"), fix);
        assertTrue(fix.contains("REPLACE INTO `vm_all`.`t` (`id`,`v`,`d`) VALUES (1234,'w617',"), fix);
        assertTrue(it.applyFix(fixDir) > 0);
        VerifyReport again = new Verifier(c.withFixSqlDir(null)).run();
        assertTrue(again.matches(), "after the fix SQL:\n" + again.renderTable());
    }

    @Test
    void extraTargetRowWithEqualCountIsFound() throws Exception {
        List<TablePair> pairs = intShards("swap");
        // The count stays equal: one shard row gone, one row no shard has.
        it.onTarget("DELETE FROM vm_all.swap WHERE id = 10", "INSERT INTO vm_all.swap VALUES (-3, 'x', 1)");
        VerifyReport r = new Verifier(config(pairs, 10_000)).run();
        TableResult tr = r.table(new TableName("vm_all", "swap"));
        assertEquals(Result.DIFFERENT, tr.result(), r.renderTable());
        assertEquals("id=-3", only(tr, DiffKind.EXTRA).key());
        assertEquals("in no shard", only(tr, DiffKind.EXTRA).detail());
        assertEquals("id=10", only(tr, DiffKind.MISSING).key());
        assertEquals(2000, tr.rowsTarget());
    }

    @Test
    void aKeyInTwoShardsIsACollision() throws Exception {
        List<TablePair> pairs = intShards("dup");
        // vm_2 gets id 501, which vm_1 holds too; the target kept vm_1's row.
        it.onSource("INSERT INTO vm_2.dup VALUES (501, 'other', 9)");
        VerifyReport r = new Verifier(config(pairs, 400)).run();
        TableResult tr = r.table(new TableName("vm_all", "dup"));
        assertEquals(Result.DIFFERENT, tr.result(), r.renderTable());
        assertEquals(1, tr.collisions(), r.renderTable());
        assertEquals(0, tr.missing() + tr.extra() + tr.changed(), r.renderTable());
        RowDiff c = only(tr, DiffKind.COLLISION);
        assertEquals("id=501", c.key());
        assertEquals("key held by shards vm_1.dup and vm_2.dup", c.detail());
        assertTrue(r.renderTable().contains("COLLISION id=501  (key held by shards vm_1.dup and vm_2.dup)"),
                r.renderTable());
        String fix = Files.readString(fixDir.resolve(FixSql.fileName(new TableName("vm_all", "dup"))));
        assertTrue(fix.contains("-- not repaired: id=501 is held by shards vm_1.dup and vm_2.dup"), fix);
    }

    @Test
    void compositeTextKeysInterleaveAcrossThreeShards() throws Exception {
        String ddl = " (a VARCHAR(10), b INT, v INT, PRIMARY KEY (a, b))";
        it.onSource("CREATE TABLE vm_1.c" + ddl, "CREATE TABLE vm_2.c" + ddl, "CREATE TABLE vm_3.c" + ddl);
        it.onTarget("CREATE TABLE vm_all.c" + ddl);
        for (int s = 1; s <= 3; s++) {
            String rows = seq(300) + "SELECT CHAR(65 + n % 26), n * 3 + " + s + ", n FROM s";
            it.onSource("INSERT INTO vm_" + s + ".c " + rows);
            it.onTarget("INSERT INTO vm_all.c " + rows);
        }
        TableName target = new TableName("vm_all", "c");
        List<TablePair> pairs = List.of(new TablePair(new TableName("vm_1", "c"), target),
                new TablePair(new TableName("vm_2", "c"), target), new TablePair(new TableName("vm_3", "c"), target));
        VerifyReport r = new Verifier(config(pairs, 90)).run();
        TableResult tr = r.table(target);
        assertEquals(Result.MATCH, tr.result(), r.renderTable());
        assertEquals(900, tr.rowsSource());
        assertTrue(tr.chunks() > 3, "ranges: " + tr.chunks());

        it.onTarget("UPDATE vm_all.c SET v = -1 WHERE a = 'K' AND b = 10 * 3 + 2");
        r = new Verifier(config(pairs, 90)).run();
        tr = r.table(target);
        RowDiff changed = only(tr, DiffKind.CHANGED);
        assertEquals("a='K', b=32", changed.key());
        assertEquals("from shard vm_2.c", changed.detail());
    }

    @Test
    void targetWithoutKeyHoldingBothRowsOfACollisionIsStillReported() throws Exception {
        it.onSource("CREATE TABLE vm_k1.t (id INT PRIMARY KEY, v INT)", "CREATE TABLE vm_k2.t (id INT PRIMARY KEY, v INT)",
                "INSERT INTO vm_k1.t VALUES (1, 1), (2, 2)", "INSERT INTO vm_k2.t VALUES (2, 2), (3, 3)");
        it.onTarget("CREATE TABLE vm_all.nokey (id INT, v INT)",
                "INSERT INTO vm_all.nokey VALUES (1, 1), (2, 2), (2, 2), (3, 3)");
        TableName target = new TableName("vm_all", "nokey");
        VerifyReport r = new Verifier(config(List.of(new TablePair(new TableName("vm_k1", "t"), target),
                new TablePair(new TableName("vm_k2", "t"), target)), 1000)).run();
        TableResult tr = r.table(target);
        assertEquals(Result.DIFFERENT, tr.result(), r.renderTable());
        assertEquals("id=2", only(tr, DiffKind.COLLISION).key());
        assertEquals(1, tr.differingRows(), r.renderTable());
    }

    @Test
    void shardsWithoutKeyAreComparedAsAMultiset() throws Exception {
        it.onSource("CREATE TABLE vm_n1.t (v INT, w VARCHAR(5))", "CREATE TABLE vm_n2.t (v INT, w VARCHAR(5))",
                "INSERT INTO vm_n1.t VALUES (1, 'a'), (2, 'b')", "INSERT INTO vm_n2.t VALUES (2, 'b'), (3, 'c')");
        it.onTarget("CREATE TABLE vm_all.multi (v INT, w VARCHAR(5))",
                "INSERT INTO vm_all.multi VALUES (1, 'a'), (2, 'b'), (2, 'b'), (3, 'c')");
        TableName target = new TableName("vm_all", "multi");
        List<TablePair> pairs = List.of(new TablePair(new TableName("vm_n1", "t"), target),
                new TablePair(new TableName("vm_n2", "t"), target));
        VerifyReport r = new Verifier(config(pairs, 1000)).run();
        assertEquals(Result.MATCH, r.table(target).result(), r.renderTable());

        it.onTarget("DELETE FROM vm_all.multi WHERE v = 2 LIMIT 1");
        r = new Verifier(config(pairs, 1000)).run();
        TableResult tr = r.table(target);
        assertEquals(Result.DIFFERENT, tr.result(), r.renderTable());
        assertEquals(1, tr.missing(), r.renderTable());
        assertEquals(0, tr.collisions());
    }

    @Test
    void shardsOnTwoSourcesAreReadEachFromItsOwn() throws Exception {
        String ddl = " (id BIGINT PRIMARY KEY, v VARCHAR(20))";
        it.onSource("CREATE TABLE vm_1.two" + ddl,
                "INSERT INTO vm_1.two " + seq(500) + "SELECT n, CONCAT('a', n) FROM s");
        VerifyItSupport.run(secondSpec, "CREATE TABLE vm_x.two" + ddl,
                "INSERT INTO vm_x.two " + seq(500) + "SELECT 1000 + n, CONCAT('b', n) FROM s");
        it.onTarget("CREATE TABLE vm_all.two" + ddl,
                "INSERT INTO vm_all.two " + seq(500) + "SELECT n, CONCAT('a', n) FROM s",
                "INSERT INTO vm_all.two " + seq(500) + "SELECT 1000 + n, CONCAT('b', n) FROM s");
        TableName target = new TableName("vm_all", "two");
        MergedTable m = new MergedTable(target, List.of(
                new MergedTable.Shard("mysql-01", it.source, new TableName("vm_1", "two")),
                new MergedTable.Shard("mysql-02", secondSpec, new TableName("vm_x", "two"))));
        VerifyConfig c = config(List.of(), 100).withTables(List.of(), List.of(m));
        VerifyReport r = new Verifier(c).run();
        TableResult tr = r.table(target);
        assertEquals(Result.MATCH, tr.result(), r.renderTable());
        assertEquals(1000, tr.rowsSource());
        assertEquals(List.of("mysql-01 vm_1.two", "mysql-02 vm_x.two"), tr.shards());

        VerifyItSupport.run(secondSpec, "INSERT INTO vm_x.two VALUES (7, 'a7')");
        it.onTarget("UPDATE vm_all.two SET v = 'moved' WHERE id = 1100");
        r = new Verifier(c).run();
        tr = r.table(target);
        assertEquals(Result.DIFFERENT, tr.result(), r.renderTable());
        RowDiff col = only(tr, DiffKind.COLLISION);
        assertEquals("id=7", col.key());
        assertEquals("key held by shards mysql-01 vm_1.two and mysql-02 vm_x.two", col.detail());
        RowDiff changed = only(tr, DiffKind.CHANGED);
        assertEquals("id=1100", changed.key());
        assertEquals("from shard mysql-02 vm_x.two", changed.detail());
    }

    @Test
    void snapshotComparisonOfAMergeIsRefusedPerTable() throws Exception {
        List<TablePair> pairs = intShards("snap");
        VerifyConfig c = config(pairs, 1000)
                .withSnapshot(SnapshotOptions.waitFor(p -> true, java.time.Duration.ofSeconds(5), 1));
        VerifyReport r = new Verifier(c).run();
        TableResult tr = r.table(new TableName("vm_all", "snap"));
        assertEquals(Result.ERROR, tr.result(), r.renderTable());
        assertTrue(tr.error().contains("cannot be compared at a snapshot"), tr.error());
    }
}
