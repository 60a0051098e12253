package io.jdm.bench;

import io.jdm.common.jdbc.ConnectionSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code jdm} command as a user runs it: the launcher the README starts ({@code ./jdm}, with its
 * JVM options and the user's {@code JDM_JAVA_OPTS}), given a task file that holds only the keys a
 * user writes. Passwords go through the environment, never into the file.
 */
final class JdmProcess {
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private JdmProcess() {
    }

    /** The launcher: {@code JDM_LAUNCHER}, which {@code ./jdm} sets for the processes it starts. */
    static Path launcher() {
        String l = System.getenv("JDM_LAUNCHER");
        if (l == null || !Files.isExecutable(Path.of(l))) {
            throw new IllegalStateException("bench: runner process needs the jdm launcher: start the bench with "
                    + "./jdm bench (or set runner: in-jvm for an in-process profiling run)");
        }
        return Path.of(l);
    }

    /** Runs {@code jdm <command> <task file> [options]} measured. */
    static Measured run(String command, Path task, ConnectionSpec source, ConnectionSpec target, String... options)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(launcher().toString(), command, task.toString()));
        cmd.addAll(List.of(options));
        return Measured.run(cmd,
                Map.of("JDM_BENCH_SOURCE_PASSWORD", source.password(), "JDM_BENCH_TARGET_PASSWORD",
                        target.password()), TIMEOUT);
    }

    /** A connection mapping for a task file, its password from the environment. */
    static String server(ConnectionSpec s, String passwordVar) {
        return "{host: \"" + s.host() + "\", port: " + s.port() + ", user: \"" + s.user() + "\", password: \"${"
                + passwordVar + ":-}\"}";
    }

    /**
     * The lines of a task file (task-mode full) that copies the bench's database into
     * {@code targetDb}, with {@code keys} (its units' sections, a status address) among them.
     */
    static List<String> copyTask(BenchEnv env, String name, String metaSchema, String targetDb, List<String> keys) {
        String db = env.cfg().database();
        List<String> lines = new ArrayList<>(List.of(
                "name: " + name,
                "task-mode: full",
                "meta-schema: " + metaSchema,
                "target-database: " + server(env.target(), "JDM_BENCH_TARGET_PASSWORD"),
                "block-allow-list: {only: {do-dbs: [\"" + db + "\"]}}",
                "routes: {to-copy: {schema-pattern: \"" + db + "\", target-schema: \"" + targetDb + "\"}}"));
        lines.addAll(keys);
        lines.addAll(List.of(
                "mysql-instances:",
                "  - source-id: bench",
                "    block-allow-list: only",
                "    route-rules: [to-copy]",
                "    from: " + server(env.source(), "JDM_BENCH_SOURCE_PASSWORD")));
        return lines;
    }

    /** Writes {@code lines} as the task file {@code name} in {@code dir}. */
    static Path taskFile(Path dir, String name, List<String> lines) throws IOException {
        Files.createDirectories(dir);
        Path f = dir.resolve(name);
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }
}
