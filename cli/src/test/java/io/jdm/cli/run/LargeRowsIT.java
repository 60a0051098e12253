package io.jdm.cli.run;

import io.jdm.cli.JdmChild;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.mysql.cj.jdbc.JdbcConnection;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdm run} as a real process with a small heap and 16 writers, while the source writes rows
 * of several MiB each, more of them than the heap holds, and one binary value five eighths of the
 * target's {@code max_allowed_packet}: every row arrives byte for byte and the process never runs
 * out of memory (the ring and the writers' batches are bounded in bytes, and large binary values are
 * not doubled as hex on the way to the target). At 256 MiB the sixteen writers must not keep their
 * last batch's values once its bytes are given back: when they did, the process ran out of memory.
 */
class LargeRowsIT {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void rowsLargerThanTheHeapAllowsSyncAtASmallHeap() throws Exception {
        SqlServer source = TestServers.shared().source();
        SqlServer target = TestServers.shared().target();
        source.freshDatabase("large_rows");
        target.execute("DROP DATABASE IF EXISTS large_rows", "DROP DATABASE IF EXISTS jdm_meta_large");
        source.execute("CREATE TABLE large_rows.t (id INT PRIMARY KEY, b LONGBLOB, s LONGTEXT) CHARSET utf8mb4",
                "INSERT INTO large_rows.t VALUES (1, x'00', 'a')");
        long packet = scalar(target, "SELECT @@max_allowed_packet");
        Path task = dir.resolve("task.yaml");
        Files.writeString(task, String.join("\n",
                "name: large-rows",
                "task-mode: all",
                "meta-schema: jdm_meta_large",
                "target-database: {host: 127.0.0.1, port: " + target.port() + ", user: root, password: \"\"}",
                "block-allow-list: {only: {do-dbs: [large_rows]}}",
                "mydumpers: {global: {threads: 1, dir: \"" + dir.resolve("dump") + "\"}}",
                "syncers: {global: {worker-count: 16}}",
                "mysql-instances:",
                "  - source-id: s1",
                "    block-allow-list: only",
                "    from: {host: 127.0.0.1, port: " + source.port() + ", user: root, password: \"\"}",
                ""));
        Path out = dir.resolve("out.log");
        Process p = JdmChild.start(out, List.of("-Xmx256m"), "run", task.toString());
        int rows = 64;
        try {
            RunSignalIT.waitForRow(target, "large_rows.t", 1);
            Random random = new Random(7);
            try (Connection c = source.connect();
                 PreparedStatement ps = c.unwrap(JdbcConnection.class)
                         .serverPrepareStatement("INSERT INTO large_rows.t VALUES (?, ?, ?)")) {
                // 64 x 9 MiB: more than twice the process's whole heap
                for (int id = 2; id <= rows; id++) {
                    byte[] b = new byte[8 * MIB];
                    random.nextBytes(b);
                    ps.setInt(1, id);
                    ps.setBytes(2, b);
                    ps.setString(3, "é".repeat(MIB / 2) + id);
                    ps.executeUpdate();
                }
                // one value of five eighths of the target's packet: as hex it would be 1.25 packets
                byte[] big = new byte[(int) (packet * 5 / 8)];
                random.nextBytes(big);
                ps.setInt(1, rows + 1);
                ps.setBytes(2, big);
                ps.setString(3, "big");
                ps.executeUpdate();
            }
            try {
                RunSignalIT.waitForRow(target, "large_rows.t", rows + 1);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; jdm printed:\n" + Files.readString(out), e);
            }
            assertTrue(p.isAlive(), "jdm stopped: " + Files.readString(out));
        } finally {
            p.destroy();
            p.waitFor(60, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
        String log = Files.readString(out);
        assertFalse(log.contains("OutOfMemoryError"), log);
        String digest = "SELECT id, LENGTH(b), HEX(SHA2(b, 256)), HEX(SHA2(s, 256)) FROM large_rows.t ORDER BY id";
        List<String> expected = source.rows(digest);
        assertEquals(rows + 1, expected.size());
        assertEquals(expected, target.rows(digest));
    }

    private static long scalar(SqlServer server, String sql) throws Exception {
        try (Connection c = server.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

}
