package io.jdm.bench;

import io.jdm.common.config.ValidatorConfig;
import io.jdm.bench.workload.KeyDistribution;
import io.jdm.bench.workload.Mix;
import io.jdm.bench.workload.Payload;
import io.jdm.common.config.ConfigException;
import io.jdm.common.config.DeferIndexes;
import io.jdm.common.config.LoaderConfig;
import io.jdm.common.config.Section;
import io.jdm.common.jdbc.ConnectionSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A benchmark file ({@code jdm bench BENCH.yaml}), validated once, by the task file's rules where it
 * names the task file's keys. Every message names the YAML key, the value and the rule:
 * {@code sweeps.sync.worker-count[1]: must be 1..1024, got 2000}.
 *
 * @param payload wide-row columns added to every table ({@link Payload#NONE}: sysbench's shape)
 * @param source null means an embedded MariaDB source (ROW binlog, GTID) started by the run
 * @param target null means an embedded MariaDB target
 * @param warmUpRuns untimed runs before each dump/load setting
 * @param warmUp workload time before each live sync sample's measured {@code duration}
 * @param duration workload time per live sync sample; in backlog mode, how long each mix writes its backlog
 * @param peers run the peer tools found on PATH and native replication in the same run
 * @param runner how jdm's dump, load, verify and backlog sync samples run: each a whole jdm process
 *        started by the launcher as a user starts it (the figure), or units inside this JVM (a
 *        profiling aid only, and the report's title says so)
 * @param targetDelay held each way between every tool and the target (a {@link LatencyProxy}), for a
 *        target across a network; zero: none
 */
public record BenchConfig(String name, String database, int tables, long rowsPerTable, Payload payload,
                          ConnectionSpec source,
                          ConnectionSpec target, WorkloadKind workload, KeyDistribution keys, int workloadThreads,
                          int warmUpRuns, Duration warmUp, Duration duration, int repetitions, boolean peers,
                          DumpSweep dump, LoadSweep load, SyncSweep sync, VerifySweep verify, RunSweep run,
                          Path output, Runner runner, Duration targetDelay) {

    /** How jdm's samples run. */
    public enum Runner { PROCESS, IN_JVM }

    /** Where the write workload comes from. */
    public enum WorkloadKind { BUILTIN, SYSBENCH }

    /** dump: threads × rows per chunk × statement size (bytes). */
    public record DumpSweep(List<Integer> threads, List<Long> rows, List<Long> statementSize) {
    }

    /** load: pool size × rows per INSERT statement in the dump it loads. */
    public record LoadSweep(List<Integer> poolSize, List<Integer> rowsPerStatement) {
    }

    /**
     * run: the whole migration, {@code jdm run} task-mode full (the load overlapping the dump) against
     * mydumper then myloader, at threads × rows × statement-size × pool-size; jdm also at each
     * {@code defer-indexes} (the peers once, they have no such setting).
     */
    public record RunSweep(List<Integer> threads, List<Long> rows, List<Long> statementSize, List<Integer> poolSize,
                           List<DeferIndexes> deferIndexes) {
        /** As the sweep that names no {@code defer-indexes}: the task file's default, not written in it. */
        public RunSweep(List<Integer> threads, List<Long> rows, List<Long> statementSize, List<Integer> poolSize) {
            this(threads, rows, statementSize, poolSize, List.of(LoaderConfig.defaults().deferIndexes()));
        }

        /** Whether the file names {@code defer-indexes}: then jdm's task files and samples say which. */
        public boolean deferIndexesSwept() {
            return !deferIndexes.equals(List.of(LoaderConfig.defaults().deferIndexes()));
        }
    }

    /** verify: {@code jdm verify}'s {@code --threads} × {@code --chunk-rows}. */
    public record VerifySweep(List<Integer> threads, List<Long> chunkRows) {
    }

    /**
     * How a sync sample gets its changes. BACKLOG: the workload writes first with nothing
     * replicating, then each replicator catches up from the same position, so rows/s is the
     * replicator's own rate. LIVE: workload and replicator run together and lag is sampled, so
     * rows/s is capped by the workload.
     */
    public enum SyncMode { BACKLOG, LIVE }

    /** sync: worker count × batch, under each mix, in one mode. */
    /**
     * @param validation the continuous validation modes jdm's sync is sampled with (DM's {@code validators:}
     *     {@code mode}); {@code none} alone by default
     */
    public record SyncSweep(List<Integer> workerCount, List<Integer> batch, List<Mix> mixes, SyncMode mode,
                            List<ValidatorConfig.Mode> validation) {
        public SyncSweep {
            Objects.requireNonNull(mode, "mode");
            validation = validation == null || validation.isEmpty() ? List.of(ValidatorConfig.Mode.NONE)
                    : List.copyOf(validation);
        }

        public SyncSweep(List<Integer> workerCount, List<Integer> batch, List<Mix> mixes, SyncMode mode) {
            this(workerCount, batch, mixes, mode, null);
        }
    }

    public BenchConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(runner, "runner");
        if (dump == null && load == null && sync == null && verify == null && run == null) {
            throw new IllegalArgumentException("sweeps: name at least one of dump, load, run, sync, verify");
        }
    }

    public static BenchConfig load(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no such file");
        }
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toAbsolutePath().getParent(),
                file.getFileName().toString());
    }

    public static BenchConfig parse(String yaml, Path base) {
        return parse(yaml, base, "<string>");
    }

    /**
     * Reads as the task file is read ({@link Section#read}); every problem found is one line of the
     * exception's message.
     */
    private static BenchConfig parse(String yaml, Path base, String sourceName) {
        try {
            return Section.read(yaml, base, sourceName, root -> BenchConfigParser.read(root, base));
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    public BenchConfig withOutput(Path dir) {
        return new BenchConfig(name, database, tables, rowsPerTable, payload, source, target, workload, keys, workloadThreads,
                warmUpRuns, warmUp, duration, repetitions, peers, dump, load, sync, verify, run, dir, runner, targetDelay);
    }

    public BenchConfig withServers(ConnectionSpec src, ConnectionSpec tgt) {
        return new BenchConfig(name, database, tables, rowsPerTable, payload, src, tgt, workload, keys, workloadThreads,
                warmUpRuns, warmUp, duration, repetitions, peers, dump, load, sync, verify, run, output, runner, targetDelay);
    }

    public BenchConfig withPeers(boolean on) {
        return new BenchConfig(name, database, tables, rowsPerTable, payload, source, target, workload, keys, workloadThreads,
                warmUpRuns, warmUp, duration, repetitions, on, dump, load, sync, verify, run, output, runner, targetDelay);
    }

    @Override
    public String toString() {
        return "BenchConfig[name=" + name + " database=" + database + " tables=" + tables + " rows-per-table="
                + rowsPerTable + " source=" + (source == null ? "embedded" : source) + " target="
                + (target == null ? "embedded" : target) + " workload=" + workload + " repetitions=" + repetitions
                + " duration=" + duration + "]";
    }
}
