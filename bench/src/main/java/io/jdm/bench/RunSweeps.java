package io.jdm.bench;

import io.jdm.common.config.DeferIndexes;
import io.jdm.common.sql.Identifiers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * run: the whole migration of the dataset into a fresh database on the target, {@code jdm run}
 * task-mode full (each chunk loaded while the dump goes on) against mydumper then myloader, one
 * after the other, at every threads × rows × statement-size × pool-size (jdm also at each
 * {@code defer-indexes} the file names, the peers once), samples alternating. Every
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
    private final CopyDb copy;
    private final long totalRows;

    RunSweeps(BenchEnv env) {
        this.env = env;
        this.targetDb = env.cfg().database() + "_run";
        this.copy = new CopyDb(env, targetDb);
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
                        List<BenchEnv.Tool> tools = new ArrayList<>();
                        for (DeferIndexes defer : sweep.deferIndexes()) {
                            Optional<DeferIndexes> named = sweep.deferIndexesSwept() ? Optional.of(defer)
                                    : Optional.empty();
                            Map<String, Long> jp = new LinkedHashMap<>(p);
                            // recorded as 0 false, 1 true, 2 auto
                            named.ifPresent(d -> jp.put("defer-indexes", (long) d.ordinal()));
                            tools.add(new BenchEnv.Tool("jdm", jp, () -> jdm(threads, rows, stmt, pool, named)));
                        }
                        if (mydumper.isPresent() && myloader.isPresent()) {
                            tools.add(new BenchEnv.Tool("mydumper+myloader", p,
                                    () -> peers(mydumper.get(), myloader.get(), threads, rows, stmt, pool)));
                        }
                        env.alternate("run", tools);
                    }
                }
            }
        }
        copy.drop();
    }



    /**
     * jdm run as a user runs it: the launcher, a task file with the sweep's keys only ({@code
     * defer-indexes} when the sweep names it).
     */
    private Map<String, Double> jdm(int threads, long rows, long stmt, int pool, Optional<DeferIndexes> defer)
            throws Exception {
        copy.drop();
        copy.exec("DROP DATABASE IF EXISTS " + Identifiers.quote(META));
        Path dir = fresh("run-jdm");
        Path task = JdmProcess.taskFile(env.work(), "bench-run.yaml", JdmProcess.copyTask(env, "bench-run", META,
                targetDb, List.of(
                        "status-addr: \"127.0.0.1:" + freePort() + "\"", // not the default port a user's task may hold
                        "mydumpers: {global: {threads: " + threads + ", rows: " + rows + ", statement-size: " + stmt + "}}",
                        "loaders: {global: {pool-size: " + pool + ", dir: \"" + dir.resolve("dump") + "\""
                                + defer.map(d -> ", defer-indexes: " + d.text()).orElse("") + "}}")));
        Measured m = JdmProcess.run("run", task, env.source(), env.target());
        copy.check("jdm run");
        long bytes = Tools.size(dir);
        Tools.deleteTree(dir);
        return m.metrics(totalRows, bytes);
    }

    /** mydumper, then myloader of its directory, each a whole process; the pair is one sample. */
    private Map<String, Double> peers(Path mydumper, Path myloader, int threads, long rows, long stmt, int pool)
            throws Exception {
        copy.drop();
        Path dir = fresh("run-mydumper");
        Files.createDirectories(dir);
        List<String> dump = DumpSweeps.mydumperCommand(env, mydumper, threads, rows, stmt, dir);
        List<String> load = LoadSweeps.myloaderCommand(env, myloader, dir, pool, targetDb);
        Measured d = Measured.run(dump, Map.of(), TOOL_TIMEOUT);
        Measured l = Measured.run(load, Map.of(), TOOL_TIMEOUT);
        copy.check("mydumper then myloader");
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
}
