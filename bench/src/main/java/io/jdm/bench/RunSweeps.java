package io.jdm.bench;

import io.jdm.bench.result.Sample;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.Identifiers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * run: the whole migration of the dataset into a fresh database on the target, {@code jdm run}
 * task-mode full (each chunk loaded while the dump goes on) against mydumper then myloader, one
 * after the other, at every threads × rows × statement-size × pool-size, samples alternating. Every
 * sample is a whole process as a user starts it (for the peers, the two in a row: wall and CPU
 * summed, the larger peak RSS); there is no in-JVM form. MB/s is each tool's dump bytes per second
 * of the whole migration; every copy is checked with CHECKSUM TABLE.
 */
final class RunSweeps {
    private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(30);
    /** The meta schema of the process runs' task, dropped before each run so each migrates afresh. */
    private static final String META = "jdm_bench_meta";
    private final BenchEnv env;
    private final String targetDb;
    private final long totalRows;

    RunSweeps(BenchEnv env) {
        this.env = env;
        this.targetDb = env.cfg().database() + "_run";
        this.totalRows = env.cfg().tables() * env.cfg().rowsPerTable();
    }

    void run() throws Exception {
        BenchConfig cfg = env.cfg();
        if (cfg.runner() != BenchConfig.Runner.PROCESS) {
            env.rec().note("run: measured as whole processes only; skipped with runner in-jvm");
            return;
        }
        Optional<Path> mydumper = cfg.peers() ? Tools.find("mydumper") : Optional.empty();
        Optional<Path> myloader = cfg.peers() ? Tools.find("myloader") : Optional.empty();
        if (cfg.peers() && (mydumper.isEmpty() || myloader.isEmpty())) {
            env.rec().note("run: mydumper or myloader not found on PATH, skipped (Debian package mydumper)");
        }
        BenchConfig.RunSweep sweep = cfg.run();
        for (int threads : sweep.threads()) {
            for (long rows : sweep.rows()) {
                for (long stmt : sweep.statementSize()) {
                    for (int pool : sweep.poolSize()) {
                        Map<String, Long> p = new LinkedHashMap<>();
                        p.put("threads", (long) threads);
                        p.put("rows", rows);
                        p.put("statement-size", stmt);
                        p.put("pool-size", (long) pool);
                        Map<String, Op> tools = new LinkedHashMap<>();
                        tools.put("jdm", () -> jdm(threads, rows, stmt, pool));
                        if (mydumper.isPresent() && myloader.isPresent()) {
                            tools.put("mydumper+myloader",
                                    () -> peers(mydumper.get(), myloader.get(), threads, rows, stmt, pool));
                        }
                        alternate(p, tools);
                    }
                }
            }
        }
        drop();
    }

    /** One sample's metrics. */
    private interface Op {
        Map<String, Double> run() throws Exception;
    }

    /** Warm-up runs of every tool, then the repetitions alternating tool by tool. */
    private void alternate(Map<String, Long> params, Map<String, Op> tools) throws Exception {
        for (int i = 0; i < env.cfg().warmUpRuns(); i++) {
            for (Op op : tools.values()) {
                op.run();
            }
        }
        for (int rep = 1; rep <= env.cfg().repetitions(); rep++) {
            for (Map.Entry<String, Op> t : tools.entrySet()) {
                env.rec().sample(new Sample("run", t.getKey(), null, params, rep, t.getValue().run()));
            }
        }
    }

    /** jdm run as a user runs it: the launcher, a task file with the sweep's keys only. */
    private Map<String, Double> jdm(int threads, long rows, long stmt, int pool) throws Exception {
        drop();
        exec("DROP DATABASE IF EXISTS " + Identifiers.quote(META));
        Path dir = fresh("run-jdm");
        String db = env.cfg().database();
        Path task = JdmProcess.taskFile(env.work(), "bench-run.yaml", List.of(
                "name: bench-run",
                "task-mode: full",
                "meta-schema: " + META,
                "status-addr: \"127.0.0.1:" + freePort() + "\"", // not the default port a user's task may hold
                "target-database: " + JdmProcess.server(env.target(), "JDM_BENCH_TARGET_PASSWORD"),
                "block-allow-list: {only: {do-dbs: [\"" + db + "\"]}}",
                "routes: {to-copy: {schema-pattern: \"" + db + "\", target-schema: \"" + targetDb + "\"}}",
                "mydumpers: {global: {threads: " + threads + ", rows: " + rows + ", statement-size: " + stmt + "}}",
                "loaders: {global: {pool-size: " + pool + ", dir: \"" + dir.resolve("dump") + "\"}}",
                "mysql-instances:",
                "  - source-id: bench",
                "    block-allow-list: only",
                "    route-rules: [to-copy]",
                "    from: " + JdmProcess.server(env.source(), "JDM_BENCH_SOURCE_PASSWORD")));
        Measured m = JdmProcess.run("run", task, env.source(), env.target());
        check("jdm run");
        long bytes = Tools.size(dir);
        Tools.deleteTree(dir);
        return m.metrics(totalRows, bytes);
    }

    /** mydumper, then myloader of its directory, each a whole process; the pair is one sample. */
    private Map<String, Double> peers(Path mydumper, Path myloader, int threads, long rows, long stmt, int pool)
            throws Exception {
        drop();
        Path dir = fresh("run-mydumper");
        Files.createDirectories(dir);
        List<String> dump = new ArrayList<>(List.of(mydumper.toString(), "-h", env.source().host(), "-P",
                String.valueOf(env.source().port()), "-u", env.source().user(), "-t", String.valueOf(threads),
                "-s", String.valueOf(stmt), "-B", env.cfg().database(), "-o", dir.toString()));
        if (rows > 0) {
            dump.addAll(List.of("-r", String.valueOf(rows)));
        }
        if (!env.source().password().isEmpty()) {
            dump.addAll(List.of("-p", env.source().password()));
        }
        List<String> load = new ArrayList<>(List.of(myloader.toString(), "-h", env.target().host(), "-P",
                String.valueOf(env.target().port()), "-u", env.target().user(), "-d", dir.toString(), "-t",
                String.valueOf(pool), "-B", targetDb));
        if (!env.target().password().isEmpty()) {
            load.addAll(List.of("-p", env.target().password()));
        }
        Measured d = Measured.run(dump, Map.of(), TOOL_TIMEOUT);
        Measured l = Measured.run(load, Map.of(), TOOL_TIMEOUT);
        check("mydumper then myloader");
        long bytes = Tools.size(dir);
        Tools.deleteTree(dir);
        return d.then(l).metrics(totalRows, bytes);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private Path fresh(String name) throws Exception {
        Path dir = env.work().resolve(name);
        Tools.deleteTree(dir);
        return dir;
    }

    private void check(String who) throws SQLException {
        Checksums.assertSame(env.source(), env.cfg().database(), env.target(), targetDb, env.cfg().tables(), who);
    }

    private void drop() throws SQLException {
        exec("DROP DATABASE IF EXISTS " + Identifiers.quote(targetDb));
    }

    private void exec(String... sql) throws SQLException {
        try (Connection c = DataSources.connect(env.target()); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }
}
