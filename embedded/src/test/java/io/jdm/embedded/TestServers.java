package io.jdm.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source and target shared by every test in one JVM. Chosen by the system property
 * {@code jdm.it.servers}:
 *
 * <ul>
 *   <li>{@code embedded} or {@code mariadb} (default): a MariaDB 11.4 source and target;
 *   <li>{@code mysql8} or {@code mysql57}: a real MySQL 8.0.31 or 5.7.22 source and target of the
 *       same version;
 *   <li>{@code SOURCE:TARGET}, e.g. {@code mysql57:mysql8} or {@code mysql8:mariadb}: a cross-flavour
 *       pair;
 *   <li>{@code tidb}: TiDB through Testcontainers (needs a Docker engine, otherwise skipped).
 * </ul>
 *
 * Test support, shipped in this module's test jar, so the runnable jar carries no test framework.
 */
public final class TestServers {
    private static final Logger LOG = LoggerFactory.getLogger(TestServers.class);
    private static ServerPair shared;
    private static SqlServer second;

    private TestServers() {
    }

    /**
     * The pair for this JVM, started on first use and stopped by a shutdown hook. Throws
     * {@link org.opentest4j.TestAbortedException} (a skip) when the selected servers need Docker
     * and none is available.
     */
    public static synchronized ServerPair shared() {
        if (shared == null) {
            String kind = selection();
            shared = kind.equals("tidb") ? ContainerServers.start(kind)
                    : ServerPair.startEmbedded("it", sourceFlavor(), targetFlavor());
            ServerPair p = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(p::closeQuietly, "jdm-embedded-shutdown"));
            LOG.info("test servers: source {} target {}", p.source(), p.target());
        }
        return shared;
    }

    /** The flavour of the shared source: what a test starts a second source of the same kind with. */
    public static ServerFlavor sourceFlavor() {
        return flavor(selection().split(":")[0]);
    }

    /** The flavour of the shared target. */
    public static ServerFlavor targetFlavor() {
        String[] parts = selection().split(":");
        return flavor(parts[parts.length - 1]);
    }

    /**
     * A second source of the shared source's flavour, for the tests whose task has two sources (shards
     * of one merged table on two servers), shared by them in this JVM: started on first use, stopped
     * by a shutdown hook. Each test keeps to its own databases on it.
     */
    public static synchronized SqlServer secondSource() {
        if (second == null) {
            SqlServer s = startSource("it-source2", ServerProfile.SOURCE);
            second = s;
            Runtime.getRuntime().addShutdownHook(new Thread(s::close, "jdm-embedded-shutdown-2"));
            LOG.info("test servers: second source {}", s);
        }
        return second;
    }

    /** Starts another server of the shared source's flavour (a second shard source, a replica). */
    public static SqlServer startSource(String name, ServerProfile profile) {
        return sourceFlavor().start(name, profile);
    }

    private static String selection() {
        return System.getProperty("jdm.it.servers", "embedded").trim();
    }

    private static ServerFlavor flavor(String key) {
        if (key.equals("embedded")) {
            return ServerFlavor.MARIADB;
        }
        if (key.equals("tidb")) {
            return null;
        }
        try {
            return ServerFlavor.of(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("jdm.it.servers: must be embedded, " + ServerFlavor.keys()
                    + ", SOURCE:TARGET of those, or tidb; got " + selection(), e);
        }
    }
}
