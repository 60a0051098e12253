package io.jdm.dump;

import io.jdm.embedded.Seq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.common.config.Consistency;
import io.jdm.common.dumpdir.DumpMetadata;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer commits transfers, inserts, deletes and updates across two tables before, during and
 * after the dump, recording the binlog position after every commit next to the rows it wrote.
 * The dumped data must equal exactly the replay of the commits up to the dump's recorded position.
 */
class ConsistencyUnderWritesIT {
    private static final String DB = "ConsistencyUnderWritesIT";
    private static final int ROWS = 4000;

    @TempDir
    Path tmp;

    /** The row images one commit left: table → id → [bal, note], or null for a deleted row. */
    record Commit(BinlogPosition position, long nanos, Map<String, Map<Integer, List<Object>>> rows) {
    }

    @Test
    void dumpedDataIsExactlyTheSourceAtTheRecordedPosition() throws Exception {
        for (Consistency mode : List.of(Consistency.FLUSH, Consistency.LOCK)) {
            runOnce(mode);
        }
    }

    private void runOnce(Consistency mode) throws Exception {
        ServerPair pair = TestServers.shared();
        SqlServer source = pair.source();
        source.freshDatabase(DB);
        source.execute("USE `" + DB + "`",
                "CREATE TABLE acct_a (id INT PRIMARY KEY, bal BIGINT NOT NULL, note VARCHAR(40))",
                "CREATE TABLE acct_b (id INT PRIMARY KEY, bal BIGINT NOT NULL, note VARCHAR(40))",
                "INSERT INTO acct_a SELECT seq, 100, CONCAT('a', seq) FROM " + Seq.upTo(ROWS),
                "INSERT INTO acct_b SELECT seq, 100, NULL FROM " + Seq.upTo(ROWS),
                "ANALYZE TABLE acct_a, acct_b");
        Map<String, TreeMap<Integer, List<Object>>> initial = new HashMap<>();
        for (String t : List.of("acct_a", "acct_b")) {
            TreeMap<Integer, List<Object>> m = new TreeMap<>();
            for (int i = 1; i <= ROWS; i++) {
                m.put(i, List.of(100L, t.equals("acct_a") ? "a" + i : "null"));
            }
            initial.put(t, m);
        }
        BinlogPosition start;
        try (Connection c = DumpTestSupport.open(source)) {
            start = Flavor.detect(c).currentPosition(c);
        }

        List<Commit> commits = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> writerError = new AtomicReference<>();
        Writer writer = new Writer(source, commits, writerError);
        Thread t = new Thread(writer, "consistency-it-writer");
        t.start();
        long dumpStart;
        long dumpEnd;
        DumpResult result;
        Path dir = tmp.resolve(mode.label());
        try {
            awaitCommits(commits, 30, writerError);
            DumpUnit unit = new DumpUnit(DumpConfig.defaults("consistency", DumpTestSupport.spec(source), dir)
                    .withTableFilter((db, tbl) -> db.equals(DB)).withThreads(3).withRows(250)
                    .withStatementSize(2048).withConsistency(mode));
            // Make sure commits land between the snapshot and the reads, whatever the timing.
            unit.afterSnapshot = () -> awaitCommits(commits, commits.size() + 40, writerError);
            dumpStart = System.nanoTime();
            result = unit.run();
            dumpEnd = System.nanoTime();
            awaitCommits(commits, commits.size() + 30, writerError);
        } finally {
            writer.stop = true;
            t.join(30_000);
        }
        assertEquals(null, writerError.get(), "writer failed");

        BinlogPosition dumped = DumpMetadata.readFrom(dir).orElseThrow().position();
        assertNotNull(dumped);
        assertEquals(dumped, result.position());
        int k = -1;
        if (dumped.equals(start)) {
            k = 0;
        }
        for (int i = 0; i < commits.size() && k < 0; i++) {
            if (commits.get(i).position().equals(dumped)) {
                k = i + 1;
            }
        }
        assertTrue(k > 0, "the recorded position " + dumped + " is one of the writer's commit positions");
        long during = commits.stream().filter(c -> c.nanos() > dumpStart && c.nanos() < dumpEnd).count();
        assertTrue(during >= 40, "commits while the dump ran: " + during);
        assertTrue(commits.size() - k >= 40, "commits after the snapshot: " + (commits.size() - k));

        for (int i = 0; i < k; i++) {
            commits.get(i).rows().forEach((table, rows) -> rows.forEach((id, img) -> {
                if (img == null) {
                    initial.get(table).remove(id);
                } else {
                    initial.get(table).put(id, img);
                }
            }));
        }
        SqlServer target = pair.target();
        DumpTestSupport.load(dir, target);
        for (String table : List.of("acct_a", "acct_b")) {
            TreeMap<Integer, List<Object>> actual = targetRows(target, table);
            assertEquals("", diff(initial.get(table), actual),
                    mode + ": " + table + " differs from the source as of commit " + k + " of " + commits.size());
            assertEquals(initial.get(table), actual);
        }
    }

    /** The first differences, "" when none: a readable failure instead of two 4000-row strings. */
    private static String diff(TreeMap<Integer, List<Object>> expected, TreeMap<Integer, List<Object>> actual) {
        StringBuilder sb = new StringBuilder();
        java.util.TreeSet<Integer> ids = new java.util.TreeSet<>(expected.keySet());
        ids.addAll(actual.keySet());
        int shown = 0;
        for (Integer id : ids) {
            if (!java.util.Objects.equals(expected.get(id), actual.get(id)) && shown++ < 10) {
                sb.append("id ").append(id).append(": expected ").append(expected.get(id)).append(" got ")
                        .append(actual.get(id)).append("; ");
            }
        }
        return sb.toString();
    }

    private static TreeMap<Integer, List<Object>> targetRows(SqlServer target, String table) throws SQLException {
        TreeMap<Integer, List<Object>> m = new TreeMap<>();
        try (Connection c = DumpTestSupport.open(target); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, bal, note FROM `" + DB + "`." + table)) {
            while (rs.next()) {
                m.put(rs.getInt(1), List.of(rs.getLong(2), String.valueOf(rs.getString(3))));
            }
        }
        return m;
    }

    private static void awaitCommits(List<Commit> commits, int n, AtomicReference<Throwable> error) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (commits.size() < n) {
            if (error.get() != null) {
                throw new IllegalStateException("writer failed", error.get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("writer made only " + commits.size() + " of " + n + " commits");
            }
            Thread.onSpinWait();
        }
    }

    /** The single writer: each commit is recorded with the binlog position right after it. */
    static final class Writer implements Runnable {
        private final SqlServer source;
        private final List<Commit> commits;
        private final AtomicReference<Throwable> error;
        volatile boolean stop;

        Writer(SqlServer source, List<Commit> commits, AtomicReference<Throwable> error) {
            this.source = source;
            this.commits = commits;
            this.error = error;
        }

        @Override
        public void run() {
            Random rnd = new Random(42);
            Map<String, Map<Integer, Long>> bal = new HashMap<>();
            for (String t : List.of("acct_a", "acct_b")) {
                Map<Integer, Long> m = new HashMap<>();
                for (int i = 1; i <= ROWS; i++) {
                    m.put(i, 100L);
                }
                bal.put(t, m);
            }
            Map<Integer, String> notesA = new HashMap<>();
            int nextId = ROWS + 1;
            try (Connection c = DumpTestSupport.open(source)) {
                c.setAutoCommit(false);
                while (!stop) {
                    Map<String, Map<Integer, List<Object>>> images = new HashMap<>();
                    int op = rnd.nextInt(4);
                    if (op == 0 || op == 1) { // transfer between tables
                        int a = pick(rnd, bal.get("acct_a"));
                        int b = pick(rnd, bal.get("acct_b"));
                        long x = 1 + rnd.nextInt(50);
                        update(c, "acct_a", a, -x);
                        update(c, "acct_b", b, x);
                        bal.get("acct_a").merge(a, -x, Long::sum);
                        bal.get("acct_b").merge(b, x, Long::sum);
                        images.computeIfAbsent("acct_a", k -> new HashMap<>())
                                .put(a, List.of(bal.get("acct_a").get(a), notesA.getOrDefault(a, "a" + a)));
                        images.computeIfAbsent("acct_b", k -> new HashMap<>())
                                .put(b, List.of(bal.get("acct_b").get(b), "null"));
                    } else if (op == 2) { // insert past the end and delete somewhere
                        int id = nextId++;
                        exec(c, "INSERT INTO `" + DB + "`.acct_a VALUES (" + id + ", 7, 'new" + id + "')");
                        bal.get("acct_a").put(id, 7L);
                        notesA.put(id, "new" + id);
                        int gone = pick(rnd, bal.get("acct_b"));
                        exec(c, "DELETE FROM `" + DB + "`.acct_b WHERE id = " + gone);
                        bal.get("acct_b").remove(gone);
                        images.computeIfAbsent("acct_a", k -> new HashMap<>()).put(id, List.of(7L, "new" + id));
                        Map<Integer, List<Object>> del = images.computeIfAbsent("acct_b", k -> new HashMap<>());
                        del.put(gone, null);
                    } else { // update a note with characters that need escaping
                        int a = pick(rnd, bal.get("acct_a"));
                        String note = "n'" + rnd.nextInt(1000) + "\\;";
                        try (PreparedStatement ps = c.prepareStatement(
                                "UPDATE `" + DB + "`.acct_a SET note = ? WHERE id = ?")) {
                            ps.setString(1, note);
                            ps.setInt(2, a);
                            ps.executeUpdate();
                        }
                        notesA.put(a, note);
                        images.computeIfAbsent("acct_a", k -> new HashMap<>())
                                .put(a, List.of(bal.get("acct_a").get(a), note));
                    }
                    c.commit();
                    commits.add(new Commit(Flavor.detect(c).currentPosition(c), System.nanoTime(), images));
                }
            } catch (Throwable e) {
                error.set(e);
            }
        }

        private static int pick(Random rnd, Map<Integer, Long> m) {
            while (true) {
                int id = 1 + rnd.nextInt(ROWS);
                if (m.containsKey(id)) {
                    return id;
                }
            }
        }

        private static void update(Connection c, String table, int id, long delta) throws SQLException {
            exec(c, "UPDATE `" + DB + "`." + table + " SET bal = bal + (" + delta + ") WHERE id = " + id);
        }

        private static void exec(Connection c, String sql) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            }
        }
    }
}
