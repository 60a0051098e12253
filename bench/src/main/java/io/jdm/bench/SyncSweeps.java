package io.jdm.bench;

import io.jdm.common.meta.MetaTable;

import io.jdm.bench.result.LagTrace;
import io.jdm.bench.result.Sample;
import io.jdm.bench.result.Stats;
import io.jdm.bench.workload.Mix;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.sql.Identifiers;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadUnit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import io.jdm.common.config.ValidatorConfig;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * sync: the target first gets a copy of the dataset (jdm dump + load). In backlog mode (the
 * default) {@link SyncBacklog} then measures catch-up from a written backlog. In live mode, for every mix ×
 * worker-count × batch and repetition, a replicator starts at the source's current position, the
 * workload writes for warm-up + duration while lag is sampled, the workload stops and the
 * replicator catches up, and CHECKSUM TABLE proves the copy equal before the next sample starts
 * from it. jdm's sync and native parallel replication take turns on the same data.
 */
final class SyncSweeps {
    private static final Duration CATCH_UP_LIMIT = Duration.ofMinutes(10);
    private static final long LAG_SAMPLE_MS = 250;
    private final BenchEnv env;
    private int taskSeq;

    SyncSweeps(BenchEnv env) {
        this.env = env;
    }

    void run() throws Exception {
        BenchConfig cfg = env.cfg();
        copyToTarget();
        boolean natives = cfg.peers() && nativeUsable();
        if (!cfg.sync().validation().equals(List.of(ValidatorConfig.Mode.NONE))) {
            env.rec().note("sync: validation is the jdm sync's continuous validation (validators: mode): 0 none, "
                    + "1 fast, 2 full; rows/s is the sync's catch-up, the validator reading rows back beside it");
        }
        WorkloadDriver driver = driver();
        try {
            if (cfg.sync().mode() == BenchConfig.SyncMode.BACKLOG) {
                new SyncBacklog(env, driver, natives).run();
            } else {
                live(driver, natives);
            }
        } finally {
            if (driver instanceof WorkloadDriver.Builtin b) {
                b.close();
            }
        }
    }

    private void live(WorkloadDriver driver, boolean natives) throws Exception {
        BenchConfig cfg = env.cfg();
        env.rec().note("sync: live mode: the workload and the replicator run together; rows/s is capped by the "
                + "workload's rate");
        env.rec().note("sync: live mode: lag is the age of a heartbeat row the source writes every "
                + LAG_SAMPLE_MS + " ms, read on the target as often; the load starts once the replicator streams");
        boolean process = cfg.runner() == BenchConfig.Runner.PROCESS;
        String metaSchema = cfg.database() + "_jdm_meta";
        for (Mix mix : cfg.sync().mixes()) {
            for (Setting st : settings(cfg, natives)) {
                for (int rep = 1; rep <= cfg.repetitions(); rep++) {
                    String task = "jdmbench_sync_" + (++taskSeq);
                    sample("jdm", mix, st.params(), rep, driver, () -> process
                            ? new JdmProcessReplicator(env.source(), env.target(), cfg.database(), task, st.workers(),
                                    st.batch(), metaSchema, env.work()).validation(st.validation())
                            : new JdmReplicator(env.source(), env.target(), cfg.database(), task, st.workers(),
                                    st.batch(), metaSchema).validation(st.validation()));
                    if (st.peer()) {
                        sample("mariadb-parallel-replication", mix, st.peerParams(), rep, driver,
                                () -> new NativeReplication(env.source(), env.target(), st.workers()));
                    }
                }
            }
        }
    }

    /**
     * One jdm setting of the sync sweep, as the report labels it; {@code peer}: native parallel
     * replication with as many threads is sampled beside it (once per worker-count).
     */
    record Setting(int workers, int batch, boolean peer, ValidatorConfig.Mode validation, boolean validationSwept) {
        Map<String, Long> params() {
            Map<String, Long> p = new LinkedHashMap<>();
            p.put("worker-count", (long) workers);
            p.put("batch", (long) batch);
            if (validationSwept) {
                p.put("validation", (long) validation.ordinal()); // 0 none, 1 fast, 2 full
            }
            return p;
        }

        Map<String, Long> peerParams() {
            return Map.of("worker-count", (long) workers);
        }
    }

    /** Every worker-count x batch x validation mode of the config, in order. */
    static List<Setting> settings(BenchConfig cfg, boolean natives) {
        List<Setting> out = new ArrayList<>();
        List<ValidatorConfig.Mode> modes = cfg.sync().validation();
        boolean swept = !modes.equals(List.of(ValidatorConfig.Mode.NONE));
        for (int workers : cfg.sync().workerCount()) {
            for (int b = 0; b < cfg.sync().batch().size(); b++) {
                for (int v = 0; v < modes.size(); v++) {
                    out.add(new Setting(workers, cfg.sync().batch().get(b), natives && b == 0 && v == 0, modes.get(v),
                            swept));
                }
            }
        }
        return out;
    }

    private boolean nativeUsable() {
        String why = NativeReplication.unsupportedReason(env.target());
        if (why != null) {
            env.rec().note("sync: native parallel replication skipped: " + why);
            return false;
        }
        return true;
    }

    private WorkloadDriver driver() {
        BenchConfig cfg = env.cfg();
        if (cfg.workload() == BenchConfig.WorkloadKind.SYSBENCH) {
            Optional<Path> sb = Tools.find("sysbench");
            if (sb.isPresent()) {
                env.rec().note("sync: workload from " + sb.get() + " (" + cfg.workloadThreads() + " threads)");
                return new WorkloadDriver.Sysbench(sb.get(), env.source(), cfg.database(), cfg.tables(),
                        cfg.rowsPerTable(), cfg.keys(), cfg.workloadThreads());
            }
            env.rec().note("sync: workload: sysbench not found on PATH (Debian package sysbench); using the built-in "
                    + "workload");
        } else {
            env.rec().note("sync: built-in sysbench-shaped workload, " + cfg.workloadThreads() + " threads, "
                    + cfg.keys().name().toLowerCase() + " keys");
        }
        return new WorkloadDriver.Builtin(env.source(), cfg.database(), cfg.tables(), cfg.keys(),
                cfg.workloadThreads());
    }

    /** The target gets the dataset and the heartbeat table the way a user's would: jdm dump, then jdm load. */
    private void copyToTarget() throws Exception {
        String db = env.cfg().database();
        exec(env.source(), Heartbeat.createTable(db));
        exec(env.target(), "DROP DATABASE IF EXISTS " + Identifiers.quote(db), "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS " + MetaTable.LOADER_CHECKPOINT.of("jdm_meta", "jdmbenchcopy").quoted());
        Path dir = env.work().resolve("sync-copy");
        new DumpUnit(DumpConfig.defaults("bench", env.source(), dir)
                .withTableFilter((d, t) -> d.equals(db))).run();
        new LoadUnit(LoadConfig.of("jdmbenchcopy", "bench", env.target(), dir).withPoolSize(4)).run();
        Tools.deleteTree(dir);
        Checksums.assertSame(env.source(), db, env.target(), db, env.cfg().tables(), "sync: initial copy");
    }

    private void sample(String tool, Mix mix, Map<String, Long> params, int rep, WorkloadDriver driver,
                        Supplier<Replicator> make) throws Exception {
        BenchConfig cfg = env.cfg();
        double warm = cfg.warmUp().toMillis() / 1000.0;
        double length = warm + cfg.duration().toMillis() / 1000.0;
        List<double[]> trace = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        // taken before the first beat, so every replicator sees the heartbeat row inserted
        BinlogPosition from = position();
        Replicator made = make.get();
        Map<String, Double> m = new LinkedHashMap<>();
        List<double[]> keep = trace;
        try (Replicator r = made; Heartbeat hb = Heartbeat.start(env.source(), env.target(), cfg.database());
             Connection tc = hb.targetConnection()) {
            r.start(from);
            // a whole process starts its JVM first: the load begins once the replicator streams
            if (!r.caughtUp(from, CATCH_UP_LIMIT.toMillis())) {
                throw new IllegalStateException("sync: " + tool + " did not start streaming from " + from);
            }
            long t0 = System.nanoTime();
            driver.start(mix, Duration.ofMillis((long) (length * 1000)));
            while (Timed.since(t0) < length) {
                Thread.sleep(LAG_SAMPLE_MS);
                double lag = hb.lagSeconds(tc);
                if (!Double.isNaN(lag)) {
                    trace.add(new double[] {Timed.since(t0), lag});
                    if (Timed.since(t0) >= warm) {
                        measured.add(lag);
                    }
                }
            }
            WorkloadDriver.Counts counts = driver.stop();
            double written = Timed.since(t0);
            BinlogPosition end = position();
            while (!r.caughtUp(end, LAG_SAMPLE_MS)) {
                if (Timed.since(t0) - written > CATCH_UP_LIMIT.toSeconds()) {
                    throw new IllegalStateException("sync: " + tool + " did not catch up with " + end + " within "
                            + CATCH_UP_LIMIT.toMinutes() + " minutes");
                }
                double lag = hb.lagSeconds(tc);
                if (!Double.isNaN(lag)) {
                    trace.add(new double[] {Timed.since(t0), lag});
                    measured.add(lag);
                }
            }
            double total = Timed.since(t0);
            // the last beats must reach the target too, or the next sample starts from a stale heartbeat row
            hb.close();
            BinlogPosition last = position();
            while (!r.caughtUp(last, LAG_SAMPLE_MS)) {
                if (Timed.since(t0) - written > CATCH_UP_LIMIT.toSeconds()) {
                    throw new IllegalStateException("sync: " + tool + " did not apply the last heartbeat " + last);
                }
            }
            m.put(Sample.SECONDS, total);
            m.put(Sample.ROWS, (double) counts.rowChanges());
            m.put(Sample.ROWS_PER_S, counts.rowChanges() / total);
            m.put(Sample.CATCH_UP_S, total - written);
            m.put(Sample.SOURCE_TPS, counts.transactions() / written);
            m.put(Sample.LAG_P95_S, Stats.percentile(measured, 95));
            m.put(Sample.LAG_P99_S, Stats.percentile(measured, 99));
            m.putAll(r.extra(total));
        }
        m.putAll(made.afterClose());
        Checksums.assertSame(env.source(), cfg.database(), env.target(), cfg.database(), cfg.tables(),
                "sync: " + tool);
        Sample s = new Sample("sync", tool, mix.name().toLowerCase(), params, rep, m);
        env.rec().sample(s);
        env.rec().lag(new LagTrace(tool, s.mix(), s.setting(), rep, keep));
    }

    private BinlogPosition position() throws Exception {
        return position(env.source());
    }

    static BinlogPosition position(ConnectionSpec source) throws Exception {
        try (Connection c = DataSources.connect(source)) {
            return Flavor.detect(c).currentPosition(c);
        }
    }

    static void exec(ConnectionSpec spec, String... sql) throws Exception {
        try (Connection c = DataSources.connect(spec); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }
}
