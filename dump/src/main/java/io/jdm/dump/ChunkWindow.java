package io.jdm.dump;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The short snapshot one chunk of a lock-free dump is read in, and the binlog positions around it:
 * LOW, at or before the snapshot, and HIGH, at or after it. Every transaction the chunk's rows do
 * not show is at or after LOW; every one they show is before HIGH.
 *
 * <ul>
 *   <li>MariaDB: the snapshot's exact position, {@code binlog_snapshot_file/position} (status of the
 *       transaction that {@code START TRANSACTION WITH CONSISTENT SNAPSHOT} opened), is both LOW and
 *       HIGH; its GTID set from {@code BINLOG_GTID_POS}.</li>
 *   <li>MySQL: {@code SHOW MASTER STATUS} (REPLICATION CLIENT) just before the snapshot opens is LOW,
 *       just after it HIGH. A transaction whose binlog write precedes LOW but whose engine commit
 *       follows the snapshot escapes both; group commit makes that window microseconds wide.</li>
 * </ul>
 */
final class ChunkWindow {
    /** LOW and HIGH of one chunk; both null when the source writes no binlog. */
    record Positions(BinlogPosition low, BinlogPosition high) {
    }

    private final Flavor flavor;
    private final boolean binlog;

    /** @param binlog false when the source writes no binlog: no positions are read */
    ChunkWindow(Flavor flavor, boolean binlog) {
        this.flavor = flavor;
        this.binlog = binlog;
    }

    /** Opens the chunk's snapshot on {@code c} (REPEATABLE READ) and returns the positions around it. */
    Positions open(Connection c) throws SQLException {
        BinlogPosition low = binlog && flavor != Flavor.MARIADB ? flavor.currentPosition(c) : null;
        SnapshotOpener.exec(c, "START TRANSACTION WITH CONSISTENT SNAPSHOT");
        if (!binlog) {
            return new Positions(null, null);
        }
        if (flavor == Flavor.MARIADB) {
            BinlogPosition exact = snapshotPosition(c);
            return new Positions(exact, exact);
        }
        return new Positions(low, flavor.currentPosition(c));
    }

    /** Ends the chunk's snapshot. */
    static void close(Connection c) throws SQLException {
        SnapshotOpener.exec(c, "COMMIT");
    }

    private static BinlogPosition snapshotPosition(Connection c) throws SQLException {
        String file = null;
        long pos = -1;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'binlog_snapshot_%'")) {
            while (rs.next()) {
                switch (rs.getString(1).toLowerCase(java.util.Locale.ROOT)) {
                    case "binlog_snapshot_file" -> file = rs.getString(2);
                    case "binlog_snapshot_position" -> pos = Long.parseLong(rs.getString(2));
                    default -> { }
                }
            }
        }
        if (file == null || file.isEmpty() || pos < 0) {
            throw new SQLException("the source reports no binlog_snapshot_file/position for the chunk's snapshot");
        }
        String gtid = "";
        try (PreparedStatement ps = c.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
            ps.setString(1, file);
            ps.setLong(2, pos);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getString(1) != null) {
                    gtid = rs.getString(1);
                }
            }
        }
        return new BinlogPosition(file, pos, gtid);
    }
}
