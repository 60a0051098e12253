package io.jdm.verify.hold;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Verify's statements on the hold row ({@link io.jdm.common.hold.SyncHoldTable} defines it and holds
 * the sync's): take the row for one request, set the position to stop at, renew the lease, read the
 * sync's answer, delete the row.
 */
final class HoldRequestRow {
    private final TableName table;

    HoldRequestRow(TableName table) {
        this.table = table;
    }

    /** What the sync answered. */
    record Answer(String token, boolean holding, BinlogPosition at) {
    }

    /** Takes the hold for {@code token}: 0, or the lease left (ms) of someone else's live hold, which stays. */
    long take(Connection c, String sourceId, String token, long leaseMillis, String requestedBy) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (PreparedStatement ps = c.prepareStatement("SELECT TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), "
                    + "lease_until) DIV 1000 FROM " + table.quoted() + " WHERE source_id = ? FOR UPDATE")) {
                ps.setString(1, sourceId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getLong(1) > 0) {
                        long left = rs.getLong(1);
                        c.rollback();
                        return left;
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("REPLACE INTO " + table.quoted() + " (source_id, token, "
                    + "lease_until, requested_by) VALUES (?, ?, UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND, ?)")) {
                ps.setString(1, sourceId);
                ps.setString(2, token);
                ps.setLong(3, leaseMillis * 1000);
                ps.setString(4, requestedBy);
                ps.executeUpdate();
            }
            c.commit();
            return 0;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    void setUntil(Connection c, String sourceId, String token, BinlogPosition p) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + table.quoted() + " SET until_file = ?, "
                + "until_pos = ?, until_gtid = ? WHERE source_id = ? AND token = ?")) {
            ps.setString(1, p.file());
            ps.setLong(2, p.pos());
            ps.setString(3, p.gtidSet());
            ps.setString(4, sourceId);
            ps.setString(5, token);
            if (ps.executeUpdate() != 1) {
                throw new SQLException("the hold row of " + sourceId + " is gone");
            }
        }
    }

    /** True while the row is still ours. */
    boolean renew(Connection c, String sourceId, String token, long leaseMillis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + table.quoted() + " SET lease_until = "
                + "UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND WHERE source_id = ? AND token = ?")) {
            ps.setLong(1, leaseMillis * 1000);
            ps.setString(2, sourceId);
            ps.setString(3, token);
            return ps.executeUpdate() == 1;
        }
    }

    Optional<Answer> answer(Connection c, String sourceId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT acked_token, acked_until, acked_file, acked_pos FROM "
                + table.quoted() + " WHERE source_id = ?")) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null) {
                    return Optional.empty();
                }
                String file = rs.getString(3);
                return Optional.of(new Answer(rs.getString(1), rs.getInt(2) == 1,
                        file == null ? null : BinlogPosition.of(file, rs.getLong(4))));
            }
        }
    }

    void delete(Connection c, String sourceId, String token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table.quoted()
                + " WHERE source_id = ? AND token = ?")) {
            ps.setString(1, sourceId);
            ps.setString(2, token);
            ps.executeUpdate();
        }
    }
}
