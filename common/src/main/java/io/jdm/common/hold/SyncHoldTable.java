package io.jdm.common.hold;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The hold row of one task's source, {@code {meta}.{task}_syncer_hold} on the target: verify writes
 * the request (token, lease, the position to stop at), the sync answers in the acked_ columns.
 */
public final class SyncHoldTable {
    private final TableName table;

    public SyncHoldTable(TableName table) {
        this.table = table;
    }

    /** {@code {meta}.{task}_syncer_hold}, next to the sync checkpoint. */
    public static SyncHoldTable of(String metaSchema, String task) {
        return new SyncHoldTable(new TableName(metaSchema, task + "_syncer_hold"));
    }

    public TableName table() {
        return table;
    }

    /** What verify asks of the sync: pause (until == null) or stop at {@code until}; live while the lease holds. */
    public record Request(String token, BinlogPosition until, boolean live) {
    }

    /** What the sync answered. */
    public record Answer(String token, boolean holding, BinlogPosition at) {
    }

    public void ensure(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(table.schema()));
            st.execute("CREATE TABLE IF NOT EXISTS " + table.quoted() + " ("
                    + "source_id VARCHAR(128) NOT NULL PRIMARY KEY, "
                    + "token VARCHAR(64) NOT NULL, "
                    + "until_file VARCHAR(255) NULL, until_pos BIGINT UNSIGNED NULL, until_gtid TEXT NULL, "
                    + "lease_until DATETIME(3) NOT NULL, "
                    + "acked_token VARCHAR(64) NULL, acked_until TINYINT NOT NULL DEFAULT 0, "
                    + "acked_file VARCHAR(255) NULL, acked_pos BIGINT UNSIGNED NULL, "
                    + "requested_by VARCHAR(255) NULL)");
        }
    }

    /** The current request for {@code sourceId}, if a row exists (live or with its lease run out). */
    public Optional<Request> read(Connection c, String sourceId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT token, until_file, until_pos, until_gtid, "
                + "TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), lease_until) DIV 1000 FROM " + table.quoted()
                + " WHERE source_id = ?")) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                String file = rs.getString(2);
                BinlogPosition until = file == null ? null : new BinlogPosition(file, rs.getLong(3), rs.getString(4));
                return Optional.of(new Request(rs.getString(1), until, rs.getLong(5) > 0));
            }
        }
    }

    /** The sync's answer to the request {@code token}; {@code at} is the position held, null while only paused. */
    public void ack(Connection c, String sourceId, String token, BinlogPosition at) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + table.quoted() + " SET acked_token = ?, "
                + "acked_until = ?, acked_file = ?, acked_pos = ? WHERE source_id = ? AND token = ?")) {
            ps.setString(1, token);
            ps.setInt(2, at == null ? 0 : 1);
            ps.setString(3, at == null ? null : at.file());
            if (at == null) {
                ps.setNull(4, java.sql.Types.BIGINT);
            } else {
                ps.setLong(4, at.pos());
            }
            ps.setString(5, sourceId);
            ps.setString(6, token);
            ps.executeUpdate();
        }
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
