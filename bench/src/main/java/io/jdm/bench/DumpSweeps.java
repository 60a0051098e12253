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
 * dump: jdm's DumpUnit at every threads × rows × statement-size, mydumper at the same setting, and
 * {@code mariadb-dump --single-transaction} (one thread, no settings) once. MB/s is each tool's own
 * output bytes per second; rows/s counts the dataset's rows.
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
                    repeat("jdm", p, rep -> jdm(threads, rows, stmt, rep));
                    if (mydumper.isPresent()) {
                        repeat("mydumper", p, rep -> mydumper(mydumper.get(), threads, rows, stmt, rep));
                    }
                }
            }
        }
        if (mdump.isPresent()) {
            repeat("mariadb-dump", Map.of(), rep -> mariadbDump(mdump.get(), rep));
        }
    }

    private void repeat(String tool, Map<String, Long> params, Timed.Op op) throws Exception {
        for (int i = 0; i < env.cfg().warmUpRuns(); i++) {
            op.run(-1);
        }
        for (int rep = 1; rep <= env.cfg().repetitions(); rep++) {
            Timed t = op.run(rep);
            env.rec().sample(new Sample("dump", tool, null, params, rep, t.metrics()));
        }
    }

    private Path fresh(String name) throws Exception {
        Path dir = env.work().resolve(name);
        Tools.deleteTree(dir);
        return dir;
    }

    private Timed jdm(int threads, long rows, long stmt, int rep) throws Exception {
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
        return new Timed(secs, r.rows(), r.bytes());
    }

    private Timed mydumper(Path exe, int threads, long rows, long stmt, int rep) throws Exception {
        Path dir = fresh("dump-mydumper");
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "-h", env.source().host(), "-P",
                String.valueOf(env.source().port()), "-u", env.source().user(), "-t", String.valueOf(threads),
                "-s", String.valueOf(stmt), "-B", env.cfg().database(), "-o", dir.toString()));
        if (rows > 0) {
            cmd.addAll(List.of("-r", String.valueOf(rows)));
        }
        password(cmd, "-p");
        long t0 = System.nanoTime();
        Tools.run(cmd, null, TOOL_TIMEOUT);
        double secs = Timed.since(t0);
        long bytes = Tools.size(dir);
        Tools.deleteTree(dir);
        return new Timed(secs, totalRows, bytes);
    }

    private Timed mariadbDump(Path exe, int rep) throws Exception {
        Path dir = fresh("dump-mariadb-dump");
        Files.createDirectories(dir);
        Path file = dir.resolve("dump.sql");
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "--single-transaction", "-h",
                env.source().host(), "-P", String.valueOf(env.source().port()), "-u", env.source().user()));
        password(cmd, "--password=");
        cmd.add(env.cfg().database());
        long t0 = System.nanoTime();
        Tools.run(cmd, file, TOOL_TIMEOUT);
        double secs = Timed.since(t0);
        long bytes = Files.size(file);
        Tools.deleteTree(dir);
        return new Timed(secs, totalRows, bytes);
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
