package io.jdm.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code jdm} as a child JVM on the test's class path, its output (stdout and stderr) in one file.
 *
 * <p>A child runs with the collector the {@code jdm} launcher chooses (the serial one, its survivor
 * spaces at a quarter of the young generation each), so a test of memory bounds measures what a user
 * runs: on a machine the JVM counts as a server its own choice would be G1, which cannot move the
 * multi-MiB arrays of large rows on a small heap and runs out of memory with half of it free.
 *
 * <p>A child compiles with C1 only: it lives seconds and moves a few rows, and C2's compiler threads
 * would take the cores the test's servers need. A start (JVM, picocli, the task file, the DDL
 * grammar) costs about 40% less CPU so; a caller's {@code jvmOptions} come after and can undo it.
 */
public final class JdmChild {
    static final List<String> LAUNCHER_OPTIONS =
            List.of("-XX:+UseSerialGC", "-XX:SurvivorRatio=2", "-XX:TieredStopAtLevel=1");

    private JdmChild() {
    }

    /** Starts {@code jdm ARGS...}. */
    public static Process start(Path out, String... args) throws IOException {
        return start(out, List.of(), args);
    }

    /** Starts {@code jdm ARGS...} in a JVM given {@code jvmOptions} (system properties, heap). */
    public static Process start(Path out, List<String> jvmOptions, String... args) throws IOException {
        return start(out, jvmOptions, Map.of(), args);
    }

    /** As {@link #start(Path, List, String...)}, with {@code env} added to the child's environment. */
    public static Process start(Path out, List<String> jvmOptions, Map<String, String> env, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(LAUNCHER_OPTIONS);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Jdm.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().putAll(env);
        return pb.start();
    }
}
