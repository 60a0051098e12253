package io.jdm.cli.run;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/** The per-source stage of a task, kept in the target beside the units' checkpoints. */
final class StageStore {
    /**
     * DUMP_LOAD: the load follows the dump, both running; whether the dump completed (its
     * {@code metadata}) decides what a restart does.
     */
    enum Stage { DUMP, DUMP_LOAD, LOAD, SYNC, DONE }

    record Entry(Stage stage, BinlogPosition position) {
    }

    private final ConnectionSpec target;
    private final String table;
    private final String schema;

    StageStore(ConnectionSpec target, String metaSchema, String task) {
        this.target = target;
        this.schema = Identifiers.quote(metaSchema);
        this.table = schema + "." + Identifiers.quote(task + "_stage");
    }

    void init() throws SQLException {
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + schema);
            st.execute("CREATE TABLE IF NOT EXISTS " + table + " (source_id VARCHAR(128) NOT NULL PRIMARY KEY, "
                    + "stage VARCHAR(16) NOT NULL, binlog_file VARCHAR(255) NULL, binlog_pos BIGINT NULL, "
                    + "binlog_gtid TEXT NULL, updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) "
                    + "ON UPDATE CURRENT_TIMESTAMP(3))");
        }
    }

    Optional<Entry> read(String sourceId) throws SQLException {
        try (Connection c = DataSources.connect(target);
             PreparedStatement ps = c.prepareStatement(
                     "SELECT stage, binlog_file, binlog_pos, binlog_gtid FROM " + table + " WHERE source_id = ?")) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                BinlogPosition p = rs.getString(2) == null ? null
                        : new BinlogPosition(rs.getString(2), rs.getLong(3), rs.getString(4));
                return Optional.of(new Entry(Stage.valueOf(rs.getString(1)), p));
            }
        }
    }

    void write(String sourceId, Stage stage, BinlogPosition position) throws SQLException {
        try (Connection c = DataSources.connect(target);
             PreparedStatement ps = c.prepareStatement("REPLACE INTO " + table
                     + " (source_id, stage, binlog_file, binlog_pos, binlog_gtid) VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, sourceId);
            ps.setString(2, stage.name());
            ps.setString(3, position == null ? null : position.file());
            if (position == null) {
                ps.setNull(4, java.sql.Types.BIGINT);
            } else {
                ps.setLong(4, position.pos());
            }
            ps.setString(5, position == null ? null : position.gtidSet());
            ps.executeUpdate();
        }
    }
}
