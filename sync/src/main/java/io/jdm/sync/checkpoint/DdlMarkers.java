package io.jdm.sync.checkpoint;

import io.jdm.common.meta.MetaTable;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.ChangePos;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The DDL in progress, in the target's meta schema beside the checkpoint table: written and
 * committed after every writer has stored its position and before the statement runs, deleted in
 * the transaction that moves every writer's checkpoint past it. A DDL commits on its own, so a
 * marker left by a crash is the one way to know, on the next start, that the statement may have
 * run. With it the marker keeps each target table the statement touches as it was just before
 * (its {@code SHOW CREATE TABLE}, or absent): nothing but sync changes those tables, and every
 * writer waits behind the barrier, so a table still equal to that state means the statement has
 * not run, and any difference means it has.
 */
public final class DdlMarkers {
    private final TableName table;
    private final String sourceId;

    public DdlMarkers(TableName table, String sourceId) {
        this.table = table;
        this.sourceId = sourceId;
    }

    /** One table as it was before the marked statement; {@code definition} null: absent. */
    public record TableState(TableName table, String definition) {
    }

    /** A DDL that was about to run, or had run, when the process stopped. */
    public record Marker(ChangePos pos, String statement, List<TableState> before) {
        /** Whether {@code p} is the marked statement's position (the GTID text may be spelt differently). */
        public boolean at(ChangePos p) {
            return p.compareTo(pos) == 0;
        }
    }

    /** {@code {meta}.{task}_syncer_ddl}. */
    public static TableName table(String metaSchema, String task) {
        return MetaTable.SYNCER_DDL.of(metaSchema, task);
    }

    public TableName table() {
        return table;
    }

    public void ensureTable(Connection c) throws SQLException {
        MetaTable.create(c, table, ""
                + "source_id VARCHAR(128) NOT NULL, seq INT NOT NULL, binlog_name VARCHAR(255) NOT NULL,"
                + " txn_pos BIGINT NOT NULL, event_idx BIGINT NOT NULL, row_idx INT NOT NULL,"
                + " gtid_before TEXT NOT NULL, statement LONGTEXT NOT NULL, table_schema VARCHAR(64) NULL,"
                + " table_name VARCHAR(64) NULL, definition LONGTEXT NULL,"
                + " PRIMARY KEY (source_id, seq)");
    }

    /** The target tables as they are now: each one's {@code SHOW CREATE TABLE}, or null when it does not exist. */
    public static List<TableState> snapshot(Connection c, List<TableName> tables) throws SQLException {
        List<TableState> out = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            for (TableName t : tables) {
                String def = null;
                try (ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + t.quoted())) {
                    if (rs.next()) {
                        def = rs.getString(2);
                    }
                } catch (SQLException e) {
                    if (!ErrorClassifier.isNoSuchTableOrDatabase(e)) {
                        throw e;
                    }
                }
                out.add(new TableState(t, def));
            }
        }
        return out;
    }

    /** The marker of this source, or null when the last DDL completed. */
    public Marker load(Connection c) throws SQLException {
        ChangePos pos = null;
        String statement = null;
        List<TableState> before = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT binlog_name, txn_pos, event_idx, row_idx, gtid_before,"
                + " statement, table_schema, table_name, definition FROM " + table.quoted()
                + " WHERE source_id = ? ORDER BY seq")) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    pos = new ChangePos(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getInt(4), rs.getString(5));
                    statement = rs.getString(6);
                    if (rs.getString(7) != null) {
                        before.add(new TableState(new TableName(rs.getString(7), rs.getString(8)), rs.getString(9)));
                    }
                }
            }
        }
        return pos == null ? null : new Marker(pos, statement, before);
    }

    /** Writes the marker (replacing any other of this source); the caller commits it before running the DDL. */
    public void mark(Connection c, Marker m) throws SQLException {
        clear(c);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table.quoted() + " (source_id, seq,"
                + " binlog_name, txn_pos, event_idx, row_idx, gtid_before, statement, table_schema, table_name,"
                + " definition) VALUES (?,?,?,?,?,?,?,?,?,?,?)")) {
            int rows = Math.max(1, m.before().size());
            for (int i = 0; i < rows; i++) {
                TableState s = i < m.before().size() ? m.before().get(i) : null;
                ps.setString(1, sourceId);
                ps.setInt(2, i);
                ps.setString(3, m.pos().file());
                ps.setLong(4, m.pos().txnPos());
                ps.setLong(5, m.pos().event());
                ps.setInt(6, m.pos().row());
                ps.setString(7, m.pos().gtidBefore());
                ps.setString(8, m.statement());
                ps.setString(9, s == null ? null : s.table().schema());
                ps.setString(10, s == null ? null : s.table().table());
                ps.setString(11, s == null ? null : s.definition());
                ps.executeUpdate();
            }
        }
    }

    /** Deletes this source's marker; run it in the transaction that moves the checkpoints past the DDL. */
    public void clear(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table.quoted() + " WHERE source_id = ?")) {
            ps.setString(1, sourceId);
            ps.executeUpdate();
        }
    }
}
