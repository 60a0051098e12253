package io.jdm.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.jdm.bench.report.Reports;
import io.jdm.bench.result.BenchResults;
import io.jdm.bench.workload.Workload;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.Identifiers;
import io.jdm.embedded.ServerPair;
import io.jdm.embedded.SqlServer;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Locale;

/**
 * Runs a {@link BenchConfig}: starts the embedded pair unless both servers are given, prepares
 * the dataset, runs each sweep the file names and writes the reports. The first failure ends the
 * run (a sample that could not be measured, or a copy that differs, is never reported).
 */
public final class BenchRunner {
    private final BenchConfig cfg;
    private final PrintStream out;

    public BenchRunner(BenchConfig cfg, PrintStream out) {
        this.cfg = cfg;
        this.out = out;
    }

    /** Runs every sweep, writes the reports into {@code cfg.output()} and returns what was measured. */
    public BenchResults run() throws Exception {
        ServerPair pair = null;
        ConnectionSpec source = cfg.source();
        ConnectionSpec target = cfg.target();
        if (source == null || target == null) {
            out.println("jdm bench: starting an embedded MariaDB source (ROW binlog, GTID) and target ...");
            pair = ServerPair.startEmbedded("bench");
            source = source != null ? source : spec(pair.source());
            target = target != null ? target : spec(pair.target());
        }
        LatencyProxy proxy = null;
        if (!cfg.targetDelay().isZero()) {
            proxy = LatencyProxy.start(target.host(), target.port(), cfg.targetDelay());
            out.println("jdm bench: the target " + target.address() + " behind a proxy holding each way "
                    + cfg.targetDelay().toMillis() + " ms, on 127.0.0.1:" + proxy.port());
            target = new ConnectionSpec("127.0.0.1", proxy.port(), target.user(), target.password(),
                    target.session(), target.tls(), target.connectTimeoutSeconds(), target.rsaKey());
        }
        Path work = Files.createTempDirectory("jdm-bench-");
        try {
            return measure(source, target, work);
        } finally {
            if (proxy != null) {
                proxy.close();
            }
            Tools.deleteTree(work);
            if (pair != null) {
                pair.closeQuietly();
            }
        }
    }

    private BenchResults measure(ConnectionSpec source, ConnectionSpec target, Path work) throws Exception {
        boolean processes = cfg.dump() != null || cfg.load() != null || cfg.verify() != null || cfg.run() != null
                || cfg.sync() != null && cfg.sync().mode() == BenchConfig.SyncMode.BACKLOG;
        if (cfg.runner() == BenchConfig.Runner.PROCESS && processes && !Measured.available()) {
            throw new IllegalStateException("bench: runner process measures each process with GNU time "
                    + "(/usr/bin/time, Debian package time); install it or set runner: in-jvm");
        }
        Recorder rec = new Recorder(out);
        rec.note(String.format(Locale.ROOT, "dataset: %d sbtest tables x %d rows%s in `%s`; source %s, target %s; "
                + "%d repetition(s) per setting", cfg.tables(), cfg.rowsPerTable(), cfg.payload().present()
                        ? String.format(Locale.ROOT, " with a TEXT and a BLOB column of %d-%d bytes together",
                                cfg.payload().minBytes(), cfg.payload().maxBytes()) : "", cfg.database(),
                source.address(), target.address(), cfg.repetitions()));
        prepare(source);
        BenchEnv env = new BenchEnv(cfg, source, target, work, rec);
        if (cfg.dump() != null) {
            new DumpSweeps(env).run();
        }
        if (cfg.load() != null) {
            new LoadSweeps(env).run();
        }
        if (cfg.run() != null) {
            new RunSweeps(env).run();
        }
        if (cfg.verify() != null) {
            new VerifySweeps(env).run();
        }
        if (cfg.sync() != null) {
            new SyncSweeps(env).run();
        }
        BenchResults results = rec.results(cfg);
        Reports.Written w = Reports.write(results, cfg.output());
        out.println();
        out.print(Reports.markdown(results));
        out.printf("%njdm bench: wrote %s, %s, %s, %s and %s%n", w.markdown(), w.html(), w.samplesCsv(), w.lagCsv(),
                w.ratiosCsv());
        return results;
    }

    private void prepare(ConnectionSpec source) throws Exception {
        try (Connection c = DataSources.connect(source); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + Identifiers.quote(cfg.database()));
        }
        out.printf(Locale.ROOT, "jdm bench: preparing %d x %d rows on the source ...%n", cfg.tables(),
                cfg.rowsPerTable());
        long t0 = System.nanoTime();
        try (HikariDataSource ds = DataSources.pool(source, 4, "bench-prepare")) {
            new Workload(ds, cfg.database(), cfg.tables(), cfg.payload()).prepare(cfg.rowsPerTable(), 4);
        }
        out.printf(Locale.ROOT, "jdm bench: prepared in %.1fs%n", (System.nanoTime() - t0) / 1e9);
    }

    private static ConnectionSpec spec(SqlServer s) {
        return ConnectionSpec.of(s.host(), s.port(), s.user(), s.password());
    }
}
