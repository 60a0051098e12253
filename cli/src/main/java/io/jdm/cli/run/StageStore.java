package io.jdm.cli.run;

import io.jdm.common.meta.MetaColumns;
import io.jdm.common.meta.MetaTable;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.sql.Identifiers;
import io.jdm.sync.ring.StoppedStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The per-source stage of a task, kept in the target beside the units' checkpoints, and whether
 * pause-task paused it: a process started while that holds starts paused (until resume-task), as a
 * DM task keeps its stage across a worker's restart.
 */
final class StageStore {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
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
    private final String metaSchema;
    private final String task;

    StageStore(ConnectionSpec target, String metaSchema, String task) {
        this.target = target;
        this.metaSchema = metaSchema;
        this.task = task;
        this.schema = Identifiers.quote(metaSchema);
        this.table = MetaTable.STAGE.of(metaSchema, task).quoted();
    }

    void init() throws SQLException {
        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + schema);
            st.execute("CREATE TABLE IF NOT EXISTS " + table + " (source_id VARCHAR(128) NOT NULL PRIMARY KEY, "
                    + "stage VARCHAR(16) NOT NULL, binlog_file VARCHAR(255) NULL, binlog_pos BIGINT NULL, "
                    + "binlog_gtid TEXT NULL, updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) "
                    + "ON UPDATE CURRENT_TIMESTAMP(3), paused TINYINT NOT NULL DEFAULT 0)");
            // a table made before pauses were kept gets the column, and one made before the statement a
            // sync stopped at was kept gets that
            MetaColumns.addIfMissing(c, MetaTable.STAGE.of(metaSchema, task), "paused", "TINYINT NOT NULL DEFAULT 0");
            MetaColumns.addIfMissing(c, MetaTable.STAGE.of(metaSchema, task), "stopped_at", "TEXT NULL");
        }
    }

    /** Marks these sources paused (pause-task) or not (resume-task, stop-task); a source without a row gets one. */
    void paused(java.util.List<String> sourceIds, boolean paused) throws SQLException {
        try (Connection c = DataSources.connect(target);
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (source_id, stage, paused) VALUES "
                     + "(?, ?, ?) ON DUPLICATE KEY UPDATE paused = VALUES(paused)")) {
            for (String id : sourceIds) {
                ps.setString(1, id);
                ps.setString(2, Stage.DUMP.name());
                ps.setInt(3, paused ? 1 : 0);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** True when pause-task paused one of these sources and no resume-task or stop-task came since. */
    boolean anyPaused(java.util.List<String> sourceIds) throws SQLException {
        try (Connection c = DataSources.connect(target);
             PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + table + " WHERE source_id = ? AND paused")) {
            for (String id : sourceIds) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return true;
                    }
                }
            }
        }
        return false;
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

    /**
     * The statement the source's sync stopped at (the target refused it), kept for query-status once
     * the process has exited; null clears it (a sync that starts again).
     */
    void stoppedAt(String sourceId, StoppedStatement at) throws SQLException {
        String json = null;
        if (at != null) {
            try {
                json = JSON.writeValueAsString(at);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        try (Connection c = DataSources.connect(target);
             PreparedStatement ps = c.prepareStatement("UPDATE " + table + " SET stopped_at = ? WHERE source_id = ?")) {
            ps.setString(1, json);
            ps.setString(2, sourceId);
            ps.executeUpdate();
        }
    }

    /** What {@link #stoppedAt(String, StoppedStatement)} kept, read on {@code c}; empty when nothing is (or no table). */
    static Optional<StoppedStatement> stoppedAt(Connection c, String metaSchema, String task, String sourceId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT stopped_at FROM " + MetaTable.STAGE.of(metaSchema, task)
                .quoted() + " WHERE source_id = ?")) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null) {
                    return Optional.empty();
                }
                return Optional.of(JSON.readValue(rs.getString(1), StoppedStatement.class));
            }
        } catch (SQLException e) {
            if (io.jdm.common.error.ErrorClassifier.isNoSuchTableOrDatabase(e)
                    || e.getErrorCode() == com.mysql.cj.exceptions.MysqlErrorNumbers.ER_BAD_FIELD_ERROR) {
                return Optional.empty(); // no stage table, or one from before the column
            }
            throw e;
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    void write(String sourceId, Stage stage, BinlogPosition position) throws SQLException {
        try (Connection c = DataSources.connect(target);
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table
                     + " (source_id, stage, binlog_file, binlog_pos, binlog_gtid) VALUES (?, ?, ?, ?, ?) ON DUPLICATE "
                     + "KEY UPDATE stage = VALUES(stage), binlog_file = VALUES(binlog_file), "
                     + "binlog_pos = VALUES(binlog_pos), binlog_gtid = VALUES(binlog_gtid)")) {
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
