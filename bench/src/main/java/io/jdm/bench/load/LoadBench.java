package io.jdm.bench.load;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerProfile;
import io.jdm.load.LoadConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * jdm's load against myloader and the target's LOAD DATA ceiling, on one sysbench-shaped dataset.
 *
 * <pre>
 * LoadBench [--target host:port] [--tables 4] [--rows 50000] [--rows-per-statement 1000,100]
 *           [--rows-per-file 10000] [--threads 4] [--pools 2,4,8,16,32] [--repeat 3] [--txn-bytes 8388608]
 * </pre>
 *
 * Without {@code --target} an embedded MariaDB target is started. MB/s is dump SQL bytes per
 * second for every loader (LOAD DATA reads the same rows as TSV), so the ratios compare work done.
 */
public final class LoadBench {
    private LoadBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = parse(args);
        int tables = Integer.parseInt(a.getOrDefault("tables", "4"));
        int rows = Integer.parseInt(a.getOrDefault("rows", "50000"));
        int[] rps = ints(a.getOrDefault("rows-per-statement", "1000,100"));
        int rowsPerFile = Integer.parseInt(a.getOrDefault("rows-per-file", "10000"));
        int threads = Integer.parseInt(a.getOrDefault("threads", "4"));
        int[] pools = ints(a.getOrDefault("pools", "2,4,8,16,32"));
        int repeat = Integer.parseInt(a.getOrDefault("repeat", "3"));
        long txnBytes = Long.parseLong(a.getOrDefault("txn-bytes",
                String.valueOf(LoadConfig.DEFAULT_TRANSACTION_BYTES)));
        EmbeddedMariaDb embedded = null;
        ConnectionSpec target;
        if (a.containsKey("target")) {
            String[] hp = a.get("target").split(":");
            target = ConnectionSpec.of(hp[0], Integer.parseInt(hp[1]), a.getOrDefault("user", "root"),
                    a.getOrDefault("password", ""));
        } else {
            embedded = EmbeddedMariaDb.start("loadbench", ServerProfile.TARGET);
            target = ConnectionSpec.of(embedded.host(), embedded.port(), "root", "");
        }
        Path base = Files.createTempDirectory("jdm-loadbench-");
        try {
            run(target, base, tables, rows, rps, rowsPerFile, threads, pools, repeat, txnBytes);
        } finally {
            if (embedded != null) {
                embedded.close();
            }
            try (var walk = Files.walk(base)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void run(ConnectionSpec target, Path base, int tables, int rows, int[] rps, int rowsPerFile,
                            int threads, int[] pools, int repeat, long txnBytes) throws Exception {
        Loaders loaders = new Loaders(target, tables, rows, txnBytes);
        Map<Integer, Path> dumps = new HashMap<>();
        Map<Integer, Long> bytes = new HashMap<>();
        Path tsv = base.resolve("tsv");
        for (int r : rps) {
            Path dir = base.resolve("dump-" + r);
            bytes.put(r, SbtestDump.write(dir, tsv, tables, rows, r, rowsPerFile));
            dumps.put(r, dir);
        }
        long total = (long) tables * rows;
        int r0 = rps[0];
        double mb = bytes.get(r0) / 1e6;
        System.out.printf(Locale.ROOT, "dataset: %d sbtest tables x %d rows = %d rows, %.1f MB of SQL "
                + "(%d rows/statement, %d rows/file); target %s; median of %d runs%n",
                tables, rows, total, mb, r0, rowsPerFile, target.address(), repeat);
        // one untimed run each: the server's buffer pool, file extension and the JIT warm up alike
        loaders.jdm(dumps.get(r0), threads, "lb_jdm");
        loaders.myloader(dumps.get(r0), threads, "lb_myloader");
        loaders.loadData(tsv, "lb_loaddata");
        double jdm = median(repeat, () -> loaders.jdm(dumps.get(r0), threads, "lb_jdm"));
        double myl = median(repeat, () -> loaders.myloader(dumps.get(r0), threads, "lb_myloader"));
        double ld = median(repeat, () -> loaders.loadData(tsv, "lb_loaddata"));
        System.out.printf(Locale.ROOT, "%-28s %8s %8s %12s%n", "loader (" + threads + " threads)", "seconds", "MB/s",
                "rows/s");
        line("jdm load", jdm, mb, total);
        line("myloader 0.10", myl, mb, total);
        line("LOAD DATA (1 per table)", ld, mb, total);
        System.out.printf(Locale.ROOT, "ratios: jdm/myloader = %.2f, jdm/LOAD DATA = %.2f%n", myl / jdm, ld / jdm);
        System.out.printf(Locale.ROOT, "%nsweep (MB/s, median of %d):%n%-10s %-8s %10s %10s %8s%n", repeat,
                "rows/stmt", "pool", "jdm", "myloader", "ratio");
        for (int r : rps) {
            double rmb = bytes.get(r) / 1e6;
            for (int p : pools) {
                double j = median(repeat, () -> loaders.jdm(dumps.get(r), p, "lb_jdm"));
                double m = median(repeat, () -> loaders.myloader(dumps.get(r), p, "lb_myloader"));
                System.out.printf(Locale.ROOT, "%-10d %-8d %10.1f %10.1f %8.2f%n", r, p, rmb / j, rmb / m, m / j);
            }
        }
    }

    private interface Timed {
        double run() throws Exception;
    }

    private static double median(int n, Timed t) throws Exception {
        List<Double> v = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            v.add(t.run());
        }
        v.sort(Double::compare);
        return v.size() % 2 == 1 ? v.get(v.size() / 2) : (v.get(v.size() / 2 - 1) + v.get(v.size() / 2)) / 2;
    }

    private static void line(String name, double secs, double mb, long rows) {
        System.out.printf(Locale.ROOT, "%-28s %8.2f %8.1f %12.0f%n", name, secs, mb / secs, rows / secs);
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            }
            m.put(args[i].substring(2), args[i + 1]);
        }
        return m;
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
    }
}
