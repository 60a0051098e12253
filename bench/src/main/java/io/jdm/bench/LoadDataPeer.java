package io.jdm.bench;

import io.jdm.bench.workload.Sbtest;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The target's own bulk ceiling as a peer of the load sweep: one {@code LOAD DATA LOCAL INFILE}
 * stream per table, all tables at once, each a {@code mariadb} client process with the session
 * settings jdm's load uses ({@code foreign_key_checks} and {@code unique_checks} off). The rows are
 * the source's, written once as tab-separated files, untimed. With runner process every client is
 * measured by GNU time: wall is the clock around all of them, CPU their sum, and peak RSS the sum
 * of their peaks, since they run at the same time; the servers' CPU is taken around all of them.
 */
final class LoadDataPeer {
    static final String TOOL = "load-data-local-infile";
    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    private final BenchEnv env;
    private final Path client;
    private final Path dir;

    LoadDataPeer(BenchEnv env, Path client) {
        this.env = env;
        this.client = client;
        this.dir = env.work().resolve("load-data");
    }

    /** The source's rows of sbtest1..N as {@code sbtestN.tsv}, in LOAD DATA's default format. */
    void writeFiles() throws SQLException, IOException {
        Files.createDirectories(dir);
        String db = env.cfg().database();
        try (Connection c = DataSources.connect(env.source()); Statement st = c.createStatement()) {
            st.setFetchSize(10_000);
            for (int t = 1; t <= env.cfg().tables(); t++) {
                String table = Sbtest.tableName(t);
                try (ResultSet rs = st.executeQuery("SELECT id, k, c, pad FROM " + new TableName(db, table).quoted()
                        + " ORDER BY id");
                     BufferedWriter w = Files.newBufferedWriter(dir.resolve(table + ".tsv"), StandardCharsets.UTF_8)) {
                    while (rs.next()) {
                        w.write(rs.getLong(1) + "\t" + rs.getLong(2) + "\t" + escape(rs.getString(3)) + "\t"
                                + escape(rs.getString(4)) + "\n");
                    }
                }
            }
        }
    }

    void deleteFiles() throws IOException {
        Tools.deleteTree(dir);
    }

    /**
     * Loads every table into {@code targetDb} (dropped and created with sysbench's tables first,
     * untimed) and checks it. {@code bytes} is the dump's SQL size at the setting compared, so MB/s
     * means the same work for every loader.
     */
    Map<String, Double> run(String targetDb, long bytes, boolean process) throws Exception {
        prepare(targetDb);
        int tables = env.cfg().tables();
        ExecutorService pool = Executors.newFixedThreadPool(tables,
                new NamedThreadFactory("bench", "load", "load-data", true));
        double server0 = ServerCpu.seconds();
        long t0 = System.nanoTime();
        double cpu = 0;
        double rss = 0;
        try {
            List<Future<Measured>> streams = new ArrayList<>();
            for (int t = 1; t <= tables; t++) {
                List<String> cmd = command(targetDb, Sbtest.tableName(t));
                streams.add(pool.submit(() -> process ? Measured.run(cmd, Map.of(), TIMEOUT) : unmeasured(cmd)));
            }
            for (Future<Measured> f : streams) {
                Measured m = get(f);
                cpu += m.cpuSeconds();
                rss += m.peakRssMb();
            }
        } finally {
            pool.shutdownNow();
        }
        double wall = Timed.since(t0);
        double server = ServerCpu.seconds() - server0;
        Checksums.assertSame(env.source(), env.cfg().database(), env.target(), targetDb, tables, TOOL);
        long rows = tables * env.cfg().rowsPerTable();
        return process ? new Measured(wall, cpu, rss, server, "").metrics(rows, bytes)
                : new Timed(wall, rows, bytes).metrics();
    }

    private static Measured unmeasured(List<String> cmd) throws Exception {
        Tools.run(cmd, null, TIMEOUT);
        return new Measured(Double.NaN, 0, 0, Double.NaN, "");
    }

    private static Measured get(Future<Measured> f) throws Exception {
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    private List<String> command(String db, String table) {
        ConnectionSpec t = env.target();
        List<String> cmd = new ArrayList<>(List.of(client.toString(), "--local-infile=1", "--protocol=TCP", "-h",
                t.host(), "-P", String.valueOf(t.port()), "-u", t.user()));
        if (!t.password().isEmpty()) {
            cmd.add("--password=" + t.password());
        }
        cmd.addAll(List.of("-D", db, "-e", "SET SESSION foreign_key_checks = 0, unique_checks = 0; "
                + "LOAD DATA LOCAL INFILE " + Identifiers.literal(dir.resolve(table + ".tsv").toString())
                + " INTO TABLE " + Identifiers.quote(table) + " FIELDS TERMINATED BY '\\t' (id, k, c, pad)"));
        return cmd;
    }

    private void prepare(String db) throws SQLException {
        try (Connection c = DataSources.connect(env.target()); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + Identifiers.quote(db));
            st.execute("CREATE DATABASE " + Identifiers.quote(db));
            for (int t = 1; t <= env.cfg().tables(); t++) {
                st.execute(Sbtest.createTable(db, t));
            }
        }
    }

    /** LOAD DATA's default escaping: backslash, tab and newline. */
    private static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
    }
}
