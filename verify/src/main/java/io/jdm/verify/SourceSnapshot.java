package io.jdm.verify;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code n} source connections that all read one consistent snapshot, and the binlog position it
 * corresponds to: FLUSH TABLES WITH READ LOCK on a control connection, every connection starts
 * {@code START TRANSACTION WITH CONSISTENT SNAPSHOT}, the position is read, UNLOCK. Writes wait for
 * milliseconds, not for the comparison.
 */
final class SourceSnapshot {
    final List<Connection> connections;
    final BinlogPosition position;

    private SourceSnapshot(List<Connection> connections, BinlogPosition position) {
        this.connections = connections;
        this.position = position;
    }

    static SourceSnapshot open(ConnectionSpec spec, int n) {
        List<Connection> conns = new ArrayList<>();
        try (Connection lock = DataSources.connect(spec); Statement ls = lock.createStatement()) {
            for (int i = 0; i < n; i++) {
                conns.add(Workers.open(spec));
            }
            try {
                ls.execute("FLUSH TABLES WITH READ LOCK");
            } catch (SQLException e) {
                if (ErrorClassifier.isAccessDenied(e)) {
                    throw new FatalException("verify --snapshot: FLUSH TABLES WITH READ LOCK was refused on the source "
                            + spec.address() + " (" + ErrorClassifier.oneLine(e) + "); grant RELOAD to the user or "
                            + "verify without --snapshot while writes are stopped", e);
                }
                throw e;
            }
            BinlogPosition pos;
            try {
                for (Connection c : conns) {
                    try (Statement st = c.createStatement()) {
                        st.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                        st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
                    }
                }
                pos = Flavor.detect(lock).currentPosition(lock);
            } finally {
                ls.execute("UNLOCK TABLES");
            }
            return new SourceSnapshot(conns, pos);
        } catch (SQLException e) {
            closeAll(conns);
            throw ErrorClassifier.wrap("verify --snapshot: cannot open a consistent snapshot on the source "
                    + spec.address(), e);
        } catch (RuntimeException e) {
            closeAll(conns);
            throw e;
        }
    }

    static void closeAll(List<Connection> conns) {
        for (Connection c : conns) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing a snapshot connection only ends its read-only transaction
            }
        }
    }
}
