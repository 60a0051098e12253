package io.jdm.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.jdm.bench.workload.KeyDistribution;
import io.jdm.bench.workload.Mix;
import io.jdm.bench.workload.Workload;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The write load on the source during a sync sample: the built-in workload or sysbench. */
interface WorkloadDriver {
    /** What the source committed. */
    record Counts(long transactions, long rowChanges) {
    }

    /** Starts writing; {@code length} is how long the caller will let it run. */
    void start(Mix mix, Duration length) throws Exception;

    Counts stop() throws Exception;

    /** The built-in Java workload (sysbench's oltp_common shapes), one fresh counter set per sample. */
    final class Builtin implements WorkloadDriver {
        private final HikariDataSource ds;
        private final String db;
        private final int tables;
        private final KeyDistribution keys;
        private final int threads;
        private Workload w;

        Builtin(ConnectionSpec source, String db, int tables, KeyDistribution keys, int threads) {
            this.ds = DataSources.pool(source, threads + 2, "bench-workload");
            this.db = db;
            this.tables = tables;
            this.keys = keys;
            this.threads = threads;
        }

        @Override
        public void start(Mix mix, Duration length) throws Exception {
            w = new Workload(ds, db, tables);
            w.start(mix, keys, threads);
        }

        @Override
        public Counts stop() throws Exception {
            w.stop();
            return new Counts(w.transactions().total(), w.rowChanges().total());
        }

        void close() {
            ds.close();
        }
    }

    /**
     * sysbench's own Lua scripts for {@code length}; counts come from its final report
     * (transactions, and write queries as row changes: each sbtest write statement changes one row).
     */
    final class Sysbench implements WorkloadDriver {
        private static final Pattern TXNS = Pattern.compile("transactions:\\s+(\\d+)");
        private static final Pattern WRITES = Pattern.compile("write:\\s+(\\d+)");
        private final Path exe;
        private final ConnectionSpec source;
        private final String db;
        private final long rowsPerTable;
        private final int tables;
        private final KeyDistribution keys;
        private final int threads;
        private Process process;
        private Path log;

        Sysbench(Path exe, ConnectionSpec source, String db, int tables, long rowsPerTable, KeyDistribution keys,
                 int threads) {
            this.exe = exe;
            this.source = source;
            this.db = db;
            this.tables = tables;
            this.rowsPerTable = rowsPerTable;
            this.keys = keys;
            this.threads = threads;
        }

        @Override
        public void start(Mix mix, Duration length) throws Exception {
            List<String> cmd = new ArrayList<>(List.of(exe.toString(), mix.name().toLowerCase(Locale.ROOT),
                    "--db-driver=mysql", "--mysql-host=" + source.host(), "--mysql-port=" + source.port(),
                    "--mysql-user=" + source.user(), "--mysql-password=" + source.password(), "--mysql-db=" + db,
                    "--mysql-ssl=off", "--tables=" + tables, "--table-size=" + rowsPerTable, "--threads=" + threads,
                    "--time=" + Math.max(1, length.toSeconds()), "--rand-type=" + keys.name().toLowerCase(Locale.ROOT),
                    "--mysql-ignore-errors=1062,1213", "run"));
            log = java.nio.file.Files.createTempFile("jdm-bench-sysbench-", ".log");
            process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }

        @Override
        public Counts stop() throws Exception {
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException("sysbench did not finish 60s after its --time");
                }
                String out = java.nio.file.Files.readString(log);
                if (process.exitValue() != 0) {
                    throw new IllegalStateException("sysbench exited with " + process.exitValue() + ": "
                            + out.strip().lines().reduce((a, b) -> b).orElse(""));
                }
                return new Counts(find(TXNS, out), find(WRITES, out));
            } finally {
                java.nio.file.Files.deleteIfExists(log);
            }
        }

        private static long find(Pattern p, String out) {
            Matcher m = p.matcher(out);
            if (!m.find()) {
                throw new IllegalStateException("sysbench's report has no '" + p.pattern() + "' line");
            }
            return Long.parseLong(m.group(1));
        }
    }
}
