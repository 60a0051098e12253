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
 * </pre>
 *
 * Without {@code --source} an embedded MariaDB source is started and filled server-side. Peer tools
 * are looked up on PATH unless given; a missing one is reported and skipped. Each tool runs once
 * untimed (buffer pool and JIT warm-up), then {@code --repeat} timed runs; medians are printed with
 * MB/s of the tool's own output and the ratio of wall times.
 */
public final class DumpBench {
    private static final String DB = "dumpbench";

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
                    + "statement-size=%d; median of %d runs%n", tables, perTable, source.address(), threads, rows,
                    statementSize, repeat);
            List<Run> results = new ArrayList<>();
            results.add(measure("jdm", repeat, base, dir -> jdm(source, dir, threads, rows, statementSize)));
            Optional<String> mydumper = tool(a.get("mydumper"), "mydumper");
            if (mydumper.isPresent()) {
                results.add(measure("mydumper", repeat, base, dir -> exec(dir, null, mydumper.get(), "-h",
                        source.host(), "-P", String.valueOf(source.port()), "-u", source.user(), "-t",
                        String.valueOf(threads), "-r", String.valueOf(rows), "-s", String.valueOf(statementSize),
                        "-B", DB, "-o", dir.toString())));
            } else {
                System.out.println("mydumper: not found on PATH, skipped (Debian package mydumper)");
            }
            Optional<String> mdump = tool(a.get("mariadb-dump"), "mariadb-dump", "mysqldump");
            if (mdump.isPresent()) {
                results.add(measure("mariadb-dump --single-transaction", repeat, base, dir -> exec(dir,
                        dir.resolve("dump.sql"), mdump.get(), "--single-transaction", "-h", source.host(), "-P",
                        String.valueOf(source.port()), "-u", source.user(), DB)));
            } else {
                System.out.println("mariadb-dump: not found on PATH, skipped (Debian package mariadb-client)");
            }
            report(results, (long) tables * perTable);
        } finally {
            if (embedded != null) {
                embedded.close();
            }
            delete(base);
        }
    }

    /** One tool's timed runs. */
    record Run(String tool, double medianSeconds, long bytes) {
    }

    interface Dump {
        void into(Path dir) throws Exception;
    }

    private static Run measure(String tool, int repeat, Path base, Dump dump) throws Exception {
        Path warm = base.resolve("warm");
        dump.into(warm);
        delete(warm);
        double[] secs = new double[repeat];
        long bytes = 0;
        for (int i = 0; i < repeat; i++) {
            Path dir = base.resolve(tool.replace(' ', '_') + "-" + i);
            long t0 = System.nanoTime();
            dump.into(dir);
            secs[i] = (System.nanoTime() - t0) / 1e9;
            bytes = size(dir);
            delete(dir);
            System.out.printf(Locale.ROOT, "  %-36s run %d: %.2f s%n", tool, i + 1, secs[i]);
        }
        Arrays.sort(secs);
        return new Run(tool, secs[repeat / 2], bytes);
    }

    private static void jdm(ConnectionSpec source, Path dir, int threads, long rows, long statementSize) {
        DumpResult r = new DumpUnit(DumpConfig.defaults("bench", source, dir).withThreads(threads).withRows(rows)
                .withStatementSize(statementSize).withTableFilter((db, t) -> db.equals(DB))).run();
        if (r.rows() <= 0) {
            throw new IllegalStateException("jdm dumped no rows");
        }
    }

    private static void report(List<Run> runs, long totalRows) {
        Run jdm = runs.get(0);
        System.out.printf(Locale.ROOT, "%-36s %10s %12s %10s %s%n", "tool", "median s", "rows/s", "MB/s", "jdm speed-up");
        for (Run r : runs) {
            System.out.printf(Locale.ROOT, "%-36s %10.2f %12.0f %10.1f %.2fx%n", r.tool(), r.medianSeconds(),
                    totalRows / r.medianSeconds(), r.bytes() / 1e6 / r.medianSeconds(),
                    r.medianSeconds() / jdm.medianSeconds());
        }
    }

    /** Creates and fills sbtest1..N server-side (fast: no rows cross the network). */
    private static void fill(ConnectionSpec source, int tables, int perTable) throws Exception {
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

    private static void exec(Path dir, Path stdout, String... cmd) throws Exception {
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

    private static void delete(Path root) throws Exception {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static Map<String, String> parse(String[] args) {
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
