package io.jdm.bench;

import io.jdm.common.jdbc.DataSources;
import io.jdm.common.metrics.Latency;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadResult;
import io.jdm.load.LoadUnit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * load: one jdm dump of the dataset per rows-per-statement (statement size = rows × the sbtest row's
 * ~200 bytes), then jdm's LoadUnit and myloader at every pool size, into a fresh database each time.
 * MB/s is dump bytes per second for both; every load is checked with CHECKSUM TABLE.
 */
final class LoadSweeps {
    /** An sbtest row in a dump's VALUES list: (id,k,'c…119','pad…59'), about 200 bytes. */
    static final long ROW_BYTES = 200;
    private static final String TASK = "jdmbenchload";
    private final BenchEnv env;
    private final String targetDb;

    LoadSweeps(BenchEnv env) {
        this.env = env;
        this.targetDb = env.cfg().database() + "_load";
    }

    void run() throws Exception {
        BenchConfig cfg = env.cfg();
        Optional<java.nio.file.Path> myloader = cfg.peers() ? Tools.find("myloader") : Optional.empty();
        if (cfg.peers() && myloader.isEmpty()) {
            env.rec().note("load: myloader not found on PATH, skipped (Debian package mydumper)");
        }
        for (int rps : cfg.load().rowsPerStatement()) {
            Path dump = env.work().resolve("load-dump-" + rps);
            long bytes = dump(dump, rps);
            for (int pool : cfg.load().poolSize()) {
                Map<String, Long> p = new LinkedHashMap<>();
                p.put("pool-size", (long) pool);
                p.put("rows-per-statement", (long) rps);
                repeat("jdm", p, rep -> jdm(dump, pool, bytes));
                if (myloader.isPresent()) {
                    repeat("myloader", p, rep -> myloader(myloader.get(), dump, pool, bytes));
                }
            }
            Tools.deleteTree(dump);
        }
        drop();
    }

    private long dump(Path dir, int rps) {
        String db = env.cfg().database();
        long chunk = Math.max(1000, env.cfg().rowsPerTable() / 4);
        DumpConfig c = DumpConfig.defaults("bench", env.source(), dir).withThreads(4).withRows(chunk)
                .withStatementSize(Math.max(1024, rps * ROW_BYTES)).withTableFilter((d, t) -> d.equals(db));
        return new DumpUnit(c).run().bytes();
    }

    private void repeat(String tool, Map<String, Long> params, Timed.Op op) throws Exception {
        for (int i = 0; i < env.cfg().warmUpRuns(); i++) {
            op.run(-1);
        }
        for (int rep = 1; rep <= env.cfg().repetitions(); rep++) {
            Timed t = op.run(rep);
            Map<String, Double> m = t.metrics();
            if (lastLatency != null) {
                m.put(Sample.TXN_P95_MS, lastLatency.percentileMillis(95));
                m.put(Sample.TXN_P99_MS, lastLatency.percentileMillis(99));
            }
            env.rec().sample(new Sample("load", tool, null, params, rep, m));
        }
    }

    private Latency lastLatency;

    private Timed jdm(Path dump, int pool, long bytes) throws Exception {
        drop();
        exec("CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS jdm_meta." + Identifiers.quote(TASK + "_loader_checkpoint"));
        LoadConfig c = LoadConfig.of(TASK, "bench", env.target(), dump).withPoolSize(pool)
                .withRouter(t -> new TableName(targetDb, t.table()));
        LoadUnit unit = new LoadUnit(c);
        long t0 = System.nanoTime();
        LoadResult r = unit.run();
        double secs = Timed.since(t0);
        lastLatency = unit.metrics().transactionLatency();
        check("jdm load");
        return new Timed(secs, r.rows(), bytes);
    }

    private Timed myloader(Path exe, Path dump, int pool, long bytes) throws Exception {
        drop();
        lastLatency = null;
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "-h", env.target().host(), "-P",
                String.valueOf(env.target().port()), "-u", env.target().user(), "-d", dump.toString(), "-t",
                String.valueOf(pool), "-B", targetDb));
        if (!env.target().password().isEmpty()) {
            cmd.addAll(List.of("-p", env.target().password()));
        }
        long t0 = System.nanoTime();
        Tools.run(cmd, null, Duration.ofMinutes(30));
        double secs = Timed.since(t0);
        check("myloader");
        return new Timed(secs, env.cfg().tables() * env.cfg().rowsPerTable(), bytes);
    }

    private void check(String who) throws SQLException {
        Checksums.assertSame(env.source(), env.cfg().database(), env.target(), targetDb, env.cfg().tables(), who);
    }

    private void drop() throws SQLException {
        exec("DROP DATABASE IF EXISTS " + Identifiers.quote(targetDb));
    }

    private void exec(String... sql) throws SQLException {
        try (Connection c = DataSources.connect(env.target()); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }
}
