package io.jdm.bench;

import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpResult;
import io.jdm.dump.DumpUnit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * dump: jdm at every threads × rows × statement-size, mydumper at the same setting, and
 * {@code mariadb-dump --single-transaction} (one thread, no settings) once, samples alternating tool
 * by tool. With runner process (the default) each jdm sample is a whole {@code jdm dump} process
 * started by the launcher, measured like the peers' (wall, CPU, peak RSS); with runner in-jvm it is
 * a DumpUnit run in this JVM, a profiling aid. MB/s is each tool's own output bytes per second;
 * rows/s counts the dataset's rows.
 */
final class DumpSweeps {
    private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(30);
    private final BenchEnv env;
    private final long totalRows;

    DumpSweeps(BenchEnv env) {
        this.env = env;
        this.totalRows = env.cfg().tables() * env.cfg().rowsPerTable();
    }

    void run() throws Exception {
        BenchConfig cfg = env.cfg();
        boolean process = cfg.runner() == BenchConfig.Runner.PROCESS;
        Optional<Path> mydumper = cfg.peers() ? Tools.find("mydumper") : Optional.empty();
        Optional<Path> mdump = cfg.peers() ? Tools.find("mariadb-dump", "mysqldump") : Optional.empty();
        if (cfg.peers() && mydumper.isEmpty()) {
            env.rec().note("dump: mydumper not found on PATH, skipped (Debian package mydumper)");
        }
        if (cfg.peers() && mdump.isEmpty()) {
            env.rec().note("dump: mariadb-dump not found on PATH, skipped (Debian package mariadb-client)");
        }
        for (int threads : cfg.dump().threads()) {
            for (long rows : cfg.dump().rows()) {
                for (long stmt : cfg.dump().statementSize()) {
                    Map<String, Long> p = new LinkedHashMap<>();
                    p.put("threads", (long) threads);
                    p.put("rows", rows);
                    p.put("statement-size", stmt);
                    Map<String, BenchEnv.Op> tools = new LinkedHashMap<>();
                    tools.put("jdm", () -> process ? jdmProcess(threads, rows, stmt) : jdm(threads, rows, stmt));
                    if (mydumper.isPresent()) {
                        tools.put("mydumper", () -> mydumper(mydumper.get(), threads, rows, stmt, process));
                    }
                    env.alternate("dump", p, tools);
                }
            }
        }
        if (mdump.isPresent()) {
            env.alternate("dump", Map.of(), Map.of("mariadb-dump", () -> mariadbDump(mdump.get(), process)));
        }
    }



    private Path fresh(String name) throws Exception {
        Path dir = env.work().resolve(name);
        Tools.deleteTree(dir);
        return dir;
    }

    /** jdm dump as a user runs it: the launcher, a task file with the sweep's keys only. */
    private Map<String, Double> jdmProcess(int threads, long rows, long stmt) throws Exception {
        Path dir = fresh("dump-jdm");
        String db = env.cfg().database();
        Path task = JdmProcess.taskFile(env.work(), "bench-dump.yaml", List.of(
                "name: bench-dump",
                "task-mode: full",
                "target-database: " + JdmProcess.server(env.target(), "JDM_BENCH_TARGET_PASSWORD"),
                "block-allow-list: {only: {do-dbs: [\"" + db + "\"]}}",
                "mydumpers: {global: {threads: " + threads + ", rows: " + rows + ", statement-size: " + stmt
                        + ", dir: \"" + dir + "\"}}",
                "mysql-instances:",
                "  - source-id: bench",
                "    block-allow-list: only",
                "    from: " + JdmProcess.server(env.source(), "JDM_BENCH_SOURCE_PASSWORD")));
        Measured m = JdmProcess.run("dump", task, env.source(), env.target());
        long bytes = Tools.size(dir);
        Tools.deleteTree(dir);
        return m.metrics(totalRows, bytes);
    }

    private Map<String, Double> jdm(int threads, long rows, long stmt) throws Exception {
        Path dir = fresh("dump-jdm");
        String db = env.cfg().database();
        DumpConfig c = DumpConfig.defaults("bench", env.source(), dir).withThreads(threads).withRows(rows)
                .withStatementSize(stmt).withTableFilter((d, t) -> d.equals(db));
        long t0 = System.nanoTime();
        DumpResult r = new DumpUnit(c).run();
        double secs = Timed.since(t0);
        if (r.rows() != totalRows) {
            throw new IllegalStateException("dump: jdm dumped " + r.rows() + " rows, the dataset has " + totalRows);
        }
        Tools.deleteTree(dir);
        return new Timed(secs, r.rows(), r.bytes()).metrics();
    }

    private Map<String, Double> mydumper(Path exe, int threads, long rows, long stmt, boolean process)
            throws Exception {
        Path dir = fresh("dump-mydumper");
        Files.createDirectories(dir);
        List<String> cmd = mydumperCommand(env, exe, threads, rows, stmt, dir);
        if (process) {
            Measured m = Measured.run(cmd, Map.of(), TOOL_TIMEOUT);
            long bytes = Tools.size(dir);
            Tools.deleteTree(dir);
            return m.metrics(totalRows, bytes);
        }
        long t0 = System.nanoTime();
        Tools.run(cmd, null, TOOL_TIMEOUT);
        double secs = Timed.since(t0);
        long bytes = Tools.size(dir);
        Tools.deleteTree(dir);
        return new Timed(secs, totalRows, bytes).metrics();
    }

    private Map<String, Double> mariadbDump(Path exe, boolean process) throws Exception {
        Path dir = fresh("dump-mariadb-dump");
        Files.createDirectories(dir);
        Path file = dir.resolve("dump.sql");
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "--single-transaction", "-h",
                env.source().host(), "-P", String.valueOf(env.source().port()), "-u", env.source().user()));
        password(cmd, "--password=");
        cmd.add(env.cfg().database());
        if (process) {
            cmd.addAll(List.of("--result-file=" + file));
            Measured m = Measured.run(cmd, Map.of(), TOOL_TIMEOUT);
            long bytes = Files.size(file);
            Tools.deleteTree(dir);
            return m.metrics(totalRows, bytes);
        }
        long t0 = System.nanoTime();
        Tools.run(cmd, file, TOOL_TIMEOUT);
        double secs = Timed.since(t0);
        long bytes = Files.size(file);
        Tools.deleteTree(dir);
        return new Timed(secs, totalRows, bytes).metrics();
    }

    /** mydumper of the bench's database into {@code dir} at a dump setting (rows 0: whole tables). */
    static List<String> mydumperCommand(BenchEnv env, Path exe, int threads, long rows, long stmt, Path dir) {
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "-h", env.source().host(), "-P",
                String.valueOf(env.source().port()), "-u", env.source().user(), "-t", String.valueOf(threads),
                "-s", String.valueOf(stmt), "-B", env.cfg().database(), "-o", dir.toString()));
        if (rows > 0) {
            cmd.addAll(List.of("-r", String.valueOf(rows)));
        }
        if (!env.source().password().isEmpty()) {
            cmd.addAll(List.of("-p", env.source().password()));
        }
        return cmd;
    }

    private void password(List<String> cmd, String flag) {
        if (!env.source().password().isEmpty()) {
            if (flag.endsWith("=")) {
                cmd.add(flag + env.source().password());
            } else {
                cmd.addAll(List.of(flag, env.source().password()));
            }
        }
    }
}
