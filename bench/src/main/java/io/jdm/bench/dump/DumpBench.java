package io.jdm.bench.dump;

import io.jdm.bench.workload.Sbtest;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.Identifiers;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpResult;
import io.jdm.dump.DumpUnit;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerProfile;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * jdm's dump against mydumper and {@code mariadb-dump --single-transaction} on sbtest1..N.
 *
 * <pre>
 * DumpBench [--source host:port] [--tables 4] [--rows-per-table 250000] [--threads 4] [--rows 50000]
 *           [--statement-size 1000000] [--repeat 3] [--mydumper PATH] [--mariadb-dump PATH]
 *           [--warmup 1] [--thread-cpu true]
 * </pre>
 *
 * Without {@code --source} an embedded MariaDB source is started and filled server-side. Peer tools
 * are looked up on PATH unless given; a missing one is reported and skipped. Each tool runs
 * {@code --warmup} times untimed (buffer pool and JIT warm-up), then {@code --repeat} timed rounds, the tools taking turns;
 * medians are printed with MB/s of the tool's own output and the ratio of wall times.
 */
public final class DumpBench {
    /** The database {@link #fill} creates. */
    public static final String DB = "dumpbench";

    private DumpBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = parse(args);
        int tables = Integer.parseInt(a.getOrDefault("tables", "4"));
        int perTable = Integer.parseInt(a.getOrDefault("rows-per-table", "250000"));
        int threads = Integer.parseInt(a.getOrDefault("threads", "4"));
        long rows = Long.parseLong(a.getOrDefault("rows", "50000"));
        long statementSize = Long.parseLong(a.getOrDefault("statement-size", "1000000"));
        int repeat = Integer.parseInt(a.getOrDefault("repeat", "3"));
        int warmup = Integer.parseInt(a.getOrDefault("warmup", "1"));
        EmbeddedMariaDb embedded = null;
        ConnectionSpec source;
        if (a.containsKey("source")) {
            String[] hp = a.get("source").split(":");
            source = ConnectionSpec.of(hp[0], Integer.parseInt(hp[1]), a.getOrDefault("user", "root"),
                    a.getOrDefault("password", ""));
        } else {
            embedded = EmbeddedMariaDb.start("dumpbench", ServerProfile.SOURCE);
            source = ConnectionSpec.of(embedded.host(), embedded.port(), "root", "");
        }
        Path base = Files.createTempDirectory("jdm-dumpbench-");
        try {
            fill(source, tables, perTable);
            System.out.printf(Locale.ROOT, "dataset: %d sbtest tables x %d rows on %s; threads=%d rows=%d "
                    + "statement-size=%d; median of %d runs after %d untimed%n", tables, perTable, source.address(), threads,
                    rows, statementSize, repeat, warmup);
            List<String> names = new ArrayList<>();
            List<Dump> dumps = new ArrayList<>();
            names.add("jdm");
            dumps.add(dir -> jdm(source, dir, threads, rows, statementSize));
            Optional<String> mydumper = tool(a.get("mydumper"), "mydumper");
            if (mydumper.isPresent()) {
                names.add("mydumper");
                dumps.add(dir -> exec(dir, null, mydumper.get(), "-h",
                        source.host(), "-P", String.valueOf(source.port()), "-u", source.user(), "-t",
                        String.valueOf(threads), "-r", String.valueOf(rows), "-s", String.valueOf(statementSize),
                        "-B", DB, "-o", dir.toString()));
            } else {
                System.out.println("mydumper: not found on PATH, skipped (Debian package mydumper)");
            }
            Optional<String> mdump = tool(a.get("mariadb-dump"), "mariadb-dump", "mysqldump");
            if (mdump.isPresent()) {
                names.add("mariadb-dump --single-transaction");
                dumps.add(dir -> exec(dir, dir.resolve("dump.sql"), mdump.get(), "--single-transaction", "-h",
                        source.host(), "-P", String.valueOf(source.port()), "-u", source.user(), DB));
            } else {
                System.out.println("mariadb-dump: not found on PATH, skipped (Debian package mariadb-client)");
            }
            List<Run> results = measure(names, dumps, warmup, repeat, base, Boolean.parseBoolean(a.get("thread-cpu")));
            report(results, (long) tables * perTable);
        } finally {
            if (embedded != null) {
                embedded.close();
            }
            delete(base);
        }
    }

    /**
     * One tool's timed runs, as medians: wall time, the part spent opening the snapshot (NaN for tools
     * that do not report it), CPU seconds of the tool itself and of the source server (NaN where
     * {@code /proc} is missing). CPU time barely moves with the load of other processes, wall time does.
     */
    record Run(String tool, double medianSeconds, long bytes, double medianOpenSeconds, double toolCpu,
               double serverCpu) {
    }

    /** Dumps into {@code dir}; returns the seconds spent opening the snapshot, NaN when not known. */
    interface Dump {
        double into(Path dir) throws Exception;
    }

    /**
     * Warms each tool up once, then runs them in turn, {@code repeat} rounds: on a shared machine a
     * change of load then hits every tool alike instead of whichever happened to run last.
     */
    private static List<Run> measure(List<String> names, List<Dump> dumps, int warmup, int repeat, Path base,
                                     boolean threadCpu) throws Exception {
        int n = names.size();
        for (int i = 0; i < warmup; i++) {
            for (Dump d : dumps) {
                Path warm = base.resolve("warm");
                d.into(warm);
                delete(warm);
            }
        }
        double[][] secs = new double[n][repeat];
        double[][] open = new double[n][repeat];
        double[][] cpu = new double[n][repeat];
        double[][] server = new double[n][repeat];
        long[] bytes = new long[n];
        for (int i = 0; i < repeat; i++) {
            for (int t = 0; t < n; t++) {
                String tool = names.get(t);
                Path dir = base.resolve(tool.replace(' ', '_') + "-" + i);
                java.util.Map<String, Double> threads0 = threadCpu && t == 0 ? Cpu.byThread() : null;
                double[] cpu0 = Cpu.sample();
                long t0 = System.nanoTime();
                open[t][i] = dumps.get(t).into(dir);
                secs[t][i] = (System.nanoTime() - t0) / 1e9;
                double[] cpu1 = Cpu.sample();
                // jdm runs in this JVM; a peer tool is a child process, reaped before sampling again
                cpu[t][i] = t == 0 ? cpu1[0] - cpu0[0] : cpu1[1] - cpu0[1];
                server[t][i] = cpu1[2] - cpu0[2];
                bytes[t] = size(dir);
                delete(dir);
                if (threads0 != null) {
                    StringBuilder sb = new StringBuilder("    jdm cpu by thread:");
                    Cpu.byThread().forEach((k, v) -> {
                        double d = v - threads0.getOrDefault(k, 0.0);
                        if (d >= 0.005) {
                            sb.append(String.format(Locale.ROOT, " [%s] %.2f", k, d));
                        }
                    });
                    System.out.println(sb);
                }
                System.out.printf(Locale.ROOT, "  %-36s run %d: %.2f s, cpu %.2f s, server cpu %.2f s%s%n", tool,
                        i + 1, secs[t][i], cpu[t][i], server[t][i], Double.isNaN(open[t][i]) ? ""
                                : String.format(Locale.ROOT, " (snapshot open %.2f s, data %.2f s)", open[t][i],
                                secs[t][i] - open[t][i]));
            }
        }
        List<Run> runs = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            runs.add(new Run(names.get(t), median(secs[t]), bytes[t], median(open[t]), median(cpu[t]),
                    median(server[t])));
        }
        return runs;
    }

    public static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }

    private static double jdm(ConnectionSpec source, Path dir, int threads, long rows, long statementSize) {
        DumpResult r = new DumpUnit(DumpConfig.defaults("bench", source, dir).withThreads(threads).withRows(rows)
                .withStatementSize(statementSize).withTableFilter((db, t) -> db.equals(DB))).run();
        if (r.rows() <= 0) {
            throw new IllegalStateException("jdm dumped no rows");
        }
        return r.opening().toNanos() / 1e9;
    }

    private static void report(List<Run> runs, long totalRows) {
        Run jdm = runs.get(0);
        System.out.printf(Locale.ROOT, "%-36s %10s %12s %10s %12s %8s %10s%n", "tool", "median s", "rows/s", "MB/s",
                "jdm speed-up", "cpu s", "server cpu");
        for (Run r : runs) {
            System.out.printf(Locale.ROOT, "%-36s %10.2f %12.0f %10.1f %11.2fx %8.2f %10.2f%n", r.tool(),
                    r.medianSeconds(), totalRows / r.medianSeconds(), r.bytes() / 1e6 / r.medianSeconds(),
                    r.medianSeconds() / jdm.medianSeconds(), r.toolCpu(), r.serverCpu());
        }
        if (!Double.isNaN(jdm.medianOpenSeconds())) {
            System.out.printf(Locale.ROOT, "jdm median snapshot open %.2f s (medians of each phase separately)%n",
                    jdm.medianOpenSeconds());
        }
    }

    /** Creates and fills sbtest1..N server-side (fast: no rows cross the network). */
    /** {@code tables} sbtest tables of {@code perTable} rows in {@link #DB}: the same rows on every server. */
    public static void fill(ConnectionSpec source, int tables, int perTable) throws Exception {
        try (Connection c = DriverManager.getConnection(source.jdbcUrl(), source.user(), source.password());
             Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + Identifiers.quote(DB));
            st.execute("CREATE DATABASE " + Identifiers.quote(DB));
            st.execute("USE " + Identifiers.quote(DB));
            for (int i = 1; i <= tables; i++) {
                st.execute(Sbtest.createTable(DB, i));
                // sysbench-like values: c is ten 11-digit groups, pad five, joined by '-'
                String group = "LPAD((seq * 7919 + %d) %% 100000000000, 11, '0')";
                st.execute("INSERT INTO " + Sbtest.tableName(i) + " (id, k, c, pad) SELECT seq, seq * 31 % " + perTable
                        + ", SUBSTRING(REPEAT(CONCAT(" + String.format(group, i) + ", '-'), 10), 1, 119)"
                        + ", SUBSTRING(REPEAT(CONCAT(" + String.format(group, i * 3) + ", '-'), 5), 1, 59)"
                        + " FROM seq_1_to_" + perTable);
            }
            st.execute("ANALYZE TABLE " + String.join(", ",
                    java.util.stream.IntStream.rangeClosed(1, tables).mapToObj(Sbtest::tableName).toList()));
        }
    }

    /** Runs a peer tool; NaN: its snapshot-open time is not known. */
    private static double exec(Path dir, Path stdout, String... cmd) throws Exception {
        Files.createDirectories(dir);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(stdout == null);
        pb.redirectOutput(stdout == null ? dir.resolve("tool.log").toFile() : stdout.toFile());
        if (stdout != null) {
            pb.redirectError(dir.resolve("tool.err").toFile());
        }
        Process p = pb.start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(cmd[0] + " exited with " + p.exitValue() + " (see " + dir + ")");
        }
        return Double.NaN;
    }

    private static Optional<String> tool(String given, String... names) {
        if (given != null) {
            return Optional.of(given);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String n : names) {
                Path p = Path.of(dir, n);
                if (Files.isExecutable(p)) {
                    return Optional.of(p.toString());
                }
            }
        }
        return Optional.empty();
    }

    private static long size(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("tool."))
                    .mapToLong(p -> p.toFile().length()).sum();
        }
    }

    public static void delete(Path root) throws Exception {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** {@code --name value} pairs. */
    public static Map<String, String> parse(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            m.put(args[i].substring(2), args[i + 1]);
        }
        return m;
    }
}
