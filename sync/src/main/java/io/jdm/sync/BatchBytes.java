package io.jdm.sync;

import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.SQLException;

/** How many bytes of row images a writer's batch may hold before it commits, from the target's limits. */
final class BatchBytes {
    /**
     * TiDB's default {@code txn-total-size-limit}: a larger transaction fails with 8004 (a batch that
     * still does is committed in halves, see the package doc).
     */
    static final long TIDB_TXN_LIMIT = 100L << 20;
    /** When the target does not say. */
    static final long FALLBACK = 4L << 20;

    private BatchBytes() {
    }

    static long of(Connection c) throws SQLException {
        try (var st = c.createStatement(); var rs = st.executeQuery("SELECT @@max_allowed_packet, VERSION()")) {
            return rs.next() ? of(rs.getLong(1), rs.getString(2)) : FALLBACK;
        }
    }

    /**
     * A quarter of the target's {@code max_allowed_packet}: a batch goes to the target as one packet,
     * and its SQL text may be twice the bytes of its row images (short binary values as hex). On
     * TiDB also at most a quarter of {@link #TIDB_TXN_LIMIT}: a batch is one transaction, which
     * TiDB holds in memory as key-value pairs, one per row plus one per secondary index entry, so
     * the same rows take more room there than in the SQL text.
     */
    static long of(long maxAllowedPacket, String version) {
        long bytes = Math.max(64L << 10, maxAllowedPacket / 4);
        return Flavor.fromVersion(version) == Flavor.TIDB ? Math.min(bytes, TIDB_TXN_LIMIT / 4) : bytes;
    }
}
