package io.jdm.sync.checkpoint;

import io.jdm.common.meta.MetaTable;

import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.ChangePos;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The online DDL table, {@code {meta}.{task}_onlineddl} on the target (DM's name): the ALTERs of a
 * gh-ost or pt-online-schema-change ghost table, rewritten to its real table, waiting for the
 * cut-over. One row per statement: source, real table, ordinal, the ghost table it ran on, the
 * position of its QUERY event (a restart that reads the event again knows it has it), the default
 * database and the session it ran in on the source (JSON), and the statement. A row is written in
 * the transaction that moves every writer's checkpoint past its statement, and a real table's rows
 * are deleted in the transaction that moves them past the cut-over (after the statements ran, each
 * behind its own DDL marker) or past the DROP of the ghost table: so the rows are always the state
 * at the checkpoint, which a start reads back.
 */
public final class OnlineDdlStore {
    private final TableName table;
    private final String sourceId;
    private final List<Recorded> atStart;

    /**
     * One statement waiting for the cut-over.
     *
     * @param real the real table the statement is rewritten to
     * @param seq its ordinal among the real table's statements
     * @param ghost the ghost table it ran on in the source
     * @param pos where it is in the binlog
     * @param schema the default database it ran in on the source (may be empty)
     * @param session the session it ran in on the source, as {@code SourceSession#json}
     * @param statement the statement on the real table
     */
    public record Recorded(TableName real, int seq, TableName ghost, ChangePos pos, String schema, String session,
                           String statement) {
    }

    private OnlineDdlStore(TableName table, String sourceId, List<Recorded> atStart) {
        this.table = table;
        this.sourceId = sourceId;
        this.atStart = List.copyOf(atStart);
    }

    /** {@code {meta}.{task}_onlineddl}. */
    public static TableName table(String metaSchema, String task) {
        return MetaTable.ONLINE_DDL.of(metaSchema, task);
    }

    /** Creates the table the first time and reads {@code sourceId}'s statements. */
    public static OnlineDdlStore open(Connection c, TableName table, String sourceId) throws SQLException {
        MetaTable.create(c, table, ""
                + "source_id VARCHAR(128) NOT NULL, real_schema VARCHAR(64) NOT NULL,"
                + " real_table VARCHAR(64) NOT NULL, seq INT NOT NULL, ghost_schema VARCHAR(64) NOT NULL,"
                + " ghost_table VARCHAR(64) NOT NULL, binlog_name VARCHAR(255) NOT NULL,"
                + " txn_pos BIGINT NOT NULL, event_idx BIGINT NOT NULL, row_idx INT NOT NULL,"
                + " gtid_before TEXT NOT NULL, default_schema VARCHAR(64) NOT NULL, session TEXT NOT NULL,"
                + " statement LONGTEXT NOT NULL,"
                + " updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),"
                + " PRIMARY KEY (source_id, real_schema, real_table, seq)");
        return new OnlineDdlStore(table, sourceId, load(c, table, sourceId));
    }

    public TableName table() {
        return table;
    }

    /** The statements that waited for a cut-over when this run started, by real table and ordinal. */
    public List<Recorded> atStart() {
        return atStart;
    }

    private static List<Recorded> load(Connection c, TableName table, String sourceId) throws SQLException {
        List<Recorded> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT real_schema, real_table, seq, ghost_schema,"
                + " ghost_table, binlog_name, txn_pos, event_idx, row_idx, gtid_before, default_schema, session,"
                + " statement FROM " + table.quoted() + " WHERE source_id = ? ORDER BY real_schema, real_table, seq")) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Recorded(new TableName(rs.getString(1), rs.getString(2)), rs.getInt(3),
                            new TableName(rs.getString(4), rs.getString(5)), new ChangePos(rs.getString(6),
                            rs.getLong(7), rs.getLong(8), rs.getInt(9), rs.getString(10)), rs.getString(11),
                            rs.getString(12), rs.getString(13)));
                }
            }
        }
        return out;
    }

    /**
     * Writes {@code r} (again, when a restart read its statement again); run it in the checkpoint
     * move's transaction.
     */
    public void record(Connection c, Recorded r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("REPLACE INTO " + table.quoted() + " (source_id, real_schema,"
                + " real_table, seq, ghost_schema, ghost_table, binlog_name, txn_pos, event_idx, row_idx, gtid_before,"
                + " default_schema, session, statement) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            ps.setString(1, sourceId);
            ps.setString(2, r.real().schema());
            ps.setString(3, r.real().table());
            ps.setInt(4, r.seq());
            ps.setString(5, r.ghost().schema());
            ps.setString(6, r.ghost().table());
            ps.setString(7, r.pos().file());
            ps.setLong(8, r.pos().txnPos());
            ps.setLong(9, r.pos().event());
            ps.setInt(10, r.pos().row());
            ps.setString(11, r.pos().gtidBefore());
            ps.setString(12, r.schema() == null ? "" : r.schema());
            ps.setString(13, r.session());
            ps.setString(14, r.statement());
            ps.executeUpdate();
        }
    }

    /** Deletes the statements of {@code real}; run it in the checkpoint move's transaction. */
    public void forget(Connection c, TableName real) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table.quoted()
                + " WHERE source_id = ? AND real_schema = ? AND real_table = ?")) {
            ps.setString(1, sourceId);
            ps.setString(2, real.schema());
            ps.setString(3, real.table());
            ps.executeUpdate();
        }
    }
}
