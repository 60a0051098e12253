package io.jdm.bench;

import io.jdm.bench.BenchConfig.DumpSweep;
import io.jdm.bench.BenchConfig.LoadSweep;
import io.jdm.bench.BenchConfig.RunSweep;
import io.jdm.bench.BenchConfig.SyncSweep;
import io.jdm.bench.BenchConfig.VerifySweep;
import io.jdm.bench.BenchConfig.WorkloadKind;
import io.jdm.bench.workload.KeyDistribution;
import io.jdm.bench.workload.Mix;
import io.jdm.bench.workload.Payload;
import io.jdm.common.config.DatabaseReader;
import io.jdm.common.config.LoaderConfig;
import io.jdm.common.config.MydumperConfig;
import io.jdm.common.config.Section;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.config.UnitReaders;
import io.jdm.common.config.ValidatorConfig;
import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A bench file's root mapping → {@link BenchConfig}, read with the task file's {@link Section}.
 * The source and target are read as the task file's {@code target-database}, and every swept
 * task-file key ({@code threads}, {@code pool-size}, {@code worker-count}, …) by the task file's
 * own reader of its unit, one value at a time: the same names, types, defaults, limits and
 * messages. Only the bench's own keys are read here.
 */
final class BenchConfigParser {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern DATABASE = Pattern.compile("[A-Za-z0-9_]+");
    private static final Pattern EMBEDDED = Pattern.compile("embedded");
    private static final String MIXES = "must be oltp_insert, oltp_write_only or oltp_read_write, got ";
    /** The dump sweep's rows per chunk: 10,000, so the bench's small tables are dumped in several chunks. */
    private static final long DUMP_ROWS = 10_000;
    private static final int ROWS_PER_STATEMENT = 1000;
    private static final int VERIFY_THREADS = 4;
    private static final long VERIFY_CHUNK_ROWS = 50_000;

    private BenchConfigParser() {
    }

    /** The bench file's content; null once a problem is recorded that leaves nothing to build. */
    static BenchConfig read(Section root, Path base) {
        String name = root.matching("name", NAME, "be letters, digits, _ and - only", "bench");
        Optional<Section> ds = root.section("dataset");
        int tables = ds.map(d -> d.integer("tables", 4, 1, 10_000)).orElse(4);
        long rows = ds.map(d -> d.longInteger("rows-per-table", 10_000, 1, 100_000_000)).orElse(10_000L);
        String db = ds.map(d -> d.matching("database", DATABASE, "be letters, digits and _ only", "jdm_bench"))
                .orElse("jdm_bench");
        Payload payload = ds.flatMap(d -> d.section("payload")).map(BenchConfigParser::payload).orElse(Payload.NONE);
        Map<String, String> charsets = new LinkedHashMap<>();
        Payload.CHARSETS.forEach(c -> charsets.put(c, c));
        payload = payload.withCharset(ds.map(d -> d.choice("charset", "utf8mb4", charsets)).orElse("utf8mb4"));
        ds.ifPresent(Section::finish);
        ConnectionSpec source = server(root, "source");
        ConnectionSpec target = server(root, "target");
        WorkloadKind workload = root.choice("workload", WorkloadKind.BUILTIN, Section.names(WorkloadKind.values()));
        KeyDistribution keys = root.choice("key-distribution", KeyDistribution.UNIFORM,
                Section.names(KeyDistribution.values()));
        int threads = root.integer("workload-threads", 4, 1, 256);
        int warmRuns = root.integer("warm-up-runs", 1, 0, 10);
        Duration warmUp = root.duration("warm-up", Duration.ofSeconds(2));
        Duration duration = root.duration("duration", Duration.ofSeconds(10));
        if (duration.isZero()) {
            root.problem("duration", "must be more than 0, got " + root.shown("duration"));
        }
        int reps = root.integer("repetitions", 3, 1, 100);
        boolean peers = root.bool("peers", true);
        Optional<Section> sweeps = root.section("sweeps");
        DumpSweep dump = sweeps.flatMap(s -> s.section("dump")).map(BenchConfigParser::dump).orElse(null);
        LoadSweep load = sweeps.flatMap(s -> s.section("load")).map(BenchConfigParser::load).orElse(null);
        SyncSweep sync = sweeps.flatMap(s -> s.section("sync")).map(BenchConfigParser::sync).orElse(null);
        VerifySweep verify = sweeps.flatMap(s -> s.section("verify")).map(BenchConfigParser::verify).orElse(null);
        RunSweep run = sweeps.flatMap(s -> s.section("run")).map(BenchConfigParser::run).orElse(null);
        sweeps.ifPresent(Section::finish);
        Path out = Path.of(root.text("output").orElse("bench-" + name));
        if (!out.isAbsolute() && base != null) {
            out = base.resolve(out);
        }
        BenchConfig.Runner runner = root.choice("runner", BenchConfig.Runner.PROCESS, Section.names(BenchConfig.Runner.values()));
        Duration targetDelay = root.duration("target-delay", Duration.ZERO);
        if (targetDelay.compareTo(Duration.ofSeconds(1)) > 0) {
            root.problem("target-delay", "must be at most 1s (held each way), got " + root.shown("target-delay"));
        }
        root.finish();
        if (dump == null && load == null && sync == null && verify == null && run == null) {
            root.problem("sweeps", "must name at least one of dump, load, run, sync, verify");
            return null;
        }
        return new BenchConfig(name, db, tables, rows, payload, source, target, workload, keys, threads, warmRuns, warmUp,
                duration, reps, peers, dump, load, sync, verify, run, out, runner, targetDelay);
    }

    /** {@code payload: {min-bytes, max-bytes}}: a TEXT and a BLOB column, together this wide a row. */
    private static Payload payload(Section s) {
        int min = s.integer("min-bytes", 4096, 2, 1 << 20);
        int max = s.integer("max-bytes", 16_384, 2, 1 << 20);
        if (max < min) {
            s.problem("max-bytes", "must be at least min-bytes (" + min + "), got " + max);
        }
        s.finish();
        return new Payload(min, Math.max(min, max));
    }

    private static DumpSweep dump(Section s) {
        MydumperConfig d = MydumperConfig.defaults("bench");
        var c = new DumpSweep(swept(s, "threads", e -> mydumper(e).threads(), d.threads()),
                swept(s, "rows", e -> mydumper(e).rows(), DUMP_ROWS),
                swept(s, "statement-size", e -> mydumper(e).statementSize(), d.statementSize()));
        s.finish();
        return c;
    }

    private static LoadSweep load(Section s) {
        var c = new LoadSweep(swept(s, "pool-size", e -> UnitReaders.loader(e, Optional.empty()).poolSize(),
                LoaderConfig.defaults().poolSize()),
                swept(s, "rows-per-statement", e -> e.integer("rows-per-statement", ROWS_PER_STATEMENT, 1, 1_000_000),
                        ROWS_PER_STATEMENT));
        s.finish();
        return c;
    }

    /** The whole flow: the dump's keys with the task file's defaults (not the dump sweep's), and the load's pool size. */
    private static RunSweep run(Section s) {
        MydumperConfig d = MydumperConfig.defaults("bench");
        var c = new RunSweep(swept(s, "threads", e -> mydumper(e).threads(), d.threads()),
                swept(s, "rows", e -> mydumper(e).rows(), d.rows()),
                swept(s, "statement-size", e -> mydumper(e).statementSize(), d.statementSize()),
                swept(s, "pool-size", e -> UnitReaders.loader(e, Optional.empty()).poolSize(),
                        LoaderConfig.defaults().poolSize()),
                swept(s, "defer-indexes", e -> UnitReaders.loader(e, Optional.empty()).deferIndexes(),
                        LoaderConfig.defaults().deferIndexes()));
        s.finish();
        return c;
    }

    private static SyncSweep sync(Section s) {
        SyncerConfig d = SyncerConfig.defaults();
        var c = new SyncSweep(swept(s, "worker-count", e -> UnitReaders.syncer(e).workerCount(), d.workerCount()),
                swept(s, "batch", e -> UnitReaders.syncer(e).batch(), d.batch()),
                swept(s, "mixes", BenchConfigParser::mix, Mix.OLTP_WRITE_ONLY),
                s.choice("mode", BenchConfig.SyncMode.BACKLOG, Section.names(BenchConfig.SyncMode.values())),
                swept(s, "validation", e -> e.choice("validation", ValidatorConfig.Mode.NONE,
                        Section.names(ValidatorConfig.Mode.values())), ValidatorConfig.Mode.NONE));
        s.finish();
        return c;
    }

    /**
     * {@code jdm verify} takes these as options, not task-file keys: read here with its defaults
     * (4 threads, 50,000-row chunks) and the limits VerifyConfig checks.
     */
    private static VerifySweep verify(Section s) {
        var c = new VerifySweep(
                swept(s, "threads", e -> e.integer("threads", VERIFY_THREADS, 1, 256), VERIFY_THREADS),
                swept(s, "chunk-rows", e -> e.longInteger("chunk-rows", VERIFY_CHUNK_ROWS, 1, 100_000_000),
                        VERIFY_CHUNK_ROWS));
        s.finish();
        return c;
    }

    private static MydumperConfig mydumper(Section e) {
        return UnitReaders.mydumper(e, "bench");
    }

    /** The values a sweep names for {@code key}, each read by {@code read}; {@code def} alone when it names none. */
    private static <T> List<T> swept(Section s, String key, Function<Section, T> read, T def) {
        List<T> values = s.each(key, read);
        return values.isEmpty() ? List.of(def) : List.copyOf(values);
    }

    private static Mix mix(Section e) {
        String v = e.text("mixes").orElse("");
        try {
            return Mix.parse(v);
        } catch (IllegalArgumentException ex) {
            e.problem("mixes", MIXES + e.shown("mixes"));
            return Mix.OLTP_WRITE_ONLY;
        }
    }

    /** {@code embedded} (or absent): null, the run starts one; a mapping: read as the task file's target-database. */
    private static ConnectionSpec server(Section root, String key) {
        if (root.isMapping(key)) {
            return root.section(key).map(s -> DatabaseReader.read(s).toConnectionSpec()).orElse(null);
        }
        root.matching(key, EMBEDDED, "be embedded or a mapping of host, port, user and password", "embedded");
        return null;
    }
}
