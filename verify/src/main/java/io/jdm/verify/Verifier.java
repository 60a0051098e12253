package io.jdm.verify;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.metrics.ProgressLogger;
import io.jdm.common.position.BinlogPosition;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares source and target tables chunk by chunk and narrows differing chunks to rows.
 *
 * <pre>
 *  plan (source) ──► chunks ──► bounded queue ──► N workers, each:
 *                                                  source checksum ┐ concurrently
 *                                                  target checksum ┘ (companion thread)
 *                                                  equal? done : merge rows ─► report, fix SQL
 * </pre>
 *
 * Target tables that routes fill from several source tables are compared after the others, as the
 * union of their shards ({@link MergedTable}, {@code MergeComparer}), one range at a time. A shard
 * whose route adds extra columns is no shard of such a union: it is a single table, compared with
 * the target's rows that hold its values ({@link TablePair#extra()}). Of the source, only the rows
 * the task copies are compared ({@link VerifyConfig#tableWhere}, the dump's condition); the others
 * are counted as filtered.
 *
 * <p>Nothing is locked and nothing is written to either server; with {@link SnapshotOptions} the source
 * is read in one consistent snapshot, at a position the target is first waited for.
 */
public final class Verifier {
    private static final Logger LOG = LoggerFactory.getLogger(Verifier.class);

    private final VerifyConfig config;
    private final VerifyMetrics metrics;

    public Verifier(VerifyConfig config) {
        this.config = config;
        this.metrics = new VerifyMetrics(config.task());
    }

    public VerifyMetrics metrics() {
        return metrics;
    }

    /**
     * Compares every configured table. Tables that cannot be compared are reported as ERROR; a
     * failure that stops the whole comparison (a server unreachable) is thrown as a
     * {@link io.jdm.common.error.JdmException}.
     */
    @SuppressWarnings("try") // the progress logger only has to live as long as the run
    public VerifyReport run() {
        long start = System.nanoTime();
        List<TablePair> singles = config.singleTables();
        List<MergedTable> merged = config.mergedTargets();
        Map<TablePair, TableTally> tallies = new LinkedHashMap<>();
        for (TablePair p : singles) {
            tallies.put(p, new TableTally(p, config.maxReportedRowsPerTable()));
        }
        List<TablePair> fixed = new ArrayList<>(singles);
        for (MergedTable m : merged) {
            fixed.add(new TablePair(m.shards().get(0).table(), m.target()));
        }
        BinlogPosition at = null;
        List<TableTally> mergedTallies = new ArrayList<>();
        try (Connection src = connect(config.source(), "source");
             Connection tgt = connect(config.target(), "target");
             FixSql fix = config.fixSqlDir() == null ? null : new FixSql(config.fixSqlDir(), fixed);
             ProgressLogger progress = new ProgressLogger(config.task(), "verify", metrics, 10)) {
            List<TablePlan> plans = prepare(src, tgt, tallies, JsonTyping.of(src, tgt));
            metrics.tables(plans.size() + merged.size());
            SnapshotOptions snap = config.snapshot();
            List<KeyRangeChunk> pending = null;
            // Only merged tables: no snapshot to open and no replication to hold for them.
            int rounds = singles.isEmpty() && !merged.isEmpty() ? 0 : snap.rounds();
            for (int round = 1; round <= rounds && (pending == null || !pending.isEmpty()); round++) {
                boolean last = !snap.enabled() || round == snap.rounds();
                TargetHold hold = snap.enabled() ? snap.hold() : null;
                SourceSnapshot snapshot = null;
                try {
                    if (hold != null) {
                        hold.pause(snap.timeout());
                        snapshot = SourceSnapshot.open(config.source(), config.threads());
                        at = snapshot.position;
                        LOG.info("verify: round {} at source position {}; waiting for the target", round, at);
                        hold.holdAt(at, snap.timeout());
                    }
                    Workers w = new Workers(config, tallies, fix, metrics,
                            snapshot == null ? null : snapshot.connections, last);
                    try {
                        if (pending == null) {
                            planAll(src, plans, tallies, w);
                        } else {
                            for (KeyRangeChunk c : pending) {
                                w.submit(c);
                            }
                        }
                        pending = w.finish();
                    } catch (RuntimeException | InterruptedException e) {
                        w.abort();
                        throw e;
                    }
                } finally {
                    if (snapshot != null) {
                        SourceSnapshot.closeAll(snapshot.connections);
                    }
                    if (hold != null) {
                        hold.release();
                    }
                }
                if (!pending.isEmpty()) {
                    LOG.info("verify: {} chunks differ in round {}; comparing them again", pending.size(), round);
                }
            }
            MergeComparer mc = new MergeComparer(config, metrics, fix);
            for (MergedTable m : merged) {
                TableTally t = mc.tally(m);
                mergedTallies.add(t);
                mc.compare(m, t);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FatalException("verify: interrupted", e);
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("verify", e);
        }
        List<VerifyReport.TableResult> results = new ArrayList<>();
        tallies.values().forEach(t -> results.add(t.result()));
        mergedTallies.forEach(t -> results.add(t.result()));
        VerifyReport report = new VerifyReport(results, Duration.ofNanos(System.nanoTime() - start), at);
        LOG.info("{}", report.summaryLine());
        return report;
    }

    /**
     * Test convenience: compares the tables with defaults (4 threads, 10,000-row chunks) and returns
     * the report; callers assert {@link VerifyReport#matches()} and show {@link VerifyReport#renderTable()}.
     */
    public static VerifyReport compare(ConnectionSpec source, ConnectionSpec target, List<TablePair> tables) {
        return new Verifier(VerifyConfig.of(source, target, tables)).run();
    }

    /** Like {@link #compare}, but throws an AssertionError carrying the rendered report unless everything matches. */
    public static VerifyReport assertSame(ConnectionSpec source, ConnectionSpec target, List<TablePair> tables) {
        VerifyReport r = compare(source, target, tables);
        if (!r.matches()) {
            throw new AssertionError("source and target differ:\n" + r.renderTable());
        }
        return r;
    }

    private List<TablePlan> prepare(Connection src, Connection tgt, Map<TablePair, TableTally> tallies,
                                    JsonTyping typing) {
        List<TablePlan> plans = new ArrayList<>();
        for (TableTally t : tallies.values()) {
            try {
                plans.add(TablePlan.prepare(src, tgt, t.pair(), config.tableWhere(), typing));
            } catch (TablePlan.PlanException e) {
                t.fail(e.getMessage());
            } catch (SQLException e) {
                t.fail("cannot read the schema of " + t.pair() + ": " + ErrorClassifier.oneLine(e));
            }
        }
        return plans;
    }

    private void planAll(Connection src, List<TablePlan> plans, Map<TablePair, TableTally> tallies, Workers w)
            throws InterruptedException {
        for (TablePlan p : plans) {
            TableTally tally = tallies.get(p.pair);
            try {
                int n = KeyRangeChunkPlanner.plan(src, p, config.chunkRows(), w::submit);
                tally.planned(n);
                metrics.planned(n);
            } catch (SQLException e) {
                tally.fail("cannot split " + p.pair + " into chunks: " + ErrorClassifier.oneLine(e));
            }
        }
    }

    private static Connection connect(ConnectionSpec spec, String side) {
        try {
            return Workers.open(spec);
        } catch (SQLException e) {
            throw new FatalException("verify: cannot connect to the " + side + " " + spec.address() + ": "
                    + ErrorClassifier.oneLine(e) + "; check the address, user and password", e);
        }
    }
}
