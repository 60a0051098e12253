package io.jdm.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source and a target server. {@link #startEmbedded} starts the embedded pair that {@code jdm
 * demo} and {@code jdm bench} run on (MariaDB by default, MySQL 8.0 or 5.7 on request); the pair
 * every test of one JVM shares comes from {@code TestServers} in this module's test jar.
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
        return startEmbedded(prefix, ServerFlavor.MARIADB, ServerFlavor.MARIADB);
    }

    /** Starts an embedded source (ROW binlog, GTID) and target of the given flavours, at once. Caller closes them. */
    public static ServerPair startEmbedded(String prefix, ServerFlavor sourceFlavor, ServerFlavor targetFlavor) {
        SqlServer[] started = new SqlServer[2];
        Thread t = new Thread(() -> started[1] = targetFlavor.start(prefix + "-target", ServerProfile.TARGET),
                "embedded-target-start");
        t.start();
        RuntimeException sourceFailure = null;
        try {
            started[0] = sourceFlavor.start(prefix + "-source", ServerProfile.SOURCE);
        } catch (RuntimeException e) {
            sourceFailure = e;
        }
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the embedded target", e);
        }
        if (sourceFailure != null || started[1] == null) {
            new ServerPair(started[0], started[1]).closeQuietly();
            throw sourceFailure != null ? sourceFailure
                    : new IllegalStateException("embedded target did not start (see the log above)");
        }
        return new ServerPair(started[0], started[1]);
    }

    public void closeQuietly() {
        try {
            if (source != null) {
                source.close();
            }
        } catch (RuntimeException e) {
            LOG.warn("source did not close: {}", e.getMessage());
        }
        try {
            if (target != null) {
                target.close();
            }
        } catch (RuntimeException e) {
            LOG.warn("target did not close: {}", e.getMessage());
        }
    }
}
