package io.jdm.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A real {@code pt-online-schema-change --execute} on the source while {@code jdm run} syncs the
 * table and a writer inserts, updates (the key too) and deletes rows in it: the tool's triggers
 * copy those writes into {@code _t_new} while it copies the rows in chunks, then it swaps the
 * tables with one RENAME and drops its triggers (and, by default, {@code _t_old}). The target must
 * end with the source's table, as SHOW CREATE TABLE text (but for AUTO_INCREMENT, which the copy
 * leaves higher on the source) and every row as hex, with none of the tool's tables or triggers,
 * and the sync still applying writes to the new column. Skipped where the tool is not installed
 * (Debian: percona-toolkit).
 *
 * <p>The writer moves a key only to a value no row has or will get (its negative). On MariaDB an
 * {@code UPDATE IGNORE} whose new key is taken still fires AFTER UPDATE triggers: pt-osc's trigger
 * then REPLACEs into {@code _t_new} a row the real table never got, over the row that holds that
 * key, and after the swap the source's table holds rows its binlog never wrote, which neither DM
 * nor jdm, following that binlog, can know.
 */
@Execution(ExecutionMode.CONCURRENT) // each test its own database, task and writer; most of it is waiting
class PtOnlineSchemaChangeIT {
    private static final String ALTER = "ADD COLUMN c2 INT DEFAULT 7, ADD INDEX k2(k)";
    private static final int ROWS = 2000;
    /**
     * 20 chunks of 100 rows with a pause after each: the copy takes a second or two, during which the
     * writer's statements run. pt-osc copies a table it estimates small in one statement, so the
     * table's statistics are made current first.
     */
    private static final List<String> PACE = List.of("--chunk-size=100", "--chunk-time=0", "--sleep=0.03");

    private static final String TOOL = onPath("pt-online-schema-change");

    @TempDir
    Path dir;

    private SqlServer source;
    private SqlServer target;

    /** Skips before any server is started when the tool is missing. */
    @BeforeEach
    void toolAndServers() {
        assumeTrue(TOOL != null,
                "pt-online-schema-change not on PATH (Debian: apt-get install percona-toolkit): skipped");
        source = TestServers.shared().source();
        target = TestServers.shared().target();
    }

    @Test
    void dropsTheOldTable() throws Exception {
        migrate("ptosc_drop", List.of(), false);
    }

    /**
     * With {@code --no-drop-old-table}, and a {@code _t_new} left by an earlier run, so pt-osc names its
     * table {@code __t_new}: DM's rule reads that as the shadow table of {@code _t}, the cut-over's
     * RENAME says it is t's.
     */
    @Test
    void keepsTheOldTableBesideALeftoverNewTable() throws Exception {
        migrate("ptosc_keep", List.of("--no-drop-old-table"), true);
    }

    private void migrate(String db, List<String> options, boolean leftover) throws Exception {
        try (OnlineDdlTask m = new OnlineDdlTask(dir, db, db.replace('_', '-'), "online-ddl: true\n")) {
            String q = m.q;
            // the table pt-osc alters: an AUTO_INCREMENT key for the writer's inserts, k for the new index
            source.execute("ALTER TABLE " + q + "t MODIFY id INT NOT NULL AUTO_INCREMENT, ADD COLUMN k INT AFTER id",
                    "INSERT INTO " + q + "t (k, v) SELECT n, CONCAT('r', n) FROM (" + numbers() + ") s",
                    "ANALYZE TABLE " + q + "t");
            Process p = m.start("run", List.of());
            m.marker(p, 1);
            if (leftover) {
                source.execute("CREATE TABLE " + q + "`_t_new` (id INT PRIMARY KEY, w VARCHAR(20))",
                        "INSERT INTO " + q + "`_t_new` VALUES (1, 'left')");
            }

            Writer writer = new Writer(q, db);
            Thread w = new Thread(writer, "ptosc-writer");
            w.start();
            // no option for jdm: its binlog connection is no replica to pt-osc ("No slaves found"); the
            // version check would ask percona.com
            List<String> cmd = new ArrayList<>(List.of(TOOL, "--alter", ALTER, "--execute", "--no-version-check"));
            cmd.addAll(PACE);
            cmd.addAll(options);
            cmd.add("h=" + source.host() + ",P=" + source.port() + ",u=" + source.user() + ",D=" + db + ",t=t");
            Path out = dir.resolve("pt-osc.log");
            long t0 = System.nanoTime();
            Process osc = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertTrue(osc.waitFor(60, TimeUnit.SECONDS), "pt-online-schema-change did not end in 60 s");
            long oscMillis = (System.nanoTime() - t0) / 1_000_000;
            writer.stop.set(true);
            w.join(10_000);
            assertEquals(0, osc.exitValue(), () -> "pt-online-schema-change failed: " + read(out));
            String shadow = (leftover ? "__" : "_") + "t_new";
            assertTrue(read(out).contains("Created new table " + db + "." + shadow + " OK."), () -> read(out));
            assertTrue(writer.failure == null, () -> "the writer failed: " + writer.failure);
            for (Kind k : Kind.values()) {
                assertTrue(writer.whileTriggers.getOrDefault(k, 0) > 0, () -> "no " + k + " while pt-osc's triggers"
                        + " were on the table: " + writer.whileTriggers + "\n" + read(out));
            }
            System.out.printf("%s: pt-online-schema-change %s in %d ms; writes while its triggers were on: %s%n",
                    db, options, oscMillis, writer.whileTriggers);

            m.marker(p, 2);
            assertSameTable(m);
            List<String> onSource = new ArrayList<>(List.of("m", "t"));
            if (leftover) {
                onSource.add("_t_new");
            }
            if (options.contains("--no-drop-old-table")) {
                onSource.add("_t_old");
            }
            onSource.sort(null);
            assertEquals(onSource, tables(source, db), "the source keeps _t_old only with --no-drop-old-table");
            assertEquals(List.of("m", "t"), m.targetTables(), "none of pt-osc's tables reaches the target");
            assertEquals(List.of(), triggers(source, db), "pt-osc dropped its triggers on the source");
            assertEquals(List.of(), triggers(target, db), "no pt-osc trigger reaches the target");
            String recorded = m.meta + ".`" + m.name + "_onlineddl`";
            assertEquals(List.of(), target.rows("SELECT CONCAT_WS(' ', real_schema, real_table, seq, ghost_table,"
                    + " binlog_name, txn_pos, statement) FROM " + recorded), () -> "recorded statements are left after"
                    + " the cut-over; jdm's log: " + m.logs().lines().filter(l -> l.contains("online DDL")).toList());

            // the sync goes on, into the new column
            source.execute("INSERT INTO " + q + "t (k, v, c2) VALUES (-1, 'after', 70)",
                    "UPDATE " + q + "t SET c2 = 8 WHERE k = -1");
            m.marker(p, 3);
            assertSameTable(m);
            m.stop(p);
        }
    }

    private void assertSameTable(OnlineDdlTask m) throws SQLException {
        assertEquals(createTable(source, m.q), createTable(target, m.q), "SHOW CREATE TABLE t");
        assertSameRows(source.hexRows(m.db, "t"), target.hexRows(m.db, "t"), m.db + ".t, every column as hex");
        assertSameRows(source.hexRows(m.db, "m"), target.hexRows(m.db, "m"), m.db + ".m");
    }

    /** Equal lists, or a message with the rows each side lacks (not thousands of equal ones). */
    private static void assertSameRows(List<String> source, List<String> target, String what) {
        if (!source.equals(target)) {
            List<String> onSource = new ArrayList<>(source);
            onSource.removeAll(target);
            List<String> onTarget = new ArrayList<>(target);
            onTarget.removeAll(source);
            fail(what + ": " + source.size() + " rows on the source, " + target.size() + " on the target; only on"
                    + " the source: " + onSource + "; only on the target: " + onTarget);
        }
    }

    private static String createTable(SqlServer s, String q) throws SQLException {
        return s.rows("SHOW CREATE TABLE " + q + "t").get(0).replaceAll(" AUTO_INCREMENT=\\d+", "");
    }

    private static List<String> tables(SqlServer s, String db) throws SQLException {
        List<String> names = new ArrayList<>(s.rows("SELECT TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = '" + db + "'"));
        names.sort(null);
        return names;
    }

    private static List<String> triggers(SqlServer s, String db) throws SQLException {
        return s.rows("SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = '" + db + "'");
    }

    private enum Kind { INSERT, UPDATE, KEY_UPDATE, DELETE }

    /**
     * Writes to t one statement at a time until stopped, counting those that ran while pt-osc's three
     * triggers were on the table (seen before and after the statement): what the triggers copied.
     */
    private final class Writer implements Runnable {
        final AtomicBoolean stop = new AtomicBoolean();
        final Map<Kind, Integer> whileTriggers = new EnumMap<>(Kind.class);
        volatile Exception failure;
        private final String q;
        private final String db;

        Writer(String q, String db) {
            this.q = q;
            this.db = db;
        }

        @Override
        public void run() {
            Random r = new Random(7);
            try (Connection c = source.connect(); Statement st = c.createStatement()) {
                for (int i = 0; !stop.get(); i++) {
                    Kind k = Kind.values()[i % Kind.values().length];
                    int id = 1 + r.nextInt(ROWS);
                    boolean before = triggers(st);
                    String sql = switch (k) {
                        case INSERT -> "INSERT INTO " + q + "t (k, v) VALUES (" + i + ", 'w\u00e9" + i + "')";
                        case UPDATE -> "UPDATE " + q + "t SET k = k + 1, v = 'u\u00fc" + i + "' WHERE id = " + id;
                        // to a key no other row has or gets: see the class comment
                        case KEY_UPDATE -> "UPDATE " + q + "t SET id = -id WHERE id = " + id;
                        case DELETE -> "DELETE FROM " + q + "t WHERE id = " + id;
                    };
                    try {
                        st.executeUpdate(sql);
                    } catch (SQLTransactionRollbackException e) {
                        continue; // a deadlock with the copy's locking read: the statement did nothing
                    }
                    if (before && triggers(st)) {
                        whileTriggers.merge(k, 1, Integer::sum);
                    }
                    Thread.sleep(2);
                }
            } catch (Exception e) {
                failure = e;
            }
        }

        private boolean triggers(Statement st) throws SQLException {
            try (var rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.TRIGGERS"
                    + " WHERE EVENT_OBJECT_SCHEMA = '" + db + "' AND EVENT_OBJECT_TABLE = 't'")) {
                rs.next();
                return rs.getInt(1) == 3;
            }
        }
    }

    private static String numbers() {
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= ROWS; i++) {
            rows.add("SELECT " + i + " AS n");
        }
        return String.join(" UNION ALL ", rows);
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, name);
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }
}
