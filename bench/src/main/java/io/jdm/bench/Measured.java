package io.jdm.bench;

import io.jdm.bench.result.Sample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One whole process as a user starts it, measured from outside by GNU time: wall time, CPU (user +
 * system, children included) and peak resident memory, and the CPU the embedded servers spent
 * meanwhile ({@link ServerCpu}; NaN for servers given by address). The figure users get, JVM
 * start, JIT and GC included; an in-JVM loop is only a profiling aid.
 */
record Measured(double wallSeconds, double cpuSeconds, double peakRssMb, double serverCpuSeconds, String output) {
    static final Path TIME = Path.of("/usr/bin/time");

    /** Whether processes can be measured here (GNU time, Debian package {@code time}). */
    static boolean available() {
        return Files.isExecutable(TIME);
    }

    /** Runs {@code cmd} with {@code env} added; fails with the output's tail on a non-zero exit. */
    static Measured run(List<String> cmd, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("jdm-bench-", ".log");
        Path times = Files.createTempFile("jdm-bench-", ".time");
        try {
            List<String> full = new ArrayList<>(List.of(TIME.toString(), "-f", "%e %U %S %M", "-o", times.toString()));
            full.addAll(cmd);
            ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().putAll(env);
            double server0 = ServerCpu.seconds();
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException(Path.of(cmd.get(0)).getFileName() + " did not finish within "
                        + timeout.toSeconds() + "s");
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String tail = out.length() > 600 ? out.substring(out.length() - 600) : out;
                throw new IOException(Path.of(cmd.get(0)).getFileName() + " exited with " + p.exitValue() + ": "
                        + tail.strip().replace('\n', ' '));
            }
            List<String> lines = Files.readAllLines(times, StandardCharsets.UTF_8);
            String[] f = lines.get(lines.size() - 1).trim().split("\\s+");
            return new Measured(Double.parseDouble(f[0]), Double.parseDouble(f[1]) + Double.parseDouble(f[2]),
                    Long.parseLong(f[3]) / 1024.0, ServerCpu.seconds() - server0, out);
        } finally {
            Files.deleteIfExists(log);
            Files.deleteIfExists(times);
        }
    }

    /**
     * This process and {@code next}, run one after the other, as one: wall, CPU and the servers' CPU
     * summed, the larger peak RSS.
     */
    Measured then(Measured next) {
        return new Measured(wallSeconds + next.wallSeconds, cpuSeconds + next.cpuSeconds,
                Math.max(peakRssMb, next.peakRssMb), serverCpuSeconds + next.serverCpuSeconds, output + next.output);
    }

    /** Sample metrics: wall as seconds, throughput from it, CPU, peak RSS and the servers' CPU where known. */
    Map<String, Double> metrics(long rows, long bytes) {
        Map<String, Double> m = new Timed(wallSeconds, rows, bytes).metrics();
        m.put(Sample.CPU_S, cpuSeconds);
        m.put(Sample.RSS_MB, peakRssMb);
        if (!Double.isNaN(serverCpuSeconds)) {
            m.put(Sample.SERVER_CPU_S, serverCpuSeconds);
        }
        return m;
    }
}
