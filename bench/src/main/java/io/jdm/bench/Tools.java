package io.jdm.bench;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Peer tools on PATH, and running one with a deadline and its output kept for the error message;
 * statements run on a server between samples.
 */
final class Tools {
    private Tools() {
    }

    /** Runs {@code sql} on {@code server}, one statement after the other, on one connection. */
    static void execute(ConnectionSpec server, String... sql) throws SQLException {
        try (Connection c = DataSources.connect(server); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    /** The first of {@code names} found executable on PATH. */
    static Optional<Path> find(String... names) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String n : names) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, n);
                if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /** Runs {@code cmd}; returns its combined output; throws with the output's tail when it fails or times out. */
    static String run(List<String> cmd, Path stdoutFile, Duration timeout) throws IOException, InterruptedException {
        Path log = Files.createTempFile("jdm-bench-tool-", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd);
            if (stdoutFile != null) {
                pb.redirectOutput(stdoutFile.toFile()).redirectError(log.toFile());
            } else {
                pb.redirectErrorStream(true).redirectOutput(log.toFile());
            }
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException(cmd.get(0) + " did not finish within " + timeout.toSeconds() + "s");
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String tail = out.length() > 400 ? out.substring(out.length() - 400) : out;
                throw new IOException(Path.of(cmd.get(0)).getFileName() + " exited with " + p.exitValue() + ": "
                        + tail.strip().replace('\n', ' '));
            }
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static long size(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
