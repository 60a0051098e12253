package io.jdm.sync.reader;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.position.BinlogPosition;
import java.time.Duration;

/**
 * One binlog connection as the reader opens it, without the JDBC reads that come before it in a
 * {@link BinlogReader}: for tests of the connection itself (its TLS).
 */
public final class BinlogProbe {
    private BinlogProbe() {
    }

    /**
     * Connects from {@code from}, closes once the first event arrives, and returns why the
     * connection ended: null when it was closed that way, else the failure as the reader gets it.
     */
    public static Exception firstEvent(ConnectionSpec source, long serverId, BinlogPosition from) {
        BinlogReader.Settings settings = new BinlogReader.Settings("probe", source, serverId, false,
                Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(1), (db, table) -> false,
                null, null, null, null, false, null, null, null, null);
        return new BinlogConnection(settings, event -> false, e -> { }).stream(from);
    }
}
