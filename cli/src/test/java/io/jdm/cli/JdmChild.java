package io.jdm.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code jdm} as a child JVM on the test's class path, its output (stdout and stderr) in one file. */
public final class JdmChild {
    private JdmChild() {
    }

    /** Starts {@code jdm ARGS...}. */
    public static Process start(Path out, String... args) throws IOException {
        return start(out, List.of(), args);
    }

    /** Starts {@code jdm ARGS...} in a JVM given {@code jvmOptions} (system properties, heap). */
    public static Process start(Path out, List<String> jvmOptions, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Jdm.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    }
}
