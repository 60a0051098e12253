package io.jdm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.bench.result.Sample;
import io.jdm.common.config.SyncerConfig;
import io.jdm.common.config.ValidatorConfig;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.embedded.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code jdm sync} as a user runs it: a whole process started by the launcher on a task file with
 * only the sweep's keys (batch only when it is not the default) and the start position in {@code meta}, its meta schema dropped before and
 * after. Caught up when its {@code /status} says synced (the source is quiet in backlog mode, so
 * that is the backlog's end); CPU and peak RSS of the whole process are read from GNU time once it
 * has stopped (SIGTERM, as a user stops it).
 */
final class JdmProcessReplicator implements Replicator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ConnectionSpec source;
    private final ConnectionSpec target;
    private final String db;
    private final String task;
    private ValidatorConfig.Mode validation = ValidatorConfig.Mode.NONE;
    private final int workers;
    private final int batch;
    private final String metaSchema;
    private final Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private Path times;
    private Path log;
    private String address;
    private long totalEvents;
    private long startNanos;
    /** Rows applied when the first poll at or after 10 s from the start saw them; -1 before that. */
    private long first10sEvents = -1;
    private double first10sSeconds;

    JdmProcessReplicator(ConnectionSpec source, ConnectionSpec target, String db, String task, int workers, int batch,
                         String metaSchema, Path dir) {
        this.source = source;
        this.target = target;
        this.db = db;
        this.task = task;
        this.workers = workers;
        this.batch = batch;
        this.metaSchema = metaSchema;
        this.dir = dir;
    }

    /** Samples the sync with continuous validation in this mode (the task file gets DM's {@code validators:}). */
    JdmProcessReplicator validation(ValidatorConfig.Mode mode) {
        this.validation = mode;
        return this;
    }

    @Override
    public void start(BinlogPosition from) throws Exception {
        dropMeta();
        address = "127.0.0.1:" + FreePorts.find();
        List<String> meta = new ArrayList<>(List.of("binlog-name: \"" + from.file() + "\"", "binlog-pos: " + from.pos()));
        if (from.hasGtid()) {
            meta.add("binlog-gtid: \"" + from.gtidSet() + "\"");
        }
        List<String> lines = new ArrayList<>(List.of(
                "name: " + task,
                "task-mode: incremental",
                "meta-schema: " + metaSchema,
                "status-addr: \"" + address + "\"",
                "target-database: " + JdmProcess.server(target, "JDM_BENCH_TARGET_PASSWORD"),
                "block-allow-list: {only: {do-dbs: [\"" + db + "\"]}}",
                "syncers: {global: {worker-count: " + workers
                        + (batch == SyncerConfig.DEFAULT_BATCH ? "" : ", batch: " + batch) + "}}"));
        if (validation != ValidatorConfig.Mode.NONE) {
            lines.add("validators: {global: {mode: " + validation.yamlName() + "}}");
        }
        lines.addAll(List.of(
                "mysql-instances:",
                "  - source-id: bench",
                "    block-allow-list: only",
                "    meta: {" + String.join(", ", meta) + "}",
                "    from: " + JdmProcess.server(source, "JDM_BENCH_SOURCE_PASSWORD")));
        if (validation != ValidatorConfig.Mode.NONE) {
            lines.add("    validator-config-name: global");
        }
        Path taskFile = JdmProcess.taskFile(dir, task + ".yaml", lines);
        times = Files.createTempFile(dir, task, ".time");
        log = Files.createTempFile(dir, task, ".log");
        ProcessBuilder pb = new ProcessBuilder(Measured.TIME.toString(), "-f", "%e %U %S %M", "-o", times.toString(),
                JdmProcess.launcher().toString(), "sync", taskFile.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JDM_BENCH_SOURCE_PASSWORD", source.password());
        pb.environment().put("JDM_BENCH_TARGET_PASSWORD", target.password());
        process = pb.start();
        startNanos = System.nanoTime();
    }

    @Override
    public boolean caughtUp(BinlogPosition end, long waitMillis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        do {
            if (!process.isAlive()) {
                throw new IllegalStateException("jdm sync exited with " + process.exitValue() + ": " + tail());
            }
            JsonNode status = status();
            if (status != null) {
                List<JsonNode> synced = status.findValues("synced");
                totalEvents = status.findValues("totalEvents").stream().mapToLong(n -> n.asLong()).sum();
                double elapsed = Timed.since(startNanos);
                if (first10sEvents < 0 && elapsed >= 10) {
                    first10sEvents = totalEvents;
                    first10sSeconds = elapsed;
                }
                if (!synced.isEmpty() && synced.stream().allMatch(JsonNode::asBoolean)) {
                    return true;
                }
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return false;
    }

    /** {@code /status} of the process, or null while it does not answer yet. */
    private JsonNode status() throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + address + "/status"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public Map<String, Double> extra(double seconds) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(Sample.EVENTS_PER_S, totalEvents / seconds);
        m.put(Sample.FIRST_10S_ROWS_PER_S,
                first10sEvents < 0 ? totalEvents / seconds : first10sEvents / first10sSeconds);
        return m;
    }

    @Override
    public Map<String, Double> afterClose() throws IOException {
        Map<String, Double> m = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(times, StandardCharsets.UTF_8);
        if (!lines.isEmpty()) {
            String[] f = lines.get(lines.size() - 1).trim().split("\\s+");
            if (f.length == 4) {
                m.put(Sample.CPU_S, Double.parseDouble(f[1]) + Double.parseDouble(f[2]));
                m.put(Sample.RSS_MB, Long.parseLong(f[3]) / 1024.0);
            }
        }
        return m;
    }

    @Override
    public void close() throws Exception {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroy); // SIGTERM to jdm: drain and stop
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException("jdm sync did not stop within 90s: " + tail());
            }
            process = null;
        }
        dropMeta();
        Files.deleteIfExists(log);
    }

    private String tail() throws IOException {
        String out = Files.readString(log, StandardCharsets.UTF_8);
        return (out.length() > 600 ? out.substring(out.length() - 600) : out).strip().replace('\n', ' ');
    }

    private void dropMeta() throws Exception {
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + Identifiers.quote(metaSchema));
        }
    }
}
