package io.jdm.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source and a target server. {@link #startEmbedded} starts the embedded MariaDB pair that
 * {@code jdm demo} and {@code jdm bench} run on; the pair every test of one JVM shares, which may
 * also be MySQL 8 or TiDB in containers, comes from {@code TestServers} in this module's test jar.
 */
public final class ServerPair {
    private static final Logger LOG = LoggerFactory.getLogger(ServerPair.class);

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
