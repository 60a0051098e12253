package io.jdm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import io.jdm.bench.result.BenchResults;
import io.jdm.bench.result.Sample;
import io.jdm.bench.workload.Payload;
import io.jdm.bench.workload.Workload;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import io.jdm.embedded.TestServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A tiny sweep of every kind against the embedded pair, with native replication as the sync peer:
 * sync in backlog mode (the default) in the first test, in live mode in the second.
 */
class BenchRunnerIT {
    @Test
    void tinySweepMeasuresEveryUnitAndWritesTheReports() throws Exception {
        ServerPair pair = TestServers.shared();
        Path out = Files.createTempDirectory("benchrunnerit");
        BenchConfig cfg = BenchConfig.parse(String.join("\n",
                "name: it",
                "runner: in-jvm",
                "dataset: {tables: 2, rows-per-table: 2000, database: benchrunnerit}",
                "warm-up-runs: 0",
                "warm-up: 1s",
                "duration: 2s",
                "repetitions: 1",
                "workload-threads: 2",
                "sweeps:",
                "  dump: {threads: [2], rows: [500]}",
                "  load: {pool-size: [2], rows-per-statement: [100]}",
                "  verify: {threads: [2], chunk-rows: [500]}",
                "  sync: {worker-count: [4], batch: [50], mixes: [oltp_write_only]}"), out)
                .withServers(spec(pair.source()), spec(pair.target())).withOutput(out);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        BenchResults r = new BenchRunner(cfg, new PrintStream(console, true)).run();

        for (String sweep : List.of("dump", "load", "verify", "sync")) {
            Sample jdm = r.samples().stream().filter(s -> s.sweep().equals(sweep) && s.tool().equals("jdm"))
                    .findFirst().orElseThrow(() -> new AssertionError("no jdm sample for " + sweep + "\n" + console));
            double main = sweep.equals("sync") || sweep.equals("verify") ? jdm.metric(Sample.ROWS_PER_S)
                    : jdm.metric(Sample.MB_PER_S);
            assertTrue(main > 0, sweep + " throughput " + main);
        }
        assertEquals(4000, r.samples().stream().filter(s -> s.sweep().equals("dump") && s.tool().equals("jdm"))
                .findFirst().orElseThrow().metric(Sample.ROWS));
        Sample verify = r.samples().stream().filter(s -> s.sweep().equals("verify")).findFirst().orElseThrow();
        assertEquals("threads=2 chunk-rows=500", verify.setting());
        assertEquals(4000, verify.metric(Sample.ROWS), "verify compares every row");
        Sample sync = r.samples().stream().filter(s -> s.sweep().equals("sync") && s.tool().equals("jdm"))
                .findFirst().orElseThrow();
        assertTrue(sync.metric(Sample.ROWS) > 0, "the workload changed rows");
        assertEquals("worker-count=4 batch=50", sync.setting());
        Sample peer = r.samples().stream().filter(s -> s.tool().equals("mariadb-parallel-replication"))
                .findFirst().orElseThrow(() -> new AssertionError("native replication measured\n" + console));
        // backlog: both replay the same backlog, and rows/s is that backlog over each one's catch-up time
        assertEquals(sync.metric(Sample.ROWS), peer.metric(Sample.ROWS));
        for (Sample s : List.of(sync, peer)) {
            assertEquals(s.metric(Sample.ROWS) / s.metric(Sample.CATCH_UP_S), s.metric(Sample.ROWS_PER_S), 1e-6);
        }
        assertTrue(r.lags().isEmpty(), "no lag is sampled in backlog mode");
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("## dump") && md.contains("## load") && md.contains("## verify")
                && md.contains("## sync"), md);
        assertTrue(md.startsWith("# jdm bench: it (profiling aid: runner in-jvm)"), md);
        assertTrue(md.contains("| oltp_write_only worker-count=4 batch=50 | mariadb-parallel-replication |"), md);
        if (Tools.find("mariadb", "mysql").isPresent()) {
            // the target's bulk ceiling is a peer of the load sweep, compared with jdm at the same dump
            Sample ld = r.samples().stream().filter(s -> s.tool().equals(LoadDataPeer.TOOL)).findFirst()
                    .orElseThrow(() -> new AssertionError("LOAD DATA measured\n" + console));
            assertEquals("load", ld.sweep());
            assertEquals("rows-per-statement=100", ld.setting());
            assertEquals(4000, ld.metric(Sample.ROWS));
            assertTrue(md.contains("| pool-size=2 rows-per-statement=100 | " + LoadDataPeer.TOOL + " |"), md);
        }
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<svg class=\"chart throughput\""));
        assertTrue(html.contains("sync: transaction latency percentiles (oltp_write_only)"), "backlog: jdm txn latency");
        assertEquals(r.samples().size() + 1, Files.readAllLines(out.resolve("samples.csv")).size());
        List<String> ratios = Files.readAllLines(out.resolve("ratios.csv"));
        assertTrue(ratios.stream().anyMatch(l -> l.startsWith("sync,oltp_write_only,worker-count=4 batch=50,"
                + "mariadb-parallel-replication,rows_per_s,")), String.join("\n", ratios));
    }

    @Test
    void liveSyncSamplesLagWhileTheWorkloadRuns() throws Exception {
        ServerPair pair = TestServers.shared();
        Path out = Files.createTempDirectory("benchrunnerit-live");
        BenchConfig cfg = BenchConfig.parse(String.join("\n",
                "name: it-live",
                "runner: in-jvm", // the sampling is what this test checks; a process sample needs ./jdm
                "dataset: {tables: 2, rows-per-table: 1000, database: benchrunnerit_live}",
                "warm-up: 1s",
                "duration: 2s",
                "repetitions: 1",
                "workload-threads: 2",
                "peers: false",
                "sweeps:",
                "  sync: {mode: live, worker-count: [4], batch: [50], mixes: [oltp_insert]}"), out)
                .withServers(spec(pair.source()), spec(pair.target())).withOutput(out);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        BenchResults r = new BenchRunner(cfg, new PrintStream(console, true)).run();
        assertEquals(1, r.samples().size(), console.toString());
        assertTrue(r.samples().get(0).metric(Sample.ROWS) > 0, "the workload changed rows");
        assertFalse(r.lags().isEmpty(), "lag traced");
        assertTrue(r.lags().get(0).points().size() >= 4, "lag sampled every 250 ms over 3 s");
        assertTrue(Files.readString(out.resolve("report.html")).contains("<svg class=\"chart lag\""));
    }

    @Test
    void theLoadDataPeerIsClientProcessesMeasuredByGnuTime() throws Exception {
        Optional<Path> client = Tools.find("mariadb", "mysql");
        assumeTrue(Measured.available() && client.isPresent(), "GNU time and a mariadb client are installed");
        ServerPair pair = TestServers.shared();
        ConnectionSpec source = spec(pair.source());
        ConnectionSpec target = spec(pair.target());
        Path work = Files.createTempDirectory("benchrunnerit-loaddata");
        String db = "benchrunnerit_ld";
        BenchConfig cfg = BenchConfig.parse("dataset: {tables: 2, rows-per-table: 1500, database: " + db + "}\n"
                + "sweeps: {load: {}}", work).withServers(source, target);
        try (Connection c = DataSources.connect(source); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + db);
        }
        try (HikariDataSource ds = DataSources.pool(source, 2, "benchrunnerit-prepare")) {
            new Workload(ds, db, 2).prepare(1500, 2);
        }
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        BenchEnv env = new BenchEnv(cfg, source, target, work, new Recorder(new PrintStream(console, true)));
        LoadDataPeer peer = new LoadDataPeer(env, client.get());
        peer.writeFiles();
        boolean servers = !Double.isNaN(ServerCpu.seconds());
        Map<String, Double> m = peer.run(db + "_copy", 1_000_000, true);
        peer.deleteFiles();
        assertEquals(3000, m.get(Sample.ROWS));
        assertTrue(m.get(Sample.SECONDS) > 0 && m.get(Sample.MB_PER_S) > 0, m.toString());
        assertTrue(m.get(Sample.CPU_S) >= 0 && m.get(Sample.RSS_MB) > 0, "summed over the clients: " + m);
        assertEquals(servers, m.containsKey(Sample.SERVER_CPU_S), "server CPU where the servers are children");
    }

    /** Wide rows: every row of the prepared tables carries a TEXT and a BLOB of the asked width together. */
    @Test
    void widePayloadRowsAreAsWideAsAsked() throws Exception {
        ConnectionSpec source = spec(TestServers.shared().source());
        String db = "benchrunnerit_wide";
        try (Connection c = DataSources.connect(source); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + db);
        }
        try (HikariDataSource ds = DataSources.pool(source, 2, "benchrunnerit-wide")) {
            new Workload(ds, db, 2, new Payload(4096, 16_384)).prepare(700, 2);
        }
        try (Connection c = DataSources.connect(source); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*), MIN(OCTET_LENGTH(doc) + LENGTH(bin)), "
                     + "MAX(OCTET_LENGTH(doc) + LENGTH(bin)), COUNT(DISTINCT LENGTH(bin)), "
                     + "SUM(doc REGEXP '^[a-z]+$') FROM " + db + ".sbtest2")) {
            rs.next();
            assertEquals(700, rs.getLong(1));
            assertTrue(rs.getLong(2) >= 4096 && rs.getLong(3) <= 16_384, rs.getLong(2) + ".." + rs.getLong(3));
            assertTrue(rs.getLong(4) > 100, "widths are drawn per row: " + rs.getLong(4) + " distinct");
            assertEquals(700, rs.getLong(5), "doc is printable text");
            st.execute("DROP DATABASE " + db);
        }
    }

    private static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), s.user(), s.password());
    }
}
