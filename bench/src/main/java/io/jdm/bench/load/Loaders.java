package io.jdm.bench.load;

import io.jdm.bench.workload.Sbtest;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadResult;
import io.jdm.load.LoadUnit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** The three ways the benchmark loads the dataset; each returns wall seconds and checks the row count. */
final class Loaders {
    private final ConnectionSpec target;
    private final int tables;
    private final int rows;

    private final long transactionBytes;

    Loaders(ConnectionSpec target, int tables, int rows, long transactionBytes) {
        this.target = target;
        this.transactionBytes = transactionBytes;
        this.tables = tables;
        this.rows = rows;
    }

    double jdm(Path dump, int pool, String db) throws Exception {
        reset(db);
        exec("CREATE DATABASE IF NOT EXISTS jdm_meta", "DROP TABLE IF EXISTS jdm_meta.loadbench_loader_checkpoint");
        LoadConfig cfg = LoadConfig.of("loadbench", "bench", target, dump).withPoolSize(pool)
                .withTransactionBytes(transactionBytes).withRouter(t -> new TableName(db, t.table()));
        long t0 = System.nanoTime();
        LoadResult r = new LoadUnit(cfg).run();
        double secs = (System.nanoTime() - t0) / 1e9;
        check(db, "jdm");
        if (r.rows() != (long) tables * rows) {
            throw new IllegalStateException("jdm reported " + r.rows() + " rows");
        }
        return secs;
    }

    double myloader(Path dump, int threads, String db) throws Exception {
        reset(db);
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder("myloader", "-h", target.host(), "-P", String.valueOf(target.port()), "-u",
                target.user(), "-d", dump.toString(), "-t", String.valueOf(threads), "-B", db, "-v", "1")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("myloader failed with exit " + p.exitValue());
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        check(db, "myloader");
        return secs;
    }

    /** One LOAD DATA LOCAL INFILE per table, all tables at once, same fast-path session settings as jdm. */
    double loadData(Path tsvDir, String db) throws Exception {
        reset(db);
        exec("CREATE DATABASE " + Identifiers.quote(db));
        for (int t = 1; t <= tables; t++) {
            try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
                st.execute("USE " + Identifiers.quote(db));
                st.execute(SbtestDump.createTable(t));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(tables);
        long t0 = System.nanoTime();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 1; t <= tables; t++) {
                String table = Sbtest.tableName(t);
                Path file = tsvDir.resolve(table + ".tsv");
                futures.add(pool.submit(() -> {
                    try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
                        st.execute("SET SESSION foreign_key_checks = 0, unique_checks = 0");
                        st.execute("LOAD DATA LOCAL INFILE " + Identifiers.literal(file.toString()) + " INTO TABLE "
                                + new TableName(db, table).quoted() + " FIELDS TERMINATED BY '\\t' (id, k, c, pad)");
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        check(db, "LOAD DATA");
        return secs;
    }

    private void reset(String db) throws SQLException {
        exec("DROP DATABASE IF EXISTS " + Identifiers.quote(db));
    }

    private void exec(String... sql) throws SQLException {
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    private void check(String db, String who) throws SQLException {
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
            for (int t = 1; t <= tables; t++) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + new TableName(db, Sbtest.tableName(t))
                        .quoted())) {
                    rs.next();
                    if (rs.getLong(1) != rows) {
                        throw new IllegalStateException(who + " left " + rs.getLong(1) + " rows in " + db + ".sbtest" + t
                                + ", expected " + rows);
                    }
                }
            }
        }
    }

}
