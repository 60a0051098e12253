package io.jdm.bench;

import io.jdm.common.meta.MetaTable;

import io.jdm.bench.result.Sample;
import io.jdm.common.metrics.Latency;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadResult;
import io.jdm.load.LoadUnit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * load: one jdm dump of the dataset per rows-per-statement (statement size = rows × the sbtest row's
 * ~200 bytes), then jdm and myloader at every pool size, alternating, into a fresh database each
 * time, and once per rows-per-statement the target's bulk ceiling, one LOAD DATA LOCAL INFILE stream
 * per table ({@link LoadDataPeer}). With runner process (the default) each jdm sample is a whole
 * {@code jdm load} process started by the launcher, measured like the peers (wall, CPU, peak RSS);
 * with runner in-jvm it is a LoadUnit run in this JVM, a profiling aid. MB/s is dump bytes per
 * second for every loader; every load is checked with CHECKSUM TABLE.
 */
final class LoadSweeps {
    /** An sbtest row in a dump's VALUES list: (id,k,'c…119','pad…59'), about 200 bytes. */
    static final long ROW_BYTES = 200;
    private static final String TASK = "jdmbenchload";
    /** The meta schema of the process runs' task, dropped before each run so each loads afresh. */
    private static final String META = "jdm_bench_meta";
    private final BenchEnv env;
    private final String targetDb;
    private final CopyDb copy;

    LoadSweeps(BenchEnv env) {
        this.env = env;
        this.targetDb = env.cfg().database() + "_load";
        this.copy = new CopyDb(env, targetDb);
    }

    void run() throws Exception {
        BenchConfig cfg = env.cfg();
        boolean process = cfg.runner() == BenchConfig.Runner.PROCESS;
        Optional<Path> myloader = cfg.peers() ? Tools.find("myloader") : Optional.empty();
        if (cfg.peers() && myloader.isEmpty()) {
            env.rec().note("load: myloader not found on PATH, skipped (Debian package mydumper)");
        }
        Optional<LoadDataPeer> loadData = loadData();
        for (int rps : cfg.load().rowsPerStatement()) {
            Path dump = env.work().resolve("load-dump-" + rps);
            long bytes = dump(dump, rps);
            for (int pool : cfg.load().poolSize()) {
                Map<String, Long> p = new LinkedHashMap<>();
                p.put("pool-size", (long) pool);
                p.put("rows-per-statement", (long) rps);
                Map<String, BenchEnv.Op> tools = new LinkedHashMap<>();
                tools.put("jdm", () -> process ? jdmProcess(dump, pool, bytes) : jdm(dump, pool, bytes));
                if (myloader.isPresent()) {
                    tools.put("myloader", () -> myloader(myloader.get(), dump, pool, bytes, process));
                }
                env.alternate("load", p, tools);
            }
            if (loadData.isPresent()) {
                // rows-per-statement means nothing to LOAD DATA; it names the dump whose bytes MB/s counts
                env.alternate("load", Map.of("rows-per-statement", (long) rps),
                        Map.of(LoadDataPeer.TOOL, () -> loadData.get().run(targetDb, bytes, process)));
            }
            Tools.deleteTree(dump);
        }
        if (loadData.isPresent()) {
            loadData.get().deleteFiles();
        }
        copy.drop();
    }

    /** The LOAD DATA peer, its files written, when peers are on and a mariadb client is on PATH. */
    private Optional<LoadDataPeer> loadData() throws Exception {
        if (!env.cfg().peers()) {
            return Optional.empty();
        }
        if (env.cfg().payload().present()) {
            env.rec().note("load: the LOAD DATA peer writes sysbench's four columns only; skipped for wide rows");
            return Optional.empty();
        }
        Optional<Path> client = Tools.find("mariadb", "mysql");
        if (client.isEmpty()) {
            env.rec().note("load: mariadb client not found on PATH, LOAD DATA peer skipped (Debian package "
                    + "mariadb-client)");
            return Optional.empty();
        }
        LoadDataPeer peer = new LoadDataPeer(env, client.get());
        peer.writeFiles();
        return Optional.of(peer);
    }



    /** jdm load as a user runs it: the launcher, a task file with the sweep's keys only. */
    private Map<String, Double> jdmProcess(Path dump, int pool, long bytes) throws Exception {
        copy.drop();
        copy.exec("DROP DATABASE IF EXISTS " + Identifiers.quote(META));
        Path task = JdmProcess.taskFile(env.work(), "bench-load.yaml", JdmProcess.copyTask(env, "bench-load", META,
                targetDb, List.of("mydumpers: {global: {dir: \"" + dump + "\"}}",
                        "loaders: {global: {pool-size: " + pool + "}}")));
        Measured m = JdmProcess.run("load", task, env.source(), env.target());
        copy.check("jdm load");
        return m.metrics(env.cfg().tables() * env.cfg().rowsPerTable(), bytes);
    }

    private long dump(Path dir, int rps) {
        String db = env.cfg().database();
        long chunk = Math.max(1000, env.cfg().rowsPerTable() / 4);
        DumpConfig c = DumpConfig.defaults("bench", env.source(), dir).withRows(chunk)
                .withStatementSize(Math.max(1024, rps * ROW_BYTES)).withTableFilter((d, t) -> d.equals(db));
        return new DumpUnit(c).run().bytes();
    }

    private Map<String, Double> jdm(Path dump, int pool, long bytes) throws Exception {
        copy.drop();
        copy.exec("CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS " + MetaTable.LOADER_CHECKPOINT.of("jdm_meta", TASK).quoted());
        LoadConfig c = LoadConfig.of(TASK, "bench", env.target(), dump).withPoolSize(pool)
                .withRouter(t -> new TableName(targetDb, t.table()));
        LoadUnit unit = new LoadUnit(c);
        long t0 = System.nanoTime();
        LoadResult r = unit.run();
        double secs = Timed.since(t0);
        Latency latency = unit.metrics().transactionLatency();
        copy.check("jdm load");
        Map<String, Double> m = new Timed(secs, r.rows(), bytes).metrics();
        m.put(Sample.TXN_P95_MS, latency.percentileMillis(95));
        m.put(Sample.TXN_P99_MS, latency.percentileMillis(99));
        return m;
    }

    private Map<String, Double> myloader(Path exe, Path dump, int pool, long bytes, boolean process)
            throws Exception {
        copy.drop();
        List<String> cmd = myloaderCommand(env, exe, dump, pool, targetDb);
        long rows = env.cfg().tables() * env.cfg().rowsPerTable();
        if (process) {
            Measured m = Measured.run(cmd, Map.of(), Duration.ofMinutes(30));
            copy.check("myloader");
            return m.metrics(rows, bytes);
        }
        long t0 = System.nanoTime();
        Tools.run(cmd, null, Duration.ofMinutes(30));
        double secs = Timed.since(t0);
        copy.check("myloader");
        return new Timed(secs, rows, bytes).metrics();
    }

    /** myloader of {@code dump} into {@code targetDb} on {@code pool} threads. */
    static List<String> myloaderCommand(BenchEnv env, Path exe, Path dump, int pool, String targetDb) {
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "-h", env.target().host(), "-P",
                String.valueOf(env.target().port()), "-u", env.target().user(), "-d", dump.toString(), "-t",
                String.valueOf(pool), "-B", targetDb));
        if (!env.target().password().isEmpty()) {
            cmd.addAll(List.of("-p", env.target().password()));
        }
        return cmd;
    }

}
