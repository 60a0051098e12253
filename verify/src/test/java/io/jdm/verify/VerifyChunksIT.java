package io.jdm.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.metrics.MetricFamilies;
import io.jdm.common.sql.TableName;
import io.jdm.verify.VerifyReport.DiffKind;
import io.jdm.verify.VerifyReport.Result;
import io.jdm.verify.VerifyReport.TableResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Chunking by integer, composite and unsigned keys, tables without a key, odd names, routes and errors. */
class VerifyChunksIT {
    private static final String DB = "verify_chunks";
    private static VerifyItSupport it;
    @TempDir
    Path fixDir;

    @BeforeAll
    static void servers() {
        it = new VerifyItSupport();
        it.pair.source().freshDatabase(DB);
        it.pair.target().freshDatabase(DB);
    }

    private static String seq(int n) {
        return "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < " + n + ") ";
    }

    private VerifyConfig config(TableName t, int threads, long chunkRows) {
        return new VerifyConfig("chunks", it.source, it.target, List.of(TablePair.same(t)), threads, chunkRows,
                fixDir, 50, SnapshotOptions.NONE);
    }

    private static Set<String> keys(TableResult t, DiffKind kind) {
        return t.rows().stream().filter(d -> d.kind() == kind).map(VerifyReport.RowDiff::key).collect(Collectors.toSet());
    }

    private void assertFixRepairs(VerifyConfig c) throws Exception {
        // the fix holds rows of the source: its owner's only, as a dump
        try (var files = Files.list(fixDir)) {
            for (Path f : files.toList()) {
                assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(f)), f.toString());
            }
        }
        assertTrue(it.applyFix(fixDir) > 0, "fix SQL holds statements");
        VerifyReport again = new Verifier(c.withFixSqlDir(null)).run();
        assertTrue(again.matches(), "after the fix SQL:\n" + again.renderTable());
    }

    @Test
    void integerKeyIsChunkedAndComparedInParallel() throws Exception {
        TableName t = new TableName(DB, "ints");
        it.both("CREATE TABLE " + t.quoted() + " (id BIGINT PRIMARY KEY, k INT, c CHAR(20), pad VARCHAR(30))",
                "SET SESSION max_recursive_iterations = 100000",
                "INSERT INTO " + t.quoted() + " " + seq(6000) + "SELECT n * 3, n % 97, CONCAT('c-', n),"
                        + " REPEAT('p', n % 30) FROM s");
        VerifyConfig c = config(t, 3, 500);
        Verifier v = new Verifier(c);
        VerifyReport r = v.run();
        TableResult tr = r.table(t);
        assertEquals(Result.MATCH, tr.result(), r.renderTable());
        assertEquals(6000, tr.rowsSource());
        assertEquals(6000, tr.rowsTarget());
        assertTrue(tr.chunks() >= 10, "chunks: " + tr.chunks());
        assertEquals(6000, v.metrics().rowsChecked());
        assertEquals(tr.chunks(), v.metrics().chunksDone());
        assertEquals(6000L, v.metrics().status().get("rowsChecked"));
        MetricFamilies m = new MetricFamilies();
        v.metrics().collect(m);
        assertTrue(m.text().contains("jdm_verify_rows_checked_total{task=\"" + c.task() + "\"} 6000"), m.text());

        it.onTarget("DELETE FROM " + t.quoted() + " WHERE id IN (300, 9000)",
                "UPDATE " + t.quoted() + " SET c = 'changed' WHERE id = 3000",
                "INSERT INTO " + t.quoted() + " VALUES (-5, 0, 'below', ''), (100000, 0, 'above', '')");
        r = new Verifier(c).run();
        tr = r.table(t);
        assertEquals(Set.of("id=300", "id=9000"), keys(tr, DiffKind.MISSING), r.renderTable());
        assertEquals(Set.of("id=-5", "id=100000"), keys(tr, DiffKind.EXTRA), r.renderTable());
        assertEquals(Set.of("id=3000"), keys(tr, DiffKind.CHANGED), r.renderTable());
        assertEquals(5, tr.differingRows());
        assertEquals(1, r.exitCode());
        assertFixRepairs(c);
    }

    @Test
    void compositeKeyOnAnOddlyNamedTable() throws Exception {
        TableName t = new TableName(DB, "we`ird");
        it.both("CREATE TABLE " + t.quoted() + " (`na me` VARCHAR(20), `n``x` INT, v VARCHAR(40),"
                        + " PRIMARY KEY (`na me`, `n``x`))",
                "SET SESSION max_recursive_iterations = 100000",
                "INSERT INTO " + t.quoted() + " " + seq(2000) + "SELECT CONCAT('Key', n DIV 10), n % 10,"
                        + " CONCAT('value ', n) FROM s");
        VerifyConfig c = config(t, 2, 150);
        VerifyReport r = new Verifier(c).run();
        assertEquals(Result.MATCH, r.table(t).result(), r.renderTable());
        assertTrue(r.table(t).chunks() >= 10, "chunks: " + r.table(t).chunks());

        // 'aaa' sorts after 'Key…' in bytes but before it in the case-insensitive collation.
        it.onTarget("DELETE FROM " + t.quoted() + " WHERE `na me` = 'Key150' AND `n``x` = 3",
                "UPDATE " + t.quoted() + " SET v = 'other' WHERE `na me` = 'Key7' AND `n``x` = 9",
                "INSERT INTO " + t.quoted() + " VALUES ('aaa', 0, 'x'), ('ZZZ', 1, 'y')");
        r = new Verifier(c).run();
        TableResult tr = r.table(t);
        assertEquals(Set.of("na me='Key150', n`x=3"), keys(tr, DiffKind.MISSING), r.renderTable());
        assertEquals(Set.of("na me='aaa', n`x=0", "na me='ZZZ', n`x=1"), keys(tr, DiffKind.EXTRA), r.renderTable());
        assertEquals(Set.of("na me='Key7', n`x=9"), keys(tr, DiffKind.CHANGED), r.renderTable());
        Path file = fixDir.resolve("verify_chunks.we`ird.fix.sql");
        List<String> lines = Files.readAllLines(file);
        int firstReplace = lines.indexOf(lines.stream().filter(l -> l.startsWith("REPLACE")).findFirst().orElseThrow());
        assertTrue(lines.subList(firstReplace, lines.size()).stream().noneMatch(l -> l.startsWith("DELETE")),
                "deletes come first: " + lines);
        assertFixRepairs(c);
        // A run that finds nothing removes the earlier run's file, which would now be stale.
        new Verifier(c).run();
        assertFalse(Files.exists(file), "stale fix file left behind");
    }

    @Test
    void tableWithoutKeyIsComparedAsAMultiset() throws Exception {
        TableName t = new TableName(DB, "nokey");
        it.both("CREATE TABLE " + t.quoted() + " (a INT, b VARCHAR(10), f FLOAT)");
        it.onSource("INSERT INTO " + t.quoted() + " VALUES (1, 'a', 0.1), (1, 'a', 0.1), (2, 'b', NULL), (3, NULL, 1.5)");
        it.onTarget("INSERT INTO " + t.quoted() + " VALUES (1, 'a', 0.1), (2, 'b', NULL), (2, 'b', NULL), (3, NULL, 1.5),"
                + " (4, 'd', 2)");
        VerifyConfig c = config(t, 2, 100);
        VerifyReport r = new Verifier(c).run();
        TableResult tr = r.table(t);
        assertEquals(1, tr.chunks());
        assertEquals(1, tr.missing(), r.renderTable());
        assertEquals(2, tr.extra(), r.renderTable());
        assertEquals(0, tr.changed(), r.renderTable());
        assertTrue(keys(tr, DiffKind.MISSING).iterator().next().startsWith("a=1, b='a'"), r.renderTable());
        assertFixRepairs(c);
    }

    @Test
    void unsignedBigintKeyAtTheTopOfItsRange() throws Exception {
        TableName t = new TableName(DB, "ubig");
        it.both("CREATE TABLE " + t.quoted() + " (id BIGINT UNSIGNED PRIMARY KEY, v INT)",
                "INSERT INTO " + t.quoted() + " VALUES (0, 0), (1, 1), (9223372036854775807, 2),"
                        + " (9223372036854775808, 3), (18446744073709551614, 4), (18446744073709551615, 5)",
                "ANALYZE TABLE " + t.quoted());
        VerifyConfig c = config(t, 2, 2);
        VerifyReport r = new Verifier(c).run();
        assertEquals(Result.MATCH, r.table(t).result(), r.renderTable());
        assertTrue(r.table(t).chunks() >= 3, "chunks: " + r.table(t).chunks());
        it.onTarget("UPDATE " + t.quoted() + " SET v = 50 WHERE id = 18446744073709551615");
        r = new Verifier(c).run();
        assertEquals(Set.of("id=18446744073709551615"), keys(r.table(t), DiffKind.CHANGED), r.renderTable());
        assertFixRepairs(c);
    }

    @Test
    void routedTablesAreListedThroughTheRouter() throws Exception {
        String src = DB + "_src";
        String dst = DB + "_dst";
        it.pair.source().freshDatabase(src);
        it.pair.target().freshDatabase(dst);
        it.onSource("CREATE TABLE `" + src + "`.a (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE `" + src + "`.b (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE `" + src + "`.skipped (id INT PRIMARY KEY)",
                "INSERT INTO `" + src + "`.a VALUES (1, 1), (2, 2)");
        it.onTarget("CREATE TABLE `" + dst + "`.a (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE `" + dst + "`.b (id INT PRIMARY KEY, v INT)",
                "INSERT INTO `" + dst + "`.a VALUES (1, 1), (2, 2)");
        List<TablePair> pairs = VerifyConfig.listPairs(it.source, (db, tbl) -> db.equals(src) && !tbl.equals("skipped"),
                n -> new TableName(dst, n.table()));
        assertEquals(List.of(new TablePair(new TableName(src, "a"), new TableName(dst, "a")),
                new TablePair(new TableName(src, "b"), new TableName(dst, "b"))), pairs);
        VerifyReport r = Verifier.assertSame(it.source, it.target, pairs);
        assertEquals(2, r.tables().size());
        assertTrue(r.renderTable().contains(src + ".a -> " + dst + ".a"), r.renderTable());
    }

    /** A selected table the dump refuses (MariaDB's system-versioned tables): named, never passed over as verified. */
    @Test
    void aSelectedSystemVersionedTableStopsTheListingNamingIt() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(it.pair.source().flavor().equals("mariadb"),
                "system versioning is MariaDB's");
        String src = DB + "_hist";
        it.pair.source().freshDatabase(src);
        it.onSource("CREATE TABLE `" + src + "`.a (id INT PRIMARY KEY)",
                "CREATE TABLE `" + src + "`.h (id INT PRIMARY KEY) WITH SYSTEM VERSIONING");
        io.jdm.common.error.FatalException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.jdm.common.error.FatalException.class,
                () -> VerifyConfig.listPairs(it.source, (db, tbl) -> db.equals(src), n -> n));
        assertTrue(e.getMessage().startsWith("verify: ") && e.getMessage().contains("`" + src + "`.`h` (system versioned)")
                && !e.getMessage().contains("\n"), e.getMessage());
        assertEquals(List.of(TablePair.same(new TableName(src, "a"))),
                VerifyConfig.listPairs(it.source, (db, tbl) -> db.equals(src) && !tbl.equals("h"), n -> n));
    }

    @Test
    void missingTargetTableIsAnErrorWithExitCode2() throws Exception {
        TableName t = new TableName(DB, "only_on_source");
        it.onSource("CREATE TABLE " + t.quoted() + " (id INT PRIMARY KEY)");
        VerifyReport r = Verifier.compare(it.source, it.target, List.of(TablePair.same(t)));
        TableResult tr = r.table(t);
        assertEquals(Result.ERROR, tr.result());
        assertTrue(tr.error().contains("does not exist on the target"), tr.error());
        assertEquals(2, r.exitCode());
        assertTrue(r.toJson().contains("\"result\" : \"ERROR\""), r.toJson());
    }

    @Test
    void aTargetListedAsPairAndAsMergeIsRejected() {
        TableName target = new TableName(DB, "merged");
        List<TablePair> pairs = List.of(new TablePair(new TableName("s1", "t"), target));
        List<MergedTable> merges = List.of(new MergedTable(target,
                List.of(new MergedTable.Shard("other", it.source, new TableName("s2", "t")))));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VerifyConfig.of(it.source, it.target, pairs).withTables(pairs, merges));
        assertTrue(e.getMessage().contains("is listed twice, from s1.t"), e.getMessage());
    }
}
