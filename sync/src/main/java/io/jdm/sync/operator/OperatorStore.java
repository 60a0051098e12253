package io.jdm.sync.operator;

import io.jdm.common.meta.MetaTable;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator table, {@code {meta}.{task}_syncer_operator} on the target, beside the sync
 * checkpoint: one row per statement of an operator (a skip has one row and no statement), keyed by
 * source, binlog file, position and the statement's index. The command line writes and deletes
 * operators that wait; sync reads them at start and marks one applied in the transaction that moves
 * the checkpoints past its event (see the package documentation).
 */
public final class OperatorStore {
    private final TableName table;

    public OperatorStore(TableName table) {
        this.table = table;
    }

    /** {@code {meta}.{task}_syncer_operator}. */
    public static TableName table(String metaSchema, String task) {
        return MetaTable.SYNCER_OPERATOR.of(metaSchema, task);
    }

    public TableName table() {
        return table;
    }

    public void ensureTable(Connection c) throws SQLException {
        MetaTable.create(c, table, ""
                + "source_id VARCHAR(128) NOT NULL, binlog_name VARCHAR(255) NOT NULL, binlog_pos BIGINT NOT NULL,"
                + " seq INT NOT NULL, op VARCHAR(16) NOT NULL, statement LONGTEXT NULL,"
                + " source_statement LONGTEXT NULL,"
                + " created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), applied_at TIMESTAMP(3) NULL,"
                + " PRIMARY KEY (source_id, binlog_name, binlog_pos, seq)");
    }

    /** The operators of {@code sourceId} (every source's when null), by source and position; none without the table. */
    public List<BinlogOperator> list(Connection c, String sourceId) throws SQLException {
        String sql = "SELECT source_id, binlog_name, binlog_pos, op, statement, source_statement, created_at,"
                + " applied_at FROM " + table.quoted() + (sourceId == null ? "" : " WHERE source_id = ?")
                + " ORDER BY source_id, binlog_name, binlog_pos, seq";
        Map<String, BinlogOperator> byPosition = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (sourceId != null) {
                ps.setString(1, sourceId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String key = rs.getString(1) + "\0" + rs.getString(2) + "\0" + rs.getLong(3);
                    BinlogOperator before = byPosition.get(key);
                    List<String> statements = new ArrayList<>(before == null ? List.of() : before.statements());
                    if (rs.getString(5) != null) {
                        statements.add(rs.getString(5));
                    }
                    byPosition.put(key, new BinlogOperator(rs.getString(1), rs.getString(2), rs.getLong(3),
                            BinlogOperator.Kind.of(rs.getString(4)), statements, rs.getString(6), rs.getString(7),
                            rs.getString(8)));
                }
            }
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTableOrDatabase(e)) {
                return List.of(); // no operator was ever written for this task
            }
            throw e;
        }
        return List.copyOf(byPosition.values());
    }

    /** Writes {@code op} in one transaction, in place of a waiting operator at its position if there is one. */
    public void put(Connection c, BinlogOperator op) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            delete(c, op.sourceId(), op.file(), op.pos());
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table.quoted() + " (source_id,"
                    + " binlog_name, binlog_pos, seq, op, statement, source_statement) VALUES (?,?,?,?,?,?,?)")) {
                int rows = Math.max(1, op.statements().size());
                for (int i = 0; i < rows; i++) {
                    ps.setString(1, op.sourceId());
                    ps.setString(2, op.file());
                    ps.setLong(3, op.pos());
                    ps.setInt(4, i);
                    ps.setString(5, op.kind().word());
                    ps.setString(6, op.statements().isEmpty() ? null : op.statements().get(i));
                    ps.setString(7, op.sourceStatement());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** Deletes the operator at this position if it waits (an applied one stays); true when one was deleted. */
    public boolean delete(Connection c, String sourceId, String file, long pos) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table.quoted()
                + " WHERE source_id = ? AND binlog_name = ? AND binlog_pos = ? AND applied_at IS NULL")) {
            ps.setString(1, sourceId);
            ps.setString(2, file);
            ps.setLong(3, pos);
            return ps.executeUpdate() > 0;
        }
    }

    /** Marks {@code op} applied; run it in the transaction that moves the checkpoints past its event. */
    public void markApplied(Connection c, BinlogOperator op) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + table.quoted() + " SET applied_at ="
                + " CURRENT_TIMESTAMP(3) WHERE source_id = ? AND binlog_name = ? AND binlog_pos = ?"
                + " AND applied_at IS NULL")) {
            ps.setString(1, op.sourceId());
            ps.setString(2, op.file());
            ps.setLong(3, op.pos());
            ps.executeUpdate();
        }
    }
}
