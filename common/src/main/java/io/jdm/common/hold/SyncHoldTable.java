package io.jdm.common.hold;

import io.jdm.common.meta.MetaTable;

import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The hold row of one task's source, {@code {meta}.{task}_syncer_hold} on the target: verify writes
 * the request (token, lease, the position to stop at), the sync answers in the acked_ columns. The
 * row's definition and the sync's statements live here, where the sync reaches them; verify's own
 * statements (take, stop position, renew, read the answer, delete) live with its hold client.
 */
public final class SyncHoldTable {
    private final TableName table;

    public SyncHoldTable(TableName table) {
        this.table = table;
    }

    /** {@code {meta}.{task}_syncer_hold}, next to the sync checkpoint. */
    public static SyncHoldTable of(String metaSchema, String task) {
        return new SyncHoldTable(MetaTable.SYNCER_HOLD.of(metaSchema, task));
    }

    public TableName table() {
        return table;
    }

    /** What verify asks of the sync: pause (until == null) or stop at {@code until}; live while the lease holds. */
    public record Request(String token, BinlogPosition until, boolean live) {
    }

    public void ensure(Connection c) throws SQLException {
        MetaTable.create(c, table, ""
                + "source_id VARCHAR(128) NOT NULL PRIMARY KEY, "
                + "token VARCHAR(64) NOT NULL, "
                + "until_file VARCHAR(255) NULL, until_pos BIGINT UNSIGNED NULL, until_gtid TEXT NULL, "
                + "lease_until DATETIME(3) NOT NULL, "
                + "acked_token VARCHAR(64) NULL, acked_until TINYINT NOT NULL DEFAULT 0, "
                + "acked_file VARCHAR(255) NULL, acked_pos BIGINT UNSIGNED NULL, "
                + "requested_by VARCHAR(255) NULL");
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
}
