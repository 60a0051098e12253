package io.jdm.bench;

import io.jdm.bench.result.Sample;
import io.jdm.common.jdbc.ConnectionSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What every sweep shares: the file, both servers, a scratch directory and the recorder. */
record BenchEnv(BenchConfig cfg, ConnectionSpec source, ConnectionSpec target, Path work, Recorder rec) {
    /** One sample of one tool: its metrics. */
    interface Op {
        Map<String, Double> run() throws Exception;
    }

    /** One tool of a comparison, at the setting its samples are recorded with. */
    record Tool(String name, Map<String, Long> params, Op op) {
    }

    /** The longest wait for the servers to be quiet before a sample. */
    static final long QUIET_MAX_MILLIS = 60_000;

    /**
     * Warm-up runs of every tool, then the repetitions alternating tool by tool, so a machine that
     * gets slower or faster during the run shifts every tool alike; each repetition is recorded as a
     * sample of {@code sweep} at {@code params}. Every run starts once the servers are quiet
     * ({@link ServerCpu#awaitQuiet}), not while they still work off the run before.
     */
    void alternate(String sweep, Map<String, Long> params, Map<String, Op> tools) throws Exception {
        List<Tool> each = new ArrayList<>();
        tools.forEach((name, op) -> each.add(new Tool(name, params, op)));
        alternate(sweep, each);
    }

    /** As {@link #alternate(String, Map, Map)}, each tool recorded at its own setting. */
    void alternate(String sweep, List<Tool> tools) throws Exception {
        for (int i = 0; i < cfg.warmUpRuns(); i++) {
            for (Tool t : tools) {
                ServerCpu.awaitQuiet(QUIET_MAX_MILLIS);
                t.op().run();
            }
        }
        for (int rep = 1; rep <= cfg.repetitions(); rep++) {
            for (Tool t : tools) {
                ServerCpu.awaitQuiet(QUIET_MAX_MILLIS);
                rec.sample(new Sample(sweep, t.name(), null, t.params(), rep, t.op().run()));
            }
        }
    }
}
