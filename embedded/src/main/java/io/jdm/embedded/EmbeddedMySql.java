package io.jdm.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real MySQL {@code mysqld} (8.0.31 or 5.7.22) on a free loopback port with its own temporary
 * data directory, copied from the flavour's initialised template ({@link MySqlBinaries}). Started
 * with {@code --no-defaults}, so nothing of the machine's own MySQL configuration applies; the
 * server's other defaults are MySQL's own (character set, sql_mode, {@code local_infile}), which is
 * what users migrate from. Root may log in over TCP from 127.0.0.1 with an empty password (an init
 * file at every start: the installer makes only {@code root@localhost}).
 */
public final class EmbeddedMySql implements SqlServer {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMySql.class);
    private static final long START_TIMEOUT_MS = 180_000;

    private final ServerFlavor flavor;
    private final String name;
    private final Path dataRoot;
    private final int port;
    private List<String> command;
    private final String libraryPath;
    private Process process;

    private EmbeddedMySql(ServerFlavor flavor, String name, Path dataRoot, int port, List<String> command,
                          String libraryPath) {
        this.flavor = flavor;
        this.name = name;
        this.dataRoot = dataRoot;
        this.port = port;
        this.command = command;
        this.libraryPath = libraryPath;
    }

    /** Starts a server of a MySQL flavour with the given profile; blocks until it accepts connections. */
    public static EmbeddedMySql start(ServerFlavor flavor, String name, ServerProfile profile, List<String> extraArgs) {
        if (!flavor.isMySql()) {
            throw new IllegalArgumentException(flavor + " is not a MySQL flavour");
        }
        Path base = MySqlBinaries.baseDir(flavor);
        try {
            Path dataRoot = Files.createTempDirectory("jdm-" + name + "-");
            Path dataDir = dataRoot.resolve("data");
            MySqlBinaries.copyTemplateDataDir(flavor, dataDir);
            Files.createDirectories(dataRoot.resolve("tmp"));
            Path initFile = dataRoot.resolve("init.sql");
            Files.writeString(initFile,
                    "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';\n"
                            + "GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;\n");
            int port = FreePorts.find();
            List<String> cmd = new ArrayList<>(List.of(base.resolve("bin/mysqld").toString(), "--no-defaults",
                    "--user=root", "--basedir=" + base, "--datadir=" + dataDir,
                    "--lc-messages-dir=" + base.resolve("share"), "--tmpdir=" + dataRoot.resolve("tmp"),
                    "--socket=" + dataRoot.resolve("mysqld.sock"), "--pid-file=" + dataRoot.resolve("mysqld.pid"),
                    "--port=" + port, "--bind-address=127.0.0.1", "--skip-name-resolve",
                    "--init-file=" + initFile, "--innodb-buffer-pool-size=256M",
                    "--innodb-flush-log-at-trx-commit=2", "--sync-binlog=0", "--max-connections=500"));
            if (flavor == ServerFlavor.MYSQL8) {
                cmd.add("--mysqlx=OFF");
            }
            cmd.addAll(profile.args(flavor));
            cmd.addAll(extraArgs);
            EmbeddedMySql server = new EmbeddedMySql(flavor, name, dataRoot, port, List.copyOf(cmd),
                    MySqlBinaries.libraryPath(flavor, base));
            long t0 = System.nanoTime();
            server.launch();
            LOG.info("embedded {} {} ({}) on 127.0.0.1:{} in {} ms", flavor.label(), name, profile, port,
                    (System.nanoTime() - t0) / 1_000_000);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare embedded " + flavor.label() + " " + name, e);
        }
    }

    private synchronized void launch() throws IOException {
        Path log = dataRoot.resolve("mysqld.log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("LD_LIBRARY_PATH", libraryPath);
        process = pb.start();
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        SQLException last = null;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("embedded " + flavor.label() + " " + name + " exited ("
                        + process.exitValue() + "): " + tail(log, 5) + missingLibraryHint(log));
            }
            try (Connection c = connect()) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            sleep(100);
        }
        process.destroyForcibly();
        throw new IllegalStateException("embedded " + flavor.label() + " " + name + " did not accept connections in "
                + START_TIMEOUT_MS / 1000 + " s: " + (last == null ? "" : last.getMessage()) + "; " + tail(log, 5));
    }

    /** The last lines of a server log, for a message that says why a server did not start. */
    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join(" | ", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** mysqld links libaio and libnuma from the system; a machine without them gets told which package. */
    static String missingLibraryHint(Path log) {
        String text = tail(log, 20);
        return text.contains("libaio") || text.contains("libnuma")
                ? " (install the system's libaio and libnuma, e.g. apt-get install libaio1 libnuma1)" : "";
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a server", e);
        }
    }

    @Override
    public String flavor() {
        return "mysql";
    }

    @Override
    public ServerFlavor serverFlavor() {
        return flavor;
    }

    @Override
    public int port() {
        return port;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Shuts the server down cleanly (data kept, so {@link #restart()} brings it back). */
    @Override
    public synchronized void stopServer() {
        if (!isRunning()) {
            return;
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("SHUTDOWN");
        } catch (SQLException e) {
            LOG.warn("embedded {} {}: SHUTDOWN failed ({}), stopping the process", flavor.label(), name,
                    e.getMessage());
            process.destroy();
        }
        awaitExit(120);
    }

    @Override
    public synchronized void kill() {
        if (isRunning()) {
            process.destroyForcibly();
            awaitExit(30);
        }
    }

    private void awaitExit(int seconds) {
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                LOG.warn("embedded {} {} did not stop in {} s: killed", flavor.label(), name, seconds);
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Starts the server again on the same port and data directory. */
    @Override
    public synchronized void restart() {
        if (isRunning()) {
            return;
        }
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException("embedded " + flavor.label() + " " + name + " did not restart", e);
        }
    }

    /**
     * Starts the server again on the same port and data directory with more options, which win over
     * the ones it was started with (another {@code --log-bin} basename, GTIDs off…).
     */
    @Override
    public synchronized void restart(List<String> extraArgs) {
        if (isRunning()) {
            throw new IllegalStateException(this + " is running: stop it first");
        }
        List<String> cmd = new ArrayList<>(command);
        cmd.addAll(extraArgs);
        command = List.copyOf(cmd);
        restart();
    }

    /** Stops the server and deletes its data directory. */
    @Override
    public synchronized void close() {
        stopServer();
        EmbeddedMariaDb.deleteTree(dataRoot);
    }

    @Override
    public String toString() {
        return "EmbeddedMySql[" + flavor.label() + " " + name + " 127.0.0.1:" + port + "]";
    }
}
