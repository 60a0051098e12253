package io.jdm.bench;

import io.jdm.common.meta.MetaTable;

import io.jdm.bench.result.Sample;
import io.jdm.bench.workload.Sbtest;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.dump.DumpConfig;
import io.jdm.dump.DumpUnit;
import io.jdm.load.LoadConfig;
import io.jdm.load.LoadUnit;
import io.jdm.verify.TablePair;
import io.jdm.verify.Verifier;
import io.jdm.verify.VerifyConfig;
import io.jdm.verify.VerifyReport;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * verify: {@code jdm verify} of the dataset against an identical copy on the target (made once by
 * the dump and load units, untimed, checked with CHECKSUM TABLE) at every threads × chunk-rows.
 * With runner process (the default) each sample is a whole {@code jdm verify --threads N
 * --chunk-rows C} process started by the launcher and measured by GNU time; with runner in-jvm it
 * is a Verifier run in this JVM, a profiling aid. A sample that finds a difference is an error, not a
 * result. rows/s counts the rows of one side. No peer: no tool on the machine compares two servers
 * row by row, and the rate the source can be read at is the dump sweep's.
 */
final class VerifySweeps {
    private static final String TASK = "jdmbenchverify";
    private final BenchEnv env;
    private final String targetDb;
    private final long rows;

    VerifySweeps(BenchEnv env) {
        this.env = env;
        this.targetDb = env.cfg().database() + "_verify";
        this.rows = env.cfg().tables() * env.cfg().rowsPerTable();
    }

    void run() throws Exception {
        BenchConfig cfg = env.cfg();
        boolean process = cfg.runner() == BenchConfig.Runner.PROCESS;
        copy();
        Path task = process ? taskFile() : null;
        for (int threads : cfg.verify().threads()) {
            for (long chunk : cfg.verify().chunkRows()) {
                Map<String, Long> p = new LinkedHashMap<>();
                p.put("threads", (long) threads);
                p.put("chunk-rows", chunk);
                env.alternate("verify", p, Map.of("jdm", () -> sample(task, threads, chunk)));
            }
        }
        exec("DROP DATABASE IF EXISTS " + Identifiers.quote(targetDb));
    }

    /** A {@code jdm verify} process when {@code task} is given, a Verifier in this JVM otherwise. */
    private Map<String, Double> sample(Path task, int threads, long chunk) throws Exception {
        Map<String, Double> m;
        if (task != null) {
            // jdm verify exits 1 when something differs, which Measured reports as a failure
            m = JdmProcess.run("verify", task, env.source(), env.target(), "--threads", String.valueOf(threads),
                    "--chunk-rows", String.valueOf(chunk)).metrics(rows, 0);
        } else {
            m = inJvm(threads, chunk);
        }
        // verify writes nothing: no bytes, so no MB/s
        m.remove(Sample.BYTES);
        m.remove(Sample.MB_PER_S);
        return m;
    }

    private Map<String, Double> inJvm(int threads, long chunk) {
        List<TablePair> pairs = new ArrayList<>();
        for (int t = 1; t <= env.cfg().tables(); t++) {
            String table = Sbtest.tableName(t);
            pairs.add(new TablePair(new TableName(env.cfg().database(), table), new TableName(targetDb, table)));
        }
        VerifyConfig c = VerifyConfig.of(env.source(), env.target(), pairs).withThreads(threads).withChunkRows(chunk);
        long t0 = System.nanoTime();
        VerifyReport r = new Verifier(c).run();
        double secs = Timed.since(t0);
        if (!r.matches()) {
            throw new IllegalStateException("verify: jdm found differences on identical data:\n" + r.renderTable());
        }
        return new Timed(secs, rows, 0).metrics();
    }

    /** The task a user would verify the copy with: the source database routed to the copy's name. */
    private Path taskFile() throws Exception {
        String db = env.cfg().database();
        return JdmProcess.taskFile(env.work(), "bench-verify.yaml", List.of(
                "name: bench-verify",
                "task-mode: full",
                "target-database: " + JdmProcess.server(env.target(), "JDM_BENCH_TARGET_PASSWORD"),
                "block-allow-list: {only: {do-dbs: [\"" + db + "\"]}}",
                "routes: {to-copy: {schema-pattern: \"" + db + "\", target-schema: \"" + targetDb + "\"}}",
                "mysql-instances:",
                "  - source-id: bench",
                "    block-allow-list: only",
                "    route-rules: [to-copy]",
                "    from: " + JdmProcess.server(env.source(), "JDM_BENCH_SOURCE_PASSWORD")));
    }

    private void copy() throws Exception {
        String db = env.cfg().database();
        exec("DROP DATABASE IF EXISTS " + Identifiers.quote(targetDb), "CREATE DATABASE IF NOT EXISTS jdm_meta",
                "DROP TABLE IF EXISTS " + MetaTable.LOADER_CHECKPOINT.of("jdm_meta", TASK).quoted());
        Path dir = env.work().resolve("verify-copy");
        new DumpUnit(DumpConfig.defaults("bench", env.source(), dir).withTableFilter((d, t) -> d.equals(db))).run();
        new LoadUnit(LoadConfig.of(TASK, "bench", env.target(), dir).withPoolSize(4)
                .withRouter(t -> new TableName(targetDb, t.table()))).run();
        Tools.deleteTree(dir);
        Checksums.assertSame(env.source(), db, env.target(), targetDb, env.cfg().tables(), "verify: copy");
    }

    private void exec(String... sql) throws SQLException {
        Tools.execute(env.target(), sql);
    }
}
