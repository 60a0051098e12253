package io.jdm.bench.verify;

import io.jdm.bench.dump.DumpBench;
import io.jdm.bench.workload.Sbtest;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.sql.TableName;
import io.jdm.verify.TablePair;
import io.jdm.verify.Verifier;
import io.jdm.verify.VerifyConfig;
import io.jdm.verify.VerifyReport;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.embedded.EmbeddedMariaDb;
import io.jdm.embedded.ServerProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code jdm verify} against the dump unit on sbtest1..N.
 *
 * <pre>
 * VerifyBench [--tables 4] [--rows-per-table 250000] [--threads 4] [--chunk-rows 50000] [--dump-rows 50000]
 *             [--repeat 5]
 * </pre>
 *
 * An embedded source and target are started and both filled with the dump bench's dataset (the same
 * rows on both). Each round verifies source against target and dumps the source, in turn, after one
 * untimed round of each; medians of the wall times and rows per second are printed, with the ratio.
 * Both servers share the machine with the tool, so verify's two sides compete for the same cores.
 */
public final class VerifyBench {
    private VerifyBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = DumpBench.parse(args);
        int tables = Integer.parseInt(a.getOrDefault("tables", "4"));
        int perTable = Integer.parseInt(a.getOrDefault("rows-per-table", "250000"));
        int threads = Integer.parseInt(a.getOrDefault("threads", "4"));
        long chunkRows = Long.parseLong(a.getOrDefault("chunk-rows", "50000"));
        long dumpRows = Long.parseLong(a.getOrDefault("dump-rows", "50000"));
        int repeat = Integer.parseInt(a.getOrDefault("repeat", "5"));
        Path base = Files.createTempDirectory("jdm-verifybench-");
        try (EmbeddedMariaDb src = EmbeddedMariaDb.start("verifybench-source", ServerProfile.SOURCE);
             EmbeddedMariaDb tgt = EmbeddedMariaDb.start("verifybench-target", ServerProfile.TARGET)) {
            ConnectionSpec source = ConnectionSpec.of(src.host(), src.port(), "root", "");
            ConnectionSpec target = ConnectionSpec.of(tgt.host(), tgt.port(), "root", "");
            DumpBench.fill(source, tables, perTable);
            DumpBench.fill(target, tables, perTable);
            List<TablePair> pairs = new ArrayList<>();
            for (int i = 1; i <= tables; i++) {
                pairs.add(TablePair.same(new TableName(DumpBench.DB, Sbtest.tableName(i))));
            }
            VerifyConfig verify = VerifyConfig.of(source, target, pairs).withThreads(threads).withChunkRows(chunkRows);
            DumpConfig dump = DumpConfig.defaults("bench", source, base.resolve("dump")).withThreads(threads)
                    .withRows(dumpRows).withTableFilter((db, t) -> db.equals(DumpBench.DB));
            long rows = (long) tables * perTable;
            System.out.printf(Locale.ROOT, "dataset: %d sbtest tables x %d rows on both servers; verify threads=%d "
                    + "chunk-rows=%d, dump threads=%d rows=%d; median of %d rounds after 1 untimed%n", tables, perTable,
                    threads, chunkRows, threads, dumpRows, repeat);
            double[] v = new double[repeat];
            double[] d = new double[repeat];
            for (int r = -1; r < repeat; r++) {
                double vs = timeVerify(verify);
                double ds = timeDump(dump, base.resolve("dump"));
                if (r >= 0) {
                    v[r] = vs;
                    d[r] = ds;
                    System.out.printf(Locale.ROOT, "  round %d: verify %.2f s, dump %.2f s%n", r + 1, vs, ds);
                }
            }
            double vm = DumpBench.median(v);
            double dm = DumpBench.median(d);
            System.out.printf(Locale.ROOT, "%-8s %10s %12s%n", "unit", "median s", "rows/s");
            System.out.printf(Locale.ROOT, "%-8s %10.2f %12.0f%n", "verify", vm, rows / vm);
            System.out.printf(Locale.ROOT, "%-8s %10.2f %12.0f%n", "dump", dm, rows / dm);
            System.out.printf(Locale.ROOT, "verify checks %.2fx as many rows per second as the dump reads%n", dm / vm);
        } finally {
            DumpBench.delete(base);
        }
    }

    private static double timeVerify(VerifyConfig config) {
        long t0 = System.nanoTime();
        VerifyReport r = new Verifier(config).run();
        double s = (System.nanoTime() - t0) / 1e9;
        if (!r.matches()) {
            throw new IllegalStateException("verify found differences on identical data:\n" + r.renderTable());
        }
        return s;
    }

    private static double timeDump(DumpConfig config, Path dir) throws Exception {
        long t0 = System.nanoTime();
        new DumpUnit(config).run();
        double s = (System.nanoTime() - t0) / 1e9;
        DumpBench.delete(dir);
        return s;
    }
}
