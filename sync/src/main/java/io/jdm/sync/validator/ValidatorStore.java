package io.jdm.sync.validator;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.meta.MetaColumns;
import io.jdm.common.meta.MetaTable;
import io.jdm.common.sql.TableName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The validator's tables in the target's meta schema ({@link MetaTable#VALIDATOR_STATE},
 * {@code _PENDING}, {@code _ERROR}, {@code _TABLE}): what the running validator saves, and what
 * {@code jdm validation} reads and changes whether or not the task runs. The stage a command writes
 * is the running validator's instruction; the validator itself writes the stage only when it stops
 * on its own (too many pending rows).
 */
public final class ValidatorStore {
    public static final String RUNNING = "Running";
    public static final String STOPPED = "Stopped";
    /** An error row's status, as DM numbers them. */
    public static final int NEW = 1;
    public static final int IGNORED = 2;
    public static final int RESOLVED = 3;
    /** DM's error types, by the number the error table holds. */
    public static final List<String> ERROR_TYPES = List.of("", "Deleted rows exist", "Expected rows not exist",
            "Column data not matched");
    static final int DELETED_ROW_EXISTS = 1;
    static final int ROW_NOT_EXIST = 2;
    static final int ROW_DIFFERENT = 3;
    private static final int MAX_KEY_TEXT = 500;

    private final TableName state;
    private final TableName pending;
    private final TableName errors;
    private final TableName tables;

    public ValidatorStore(String metaSchema, String task) {
        this.state = MetaTable.VALIDATOR_STATE.of(metaSchema, task);
        this.pending = MetaTable.VALIDATOR_PENDING.of(metaSchema, task);
        this.errors = MetaTable.VALIDATOR_ERROR.of(metaSchema, task);
        this.tables = MetaTable.VALIDATOR_TABLE.of(metaSchema, task);
    }

    public void ensure(Connection c) throws SQLException {
        MetaTable.create(c, state, "source VARCHAR(128) NOT NULL PRIMARY KEY, mode VARCHAR(8) NOT NULL, "
                + "stage VARCHAR(16) NOT NULL, message TEXT, position VARCHAR(255), "
                + "procd_ins BIGINT NOT NULL DEFAULT 0, procd_upd BIGINT NOT NULL DEFAULT 0, "
                + "procd_del BIGINT NOT NULL DEFAULT 0, pending_ins BIGINT NOT NULL DEFAULT 0, "
                + "pending_upd BIGINT NOT NULL DEFAULT 0, pending_del BIGINT NOT NULL DEFAULT 0, "
                + "update_time TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP");
        // where validation is to be complete (jdm validation update), kept until the sync passes it
        MetaColumns.addIfMissing(c, state, "cutover_pos", "VARCHAR(255) NULL");
        MetaColumns.addIfMissing(c, state, "cutover_gtid", "TEXT NULL");
        // jdm validation start --start-time: changes the source logged before it are not compared (ms since 1970)
        MetaColumns.addIfMissing(c, state, "start_time", "BIGINT NULL");
        MetaTable.create(c, pending, "id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, source VARCHAR(128) NOT NULL, "
                + "schema_name VARCHAR(64) NOT NULL, table_name VARCHAR(64) NOT NULL, row_pk VARCHAR(500) NOT NULL, "
                + "data LONGTEXT NOT NULL, KEY idx_source (source)");
        MetaTable.create(c, errors, "id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, source VARCHAR(128) NOT NULL, "
                + "src_schema_name VARCHAR(64) NOT NULL, src_table_name VARCHAR(64) NOT NULL, "
                + "row_pk VARCHAR(500) NOT NULL, dst_schema_name VARCHAR(64) NOT NULL, "
                + "dst_table_name VARCHAR(64) NOT NULL, data LONGTEXT NOT NULL, dst_data LONGTEXT NOT NULL, "
                + "error_type INT NOT NULL, status INT NOT NULL, "
                + "create_time TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, "
                + "update_time TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, "
                + "UNIQUE KEY uk_source_schema_table_key (source, src_schema_name, src_table_name, row_pk), "
                + "KEY idx_status (status)");
        MetaTable.create(c, tables, "source VARCHAR(128) NOT NULL, src_schema_name VARCHAR(64) NOT NULL, "
                + "src_table_name VARCHAR(64) NOT NULL, dst_schema_name VARCHAR(64) NOT NULL, "
                + "dst_table_name VARCHAR(64) NOT NULL, stage VARCHAR(32) NOT NULL, message VARCHAR(512) NOT NULL, "
                + "PRIMARY KEY (source, src_schema_name, src_table_name)");
    }

    /** A source's validator as saved: its mode, stage, why it stopped, and its counters. */
    /**
     * @param startMillis changes the source logged before this time are not compared (ms since 1970), or null
     */
    public record State(String source, String mode, String stage, String message, String position,
                        long[] processed, long[] pendingRows, String cutoverPos, String cutoverGtid, Long startMillis) {
    }

    /** The source's state, or null when validation never ran for it (or the tables do not exist). */
    public State state(Connection c, String source) throws SQLException {
        for (State s : states(c)) {
            if (s.source().equals(source)) {
                return s;
            }
        }
        return null;
    }

    /** Every source's state; empty when the tables do not exist (validation never ran). */
    public List<State> states(Connection c) throws SQLException {
        List<State> out = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM " + state.quoted() + " ORDER BY source")) {
            // a table from before the cutover columns has none until a validator starts (ensure)
            boolean cutover = hasColumn(rs, "cutover_pos");
            boolean startTime = hasColumn(rs, "start_time");
            while (rs.next()) {
                long start = startTime ? rs.getLong("start_time") : 0;
                Long startMillis = startTime && !rs.wasNull() ? start : null;
                out.add(new State(rs.getString("source"), rs.getString("mode"), rs.getString("stage"),
                        rs.getString("message"), rs.getString("position"),
                        new long[] {rs.getLong("procd_ins"), rs.getLong("procd_upd"), rs.getLong("procd_del")},
                        new long[] {rs.getLong("pending_ins"), rs.getLong("pending_upd"), rs.getLong("pending_del")},
                        cutover ? rs.getString("cutover_pos") : null, cutover ? rs.getString("cutover_gtid") : null,
                        startMillis));
            }
        } catch (SQLException e) {
            if (!missing(e)) {
                throw e;
            }
        }
        return out;
    }

    private static boolean hasColumn(ResultSet rs, String name) throws SQLException {
        java.sql.ResultSetMetaData md = rs.getMetaData();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            if (name.equalsIgnoreCase(md.getColumnLabel(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sets where validation is to be complete, a binlog position {@code (file, pos)} or a GTID set
     * (null clears it).
     */
    public void setCutover(Connection c, String source, String pos, String gtid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + state.quoted()
                + " SET cutover_pos = ?, cutover_gtid = ? WHERE source = ?")) {
            ps.setString(1, pos);
            ps.setString(2, gtid);
            ps.setString(3, source);
            ps.executeUpdate();
        }
    }

    /** Sets the mode and stage (a command, or a task file that turns validation on); counters stay. */
    public void setStage(Connection c, String source, String mode, String stage, String message) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + state.quoted()
                + " (source, mode, stage, message) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE mode = VALUES(mode), "
                + "stage = VALUES(stage), message = VALUES(message)")) {
            ps.setString(1, source);
            ps.setString(2, mode);
            ps.setString(3, stage);
            ps.setString(4, message);
            ps.executeUpdate();
        }
    }

    /** Sets (or, null, clears) the time before which the source's changes are not compared. */
    public void setStartTime(Connection c, String source, Long millis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + state.quoted() + " SET start_time = ? WHERE source = ?")) {
            if (millis == null) {
                ps.setNull(1, java.sql.Types.BIGINT);
            } else {
                ps.setLong(1, millis);
            }
            ps.setString(2, source);
            ps.executeUpdate();
        }
    }

    /** The running validator's counters and where the sync had committed. */
    void saveCounters(Connection c, String source, String position, long[] processed, long[] pendingRows)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + state.quoted() + " SET position = ?, procd_ins = ?, "
                + "procd_upd = ?, procd_del = ?, pending_ins = ?, pending_upd = ?, pending_del = ? WHERE source = ?")) {
            ps.setString(1, position);
            for (int i = 0; i < 3; i++) {
                ps.setLong(2 + i, processed[i]);
                ps.setLong(5 + i, pendingRows[i]);
            }
            ps.setString(8, source);
            ps.executeUpdate();
        }
    }

    /** Replaces the source's saved pending rows with {@code rows} (each: table, key text, data), in one transaction. */
    void savePending(Connection c, String source, List<String[]> rows) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM " + pending.quoted() + " WHERE source = ?")) {
                del.setString(1, source);
                del.executeUpdate();
            }
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + pending.quoted()
                    + " (source, schema_name, table_name, row_pk, data) VALUES (?, ?, ?, ?, ?)")) {
                int n = 0;
                for (String[] r : rows) {
                    ins.setString(1, source);
                    ins.setString(2, r[0]);
                    ins.setString(3, r[1]);
                    ins.setString(4, keyText(r[2]));
                    ins.setString(5, r[3]);
                    ins.addBatch();
                    if (++n % 500 == 0) {
                        ins.executeBatch();
                    }
                }
                ins.executeBatch();
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** The data of the source's saved pending rows. */
    List<String> pending(Connection c, String source) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT data FROM " + pending.quoted()
                + " WHERE source = ? ORDER BY id")) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            if (!missing(e)) {
                throw e;
            }
        }
        return out;
    }

    /** Records a row that kept differing; one row per table and key, a recurring one new again. */
    void error(Connection c, String source, ValidatedTable t, String key, String data, String dstData, int type)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + errors.quoted() + " (source, src_schema_name, "
                + "src_table_name, row_pk, dst_schema_name, dst_table_name, data, dst_data, error_type, status) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, " + NEW + ") ON DUPLICATE KEY UPDATE data = VALUES(data), "
                + "dst_data = VALUES(dst_data), error_type = VALUES(error_type), status = " + NEW)) {
            ps.setString(1, source);
            ps.setString(2, t.source().schema());
            ps.setString(3, t.source().table());
            ps.setString(4, keyText(key));
            ps.setString(5, t.target().schema());
            ps.setString(6, t.target().table());
            ps.setString(7, data);
            ps.setString(8, dstData);
            ps.setInt(9, type);
            ps.executeUpdate();
        }
    }

    /** A table's stage: validated, or not and why. */
    void table(Connection c, String source, ValidatedTable t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + tables.quoted() + " (source, src_schema_name, "
                + "src_table_name, dst_schema_name, dst_table_name, stage, message) VALUES (?, ?, ?, ?, ?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE dst_schema_name = VALUES(dst_schema_name), "
                + "dst_table_name = VALUES(dst_table_name), stage = VALUES(stage), message = VALUES(message)")) {
            ps.setString(1, source);
            ps.setString(2, t.source().schema());
            ps.setString(3, t.source().table());
            ps.setString(4, t.target().schema());
            ps.setString(5, t.target().table());
            ps.setString(6, t.refusal() == null ? RUNNING : STOPPED);
            String m = t.refusal() == null ? "" : t.refusal();
            ps.setString(7, m.length() > 512 ? m.substring(0, 512) : m);
            ps.executeUpdate();
        }
    }

    /** Each table's status rows: source, srcTable, dstTable, stage, message, as DM's validation status shows them. */
    public List<Map<String, Object>> tableStatuses(Connection c) throws SQLException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT source, src_schema_name, src_table_name, dst_schema_name, "
                     + "dst_table_name, stage, message FROM " + tables.quoted()
                     + " ORDER BY source, src_schema_name, src_table_name")) {
            while (rs.next()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("source", rs.getString(1));
                m.put("srcTable", new TableName(rs.getString(2), rs.getString(3)).quoted());
                m.put("dstTable", new TableName(rs.getString(4), rs.getString(5)).quoted());
                m.put("stage", rs.getString(6));
                m.put("message", rs.getString(7));
                out.add(m);
            }
        } catch (SQLException e) {
            if (!missing(e)) {
                throw e;
            }
        }
        return out;
    }

    /** Error rows counted by source and status: {@code source -> [new, ignored, resolved]}. */
    public Map<String, long[]> errorCounts(Connection c) throws SQLException {
        Map<String, long[]> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT source, status, COUNT(*) FROM " + errors.quoted()
                     + " GROUP BY source, status")) {
            while (rs.next()) {
                int s = rs.getInt(2);
                if (s >= NEW && s <= RESOLVED) {
                    out.computeIfAbsent(rs.getString(1), k -> new long[3])[s - 1] = rs.getLong(3);
                }
            }
        } catch (SQLException e) {
            if (!missing(e)) {
                throw e;
            }
        }
        return out;
    }

    /** The error rows of the statuses given (all when empty), in DM's show-error shape. */
    public List<Map<String, Object>> errors(Connection c, List<Integer> statuses) throws SQLException {
        List<Map<String, Object>> out = new ArrayList<>();
        StringBuilder where = new StringBuilder();
        for (int s : statuses) {
            where.append(where.length() == 0 ? " WHERE status IN (" : ", ").append(s);
        }
        if (where.length() > 0) {
            where.append(')');
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, source, src_schema_name, src_table_name, data, "
                     + "dst_schema_name, dst_table_name, dst_data, error_type, status, "
                     + "DATE_FORMAT(update_time, '%Y-%m-%d %H:%i:%s') FROM " + errors.quoted() + where + " ORDER BY id")) {
            while (rs.next()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", Long.toString(rs.getLong(1)));
                m.put("source", rs.getString(2));
                m.put("srcTable", new TableName(rs.getString(3), rs.getString(4)).quoted());
                m.put("srcData", rs.getString(5));
                m.put("dstTable", new TableName(rs.getString(6), rs.getString(7)).quoted());
                m.put("dstData", rs.getString(8));
                int type = rs.getInt(9);
                m.put("errorType", type > 0 && type < ERROR_TYPES.size() ? ERROR_TYPES.get(type) : "");
                int status = rs.getInt(10);
                m.put("status", switch (status) {
                    case NEW -> "NewErr";
                    case IGNORED -> "IgnoredErr";
                    case RESOLVED -> "ResolvedErr";
                    default -> "InvalidErr";
                });
                m.put("time", rs.getString(11));
                m.put("message", "");
                out.add(m);
            }
        } catch (SQLException e) {
            if (!missing(e)) {
                throw e;
            }
        }
        return out;
    }

    /**
     * {@code ignore-error}, {@code resolve-error} ({@code status} {@link #IGNORED} or {@link #RESOLVED}) or
     * {@code clear-error} ({@code status} 0: deleted) of one error row, or of all when {@code id} is null.
     *
     * @return the rows changed
     */
    public int operate(Connection c, int status, Long id) throws SQLException {
        String where = id == null ? "" : " WHERE id = " + id;
        try (Statement st = c.createStatement()) {
            return st.executeUpdate(status == 0 ? "DELETE FROM " + errors.quoted() + where
                    : "UPDATE " + errors.quoted() + " SET status = " + status + where);
        } catch (SQLException e) {
            if (missing(e)) {
                return 0;
            }
            throw e;
        }
    }

    public TableName stateTable() {
        return state;
    }

    /** {@code e} says the table (or the meta schema) is not there: validation never ran for the task. */
    private static boolean missing(SQLException e) {
        return ErrorClassifier.isNoSuchTableOrDatabase(e);
    }

    /** A key's text as stored: long ones end in their SHA-256, so distinct keys stay distinct. */
    static String keyText(String key) {
        if (key.length() <= MAX_KEY_TEXT) {
            return key;
        }
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return key.substring(0, MAX_KEY_TEXT - 65) + "#" + HexFormat.of().formatHex(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
