package io.jdm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.jdm.bench.BenchConfig.DumpSweep;
import io.jdm.bench.BenchConfig.LoadSweep;
import io.jdm.bench.BenchConfig.SyncSweep;
import io.jdm.bench.BenchConfig.WorkloadKind;
import io.jdm.bench.workload.KeyDistribution;
import io.jdm.bench.workload.Mix;
import io.jdm.common.config.LoaderConfig;
import io.jdm.common.config.MydumperConfig;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * YAML tree → {@link BenchConfig}; unknown keys and bad values fail with the key's path in the message.
 * A swept task-file key has the task file's limits, and its default where the sweep names no values.
 */
final class BenchConfigParser {
    private static final Set<String> TOP = Set.of("name", "dataset", "source", "target", "workload",
            "key-distribution", "workload-threads", "warm-up-runs", "warm-up", "duration", "repetitions", "peers",
            "sweeps", "output", "runner");
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)?");

    private BenchConfigParser() {
    }

    static BenchConfig parse(JsonNode root, Path base) {
        if (root == null || !root.isObject()) {
            throw fail("(root)", root, "must be a mapping of keys");
        }
        known(root, "", TOP);
        String name = text(root, "name", "bench");
        if (!name.matches("[A-Za-z0-9_-]+")) {
            throw fail("name", name, "letters, digits, _ and - only");
        }
        JsonNode ds = root.path("dataset");
        known(ds, "dataset.", Set.of("tables", "rows-per-table", "database"));
        int tables = (int) number(ds, "dataset.tables", "tables", 4, 1, 64);
        long rows = number(ds, "dataset.rows-per-table", "rows-per-table", 10_000, 1, 100_000_000);
        String db = text(ds, "database", "jdm_bench");
        if (!db.matches("[A-Za-z0-9_]+")) {
            throw fail("dataset.database", db, "letters, digits and _ only");
        }
        ConnectionSpec source = server(root.get("source"), "source");
        ConnectionSpec target = server(root.get("target"), "target");
        WorkloadKind workload = choice(root, "workload", "builtin", WorkloadKind::valueOf, "builtin or sysbench");
        KeyDistribution keys = choice(root, "key-distribution", "uniform", KeyDistribution::valueOf,
                "uniform or zipfian");
        int threads = (int) number(root, "workload-threads", "workload-threads", 4, 1, 256);
        int warmRuns = (int) number(root, "warm-up-runs", "warm-up-runs", 1, 0, 10);
        Duration warmUp = duration(root, "warm-up", "2s", false);
        Duration duration = duration(root, "duration", "10s", true);
        int reps = (int) number(root, "repetitions", "repetitions", 3, 1, 100);
        boolean peers = !root.has("peers") || bool(root.get("peers"), "peers");
        JsonNode sweeps = root.path("sweeps");
        if (!sweeps.isObject()) {
            throw fail("sweeps", sweeps.isMissingNode() ? null : sweeps, "must name at least one of dump, load, sync");
        }
        known(sweeps, "sweeps.", Set.of("dump", "load", "sync"));
        DumpSweep dump = sweeps.has("dump") ? dump(sweeps.get("dump")) : null;
        LoadSweep load = sweeps.has("load") ? load(sweeps.get("load")) : null;
        SyncSweep sync = sweeps.has("sync") ? sync(sweeps.get("sync")) : null;
        Path out = Path.of(text(root, "output", "bench-" + name));
        if (!out.isAbsolute() && base != null) {
            out = base.resolve(out);
        }
        BenchConfig.Runner runner = choice(root, "runner", "process", v -> BenchConfig.Runner.valueOf(v),
                "process or in-jvm");
        return new BenchConfig(name, db, tables, rows, source, target, workload, keys, threads, warmRuns, warmUp,
                duration, reps, peers, dump, load, sync, out, runner);
    }

    private static DumpSweep dump(JsonNode n) {
        known(n, "sweeps.dump.", Set.of("threads", "rows", "statement-size"));
        // rows: chunks of 10,000 rows, so the bench's small tables are dumped in several chunks
        return new DumpSweep(ints(n, "sweeps.dump.threads", List.of(MydumperConfig.DEFAULT_THREADS), 1,
                        MydumperConfig.MAX_THREADS),
                longs(n, "sweeps.dump.rows", List.of(10_000L), 0, MydumperConfig.MAX_ROWS),
                longs(n, "sweeps.dump.statement-size", List.of(MydumperConfig.DEFAULT_STATEMENT_SIZE), 1,
                        MydumperConfig.MAX_STATEMENT_SIZE));
    }

    private static LoadSweep load(JsonNode n) {
        known(n, "sweeps.load.", Set.of("pool-size", "rows-per-statement"));
        return new LoadSweep(ints(n, "sweeps.load.pool-size", List.of(LoaderConfig.DEFAULT_POOL_SIZE), 1,
                LoaderConfig.MAX_POOL_SIZE),
                ints(n, "sweeps.load.rows-per-statement", List.of(1000), 1, 1_000_000));
    }

    private static SyncSweep sync(JsonNode n) {
        known(n, "sweeps.sync.", Set.of("worker-count", "batch", "mixes", "mode"));
        List<Mix> mixes = new ArrayList<>();
        JsonNode m = n.get("mixes");
        if (m == null) {
            mixes.add(Mix.OLTP_WRITE_ONLY);
        } else {
            List<JsonNode> items = list(m, "sweeps.sync.mixes");
            for (int i = 0; i < items.size(); i++) {
                String s = items.get(i).asText();
                try {
                    mixes.add(Mix.parse(s));
                } catch (IllegalArgumentException e) {
                    throw fail("sweeps.sync.mixes[" + i + "]", s, "must be oltp_insert, oltp_write_only or "
                            + "oltp_read_write");
                }
            }
        }
        BenchConfig.SyncMode mode = choice(n, "mode", "backlog", BenchConfig.SyncMode::valueOf, "backlog or live",
                "sweeps.sync.mode");
        return new SyncSweep(ints(n, "sweeps.sync.worker-count", List.of(SyncerConfig.DEFAULT_WORKER_COUNT), 1,
                        SyncerConfig.MAX_WORKER_COUNT),
                ints(n, "sweeps.sync.batch", List.of(SyncerConfig.DEFAULT_BATCH), 1, SyncerConfig.MAX_BATCH),
                List.copyOf(mixes), mode);
    }

    private static ConnectionSpec server(JsonNode n, String key) {
        if (n == null || n.isNull() || (n.isTextual() && n.asText().equals("embedded"))) {
            return null;
        }
        if (!n.isObject()) {
            throw fail(key, n, "must be 'embedded' or a mapping with host, port, user, password");
        }
        known(n, key + ".", Set.of("host", "port", "user", "password"));
        if (!n.has("host")) {
            throw fail(key + ".host", null, "is required when " + key + " is not 'embedded'");
        }
        String password = text(n, "password", "");
        if (!n.path("port").isMissingNode() && !n.path("port").canConvertToInt()) {
            throw fail(key + ".port", n.get("port"), "must be 1..65535");
        }
        int port = (int) number(n, key + ".port", "port", 3306, 1, 65_535);
        String user = text(n, "user", "root");
        if (user.isEmpty()) {
            throw fail(key + ".user", null, "must not be empty");
        }
        return ConnectionSpec.of(text(n, "host", ""), port, user, password);
    }

    private static void known(JsonNode n, String prefix, Set<String> keys) {
        if (n == null || n.isMissingNode()) {
            return;
        }
        if (!n.isObject()) {
            throw fail(prefix.isEmpty() ? "(root)" : prefix.substring(0, prefix.length() - 1), n, "must be a mapping");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!keys.contains(k)) {
                throw fail(prefix + k, null, "unknown key; known here: " + String.join(", ", keys.stream().sorted()
                        .toList()));
            }
        }
    }

    private static String text(JsonNode n, String key, String dflt) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? dflt : v.asText();
    }

    private static long number(JsonNode n, String path, String key, long dflt, long min, long max) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            return dflt;
        }
        return checkedLong(v, path, min, max);
    }

    private static long checkedLong(JsonNode v, String path, long min, long max) {
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw fail(path, v, "must be an integer " + min + ".." + max);
        }
        return v.asLong();
    }

    private static boolean bool(JsonNode v, String path) {
        if (!v.isBoolean()) {
            throw fail(path, v, "must be true or false");
        }
        return v.asBoolean();
    }

    private static <E> E choice(JsonNode n, String key, String dflt, Function<String, E> parse, String rule) {
        return choice(n, key, dflt, parse, rule, key);
    }

    private static <E> E choice(JsonNode n, String key, String dflt, Function<String, E> parse, String rule,
                                String path) {
        String s = text(n, key, dflt);
        try {
            return parse.apply(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw fail(path, s, "must be " + rule);
        }
    }

    private static Duration duration(JsonNode n, String key, String dflt, boolean positive) {
        String s = n.has(key) ? n.get(key).asText() : dflt;
        Matcher m = DURATION.matcher(s.trim());
        if (!m.matches()) {
            throw fail(key, s, "must be a duration like 500ms, 10s or 2m");
        }
        long v = Long.parseLong(m.group(1));
        Duration d = m.group(2) == null || m.group(2).equals("s") ? Duration.ofSeconds(v)
                : m.group(2).equals("ms") ? Duration.ofMillis(v) : Duration.ofMinutes(v);
        if (positive && d.isZero()) {
            throw fail(key, s, "must be > 0");
        }
        return d;
    }

    private static List<JsonNode> list(JsonNode v, String path) {
        List<JsonNode> out = new ArrayList<>();
        if (v.isArray()) {
            v.forEach(out::add);
        } else {
            out.add(v);
        }
        if (out.isEmpty()) {
            throw fail(path, v, "must list at least one value");
        }
        return out;
    }

    private static List<Integer> ints(JsonNode n, String path, List<Integer> dflt, int min, int max) {
        return longs(n, path, dflt.stream().map(Integer::longValue).toList(), min, max).stream()
                .map(Long::intValue).toList();
    }

    private static List<Long> longs(JsonNode n, String path, List<Long> dflt, long min, long max) {
        JsonNode v = n.get(path.substring(path.lastIndexOf('.') + 1));
        if (v == null || v.isNull()) {
            return dflt;
        }
        List<JsonNode> items = list(v, path);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            out.add(checkedLong(items.get(i), path + "[" + i + "]", min, max));
        }
        return List.copyOf(out);
    }

    private static IllegalArgumentException fail(String path, Object value, String rule) {
        return new IllegalArgumentException(path + ": " + rule + (value == null ? "" : ", got " + value));
    }
}
