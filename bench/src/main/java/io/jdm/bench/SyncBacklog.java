package io.jdm.bench;

import io.jdm.bench.result.Sample;
import io.jdm.bench.workload.Mix;
import io.jdm.bench.workload.Sbtest;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * sync in backlog mode: per mix, the workload writes for {@code duration} while nothing
 * replicates (source position P → E); then for every worker-count × batch and repetition, jdm and
 * native parallel replication in turn start from P on a target restored to its state at P, and the
 * time until everything up to E is applied and committed gives rows/s = row changes / catch-up
 * seconds. The target equals the source at P when a mix starts (checked), a pristine copy in a
 * second schema on the target restores it before each sample, and CHECKSUM TABLE proves it equal
 * to the quiet source at E after each one.
 */
final class SyncBacklog {
    private static final Duration CATCH_UP_LIMIT = Duration.ofMinutes(10);
    private static final long POLL_MS = 50;
    private final BenchEnv env;
    private final WorkloadDriver driver;
    private final boolean natives;
    private final String db;
    private final String pristine;
    private final String metaSchema;
    private int taskSeq;
    /** True while the target's tables are known to equal the pristine copy (no sample ran since the copy). */
    private boolean atStart;

    SyncBacklog(BenchEnv env, WorkloadDriver driver, boolean natives) {
        this.env = env;
        this.driver = driver;
        this.natives = natives;
        this.db = env.cfg().database();
        this.pristine = db + "_at_start";
        this.metaSchema = db + "_jdm_meta";
    }

    void run() throws Exception {
        BenchConfig cfg = env.cfg();
        boolean process = cfg.runner() == BenchConfig.Runner.PROCESS;
        try {
            for (Mix mix : cfg.sync().mixes()) {
                Backlog backlog = write(mix);
                // repetitions outside settings: the settings take turns, so a slow spell of the machine
                // falls on each of them rather than on one
                for (int rep = 1; rep <= cfg.repetitions(); rep++) {
                    for (SyncSweeps.Setting st : SyncSweeps.settings(cfg, natives)) {
                        String task = "jdmbench_backlog_" + (++taskSeq);
                        sample("jdm", mix, st.params(), rep, backlog, () -> process
                                ? new JdmProcessReplicator(env.source(), env.target(), db, task, st.workers(),
                                        st.batch(), metaSchema, env.work()).validation(st.validation())
                                : new JdmReplicator(env.source(), env.target(), db, task, st.workers(), st.batch(),
                                        metaSchema).validation(st.validation()));
                        if (st.peer()) {
                            sample("mariadb-parallel-replication", mix, st.peerParams(), rep, backlog,
                                    () -> new NativeReplication(env.source(), env.target(), st.workers()));
                        }
                    }
                }
            }
        } finally {
            SyncSweeps.exec(env.target(), "DROP DATABASE IF EXISTS " + Identifiers.quote(pristine),
                    "DROP DATABASE IF EXISTS " + Identifiers.quote(metaSchema));
        }
    }

    /** What one mix wrote while nothing replicated. */
    private record Backlog(BinlogPosition from, BinlogPosition end, long transactions, long rowChanges,
                           double seconds) {
    }

    private Backlog write(Mix mix) throws Exception {
        BenchConfig cfg = env.cfg();
        String m = mix.name().toLowerCase(Locale.ROOT);
        // the source is quiet: the target holds the initial copy or the previous mix's verified end state
        Checksums.assertSame(env.source(), db, env.target(), db, cfg.tables(), "sync backlog " + m + ": start");
        BinlogPosition from = SyncSweeps.position(env.source());
        snapshot();
        long t0 = System.nanoTime();
        driver.start(mix, cfg.duration());
        Thread.sleep(cfg.duration().toMillis());
        WorkloadDriver.Counts counts = driver.stop();
        double seconds = Timed.since(t0);
        BinlogPosition end = SyncSweeps.position(env.source());
        if (counts.rowChanges() == 0) {
            throw new IllegalStateException("sync backlog " + m + ": the workload changed no rows in "
                    + cfg.duration().toSeconds() + "s");
        }
        env.rec().note(String.format(Locale.ROOT, "sync backlog %s: %d transactions, %d row changes written in "
                + "%.1fs with nothing replicating (%.0f row changes/s); every sample replays %s → %s", m,
                counts.transactions(), counts.rowChanges(), seconds, counts.rowChanges() / seconds, from, end));
        return new Backlog(from, end, counts.transactions(), counts.rowChanges(), seconds);
    }

    /** The target's tables at P, copied once per mix into a second schema on the target. */
    private void snapshot() throws Exception {
        try (Connection c = DataSources.connect(env.target()); Statement st = c.createStatement()) {
            String schema = Identifiers.quote(pristine);
            st.execute("DROP DATABASE IF EXISTS " + schema);
            st.execute("CREATE DATABASE " + schema);
            for (int i = 1; i <= env.cfg().tables(); i++) {
                TableName copy = new TableName(pristine, Sbtest.tableName(i));
                TableName live = new TableName(db, Sbtest.tableName(i));
                st.execute("CREATE TABLE " + copy.quoted() + " LIKE " + live.quoted());
                st.execute("INSERT INTO " + copy.quoted() + " SELECT * FROM " + live.quoted());
            }
        }
        Checksums.assertSame(env.target(), db, env.target(), pristine, env.cfg().tables(), "sync backlog: snapshot");
        atStart = true;
    }

    /** Puts the target's tables back to their state at P; the next CHECKSUM at E would catch a bad restore. */
    private void restore() throws Exception {
        if (atStart) {
            return;
        }
        try (Connection c = DataSources.connect(env.target()); Statement st = c.createStatement()) {
            for (int i = 1; i <= env.cfg().tables(); i++) {
                TableName copy = new TableName(pristine, Sbtest.tableName(i));
                TableName live = new TableName(db, Sbtest.tableName(i));
                st.execute("TRUNCATE TABLE " + live.quoted());
                st.execute("INSERT INTO " + live.quoted() + " SELECT * FROM " + copy.quoted());
            }
        }
        atStart = true;
    }

    private void sample(String tool, Mix mix, Map<String, Long> params, int rep, Backlog backlog,
                        Supplier<Replicator> make) throws Exception {
        restore();
        atStart = false;
        Map<String, Double> m = new LinkedHashMap<>();
        Replicator made = make.get();
        try (Replicator r = made) {
            long t0 = System.nanoTime();
            r.start(backlog.from());
            while (!r.caughtUp(backlog.end(), POLL_MS)) {
                if (Timed.since(t0) > CATCH_UP_LIMIT.toSeconds()) {
                    throw new IllegalStateException("sync backlog: " + tool + " did not apply " + backlog.end()
                            + " within " + CATCH_UP_LIMIT.toMinutes() + " minutes");
                }
            }
            double seconds = Timed.since(t0);
            m.put(Sample.SECONDS, seconds);
            m.put(Sample.ROWS, (double) backlog.rowChanges());
            m.put(Sample.ROWS_PER_S, backlog.rowChanges() / seconds);
            m.put(Sample.CATCH_UP_S, seconds);
            m.put(Sample.SOURCE_TPS, backlog.transactions() / backlog.seconds());
            m.putAll(r.extra(seconds));
        }
        m.putAll(made.afterClose());
        Checksums.assertSame(env.source(), db, env.target(), db, env.cfg().tables(), "sync backlog: " + tool);
        env.rec().sample(new Sample("sync", tool, mix.name().toLowerCase(Locale.ROOT), params, rep, m));
    }
}
