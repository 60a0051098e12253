package io.jdm.load;

import io.jdm.common.dumpdir.DumpFileNames;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.meta.MetaColumns;
import io.jdm.common.meta.MetaTable;
import io.jdm.common.schema.TableEngines;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@code {meta-schema}.{task}_loader_checkpoint} in the target: one row per data file (and one per
 * target table whose indexes were deferred, one per table whose automatic statistics were paused). A file's row is updated in the same transaction as
 * the statements it covers, so after a crash at any instant the row says exactly how far the data
 * got: {@code offset} is the end of the last committed statement in the uncompressed stream, and
 * {@code rows_loaded} the rows of the statements before it, so a resumed file's row count can be
 * checked against the dump's record at its end.
 */
final class LoaderCheckpoint {
    static final String PENDING = "pending";
    static final String LOADING = "loading";
    static final String FINISHED = "finished";
    /**
     * A statement into a table outside transactions is about to run at {@code offset}: its rows may
     * be there in part ({@link TableEngines}).
     */
    static final String APPLYING = "applying";
    private static final String STATS = "stats:";
    private static final String INDEXES = "indexes:";

    /** One row. {@code endOffset} is the file's size, or 0 while a compressed file's is unknown. */
    record Row(String file, long offset, long endOffset, String status, long rows) {
        Row(String file, long offset, long endOffset, String status) {
            this(file, offset, endOffset, status, 0);
        }

        boolean finished() {
            return FINISHED.equals(status);
        }

        /**
         * Whether rows of this file may be in the target: a transaction committed past its start, or
         * a statement announced ({@link #APPLYING}) into a table outside transactions.
         */
        boolean begun() {
            return !PENDING.equals(status) || offset > 0;
        }
    }

    private final String metaSchema;
    private final String table;
    private final String tableName;
    private final String sourceId;

    LoaderCheckpoint(String metaSchema, String task, String sourceId) {
        this.metaSchema = metaSchema;
        this.tableName = MetaTable.LOADER_CHECKPOINT.of(metaSchema, task).table();
        this.table = Identifiers.quote(metaSchema) + "." + Identifiers.quote(tableName);
        this.sourceId = sourceId;
    }

    String table() {
        return table;
    }

    /** The row key of a target table's deferred indexes. */
    static String indexKey(TableName target) {
        return INDEXES + target.quoted();
    }

    /** The row key of a target table whose automatic statistics the load paused. */
    static String statsKey(TableName target) {
        return STATS + target.quoted();
    }

    /** The table of a {@link #statsKey} row; null for any other row. */
    static TableName pausedTable(String key) {
        return tableOf(key, STATS);
    }

    /** The table of an {@link #indexKey} row; null for any other row. */
    static TableName deferredTable(String key) {
        return tableOf(key, INDEXES);
    }

    /**
     * A row that says a target table was created without the secondary indexes it is still to get: it
     * outlives {@link #clear}, as the table does.
     */
    static boolean indexesPending(Row r) {
        return deferredTable(r.file()) != null && !r.finished();
    }

    private static TableName tableOf(String key, String prefix) {
        if (!key.startsWith(prefix)) {
            return null;
        }
        try {
            String[] name = new SqlCursor(key.substring(prefix.length())).qualifiedName();
            return name[0] == null ? null : new TableName(name[0], name[1]);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The target table the rows of a data file go to; null for a key that is not a data file's. */
    static TableName targetOf(String key, UnaryOperator<TableName> router) {
        DumpFileNames.Parsed p = DumpDirectory.parse(key, DumpFileNames.Escaping.PERCENT);
        return p == null || p.kind() != DumpFileNames.Kind.DATA ? null
                : router.apply(new TableName(p.schema(), p.table()));
    }

    void ensureTable(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(metaSchema));
            st.execute("CREATE TABLE IF NOT EXISTS " + table + " ("
                    + "`source_id` VARCHAR(128) NOT NULL, "
                    + "`file` VARCHAR(512) NOT NULL, "
                    + "`offset` BIGINT NOT NULL DEFAULT 0, "
                    + "`end_offset` BIGINT NOT NULL DEFAULT 0, "
                    + "`status` VARCHAR(16) NOT NULL, "
                    + "`rows_loaded` BIGINT NOT NULL DEFAULT 0, "
                    + "`updated_at` TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) "
                    + "ON UPDATE CURRENT_TIMESTAMP(3), "
                    + "PRIMARY KEY (`source_id`, `file`)"
                    + ") DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin");
        }
        // a table created before rows were counted gets the column; its rows count from 0
        MetaColumns.addIfMissing(c, new TableName(metaSchema, tableName), "rows_loaded",
                "BIGINT NOT NULL DEFAULT 0 AFTER `status`");
    }

    Map<String, Row> readAll(Connection c) throws SQLException {
        Map<String, Row> rows = new HashMap<>();
        // a locking read waits for a COMMIT a killed process left running (see CheckpointStore.load in sync)
        try (PreparedStatement ps = c.prepareStatement("SELECT `file`, `offset`, `end_offset`, `status`, "
                + "`rows_loaded` FROM " + table + " WHERE `source_id` = ?" + (c.getAutoCommit() ? " FOR UPDATE" : ""))) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.put(rs.getString(1), new Row(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getString(4),
                            rs.getLong(5)));
                }
            }
        }
        return rows;
    }

    /**
     * The rows of every source of the task whose files are {@link Row#begun}, by source id; none
     * when the task has no checkpoint table.
     */
    Map<String, List<Row>> begunOfEverySource(Connection c) throws SQLException {
        Map<String, List<Row>> begun = new HashMap<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT `source_id`, `file`, `offset`,"
                + " `end_offset`, `status`, `rows_loaded` FROM " + table)) {
            while (rs.next()) {
                Row r = new Row(rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getString(5), rs.getLong(6));
                if (r.begun()) {
                    begun.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(r);
                }
            }
        } catch (SQLException e) {
            if (!ErrorClassifier.isNoSuchTableOrDatabase(e) || ErrorClassifier.isRetriable(e)) {
                throw e;
            }
        }
        return begun;
    }

    /**
     * Deletes the rows of this source, what a load of another dump starts from, but for those of
     * {@link #indexesPending}: their tables, emptied, stay without those indexes till the next load adds them.
     */
    void clear(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE `source_id` = ? AND NOT "
                + "(`file` LIKE '" + INDEXES + "%' AND `status` = ?)")) {
            ps.setString(1, sourceId);
            ps.setString(2, PENDING);
            ps.executeUpdate();
        }
    }

    /** The row of one key; a missing row reads as pending at offset 0. */
    Row read(Connection c, String file) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT `offset`, `end_offset`, `status`, `rows_loaded` FROM "
                + table + " WHERE `source_id` = ? AND `file` = ?" + (c.getAutoCommit() ? " FOR UPDATE" : ""))) {
            ps.setString(1, sourceId);
            ps.setString(2, file);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Row(file, rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getLong(4))
                        : new Row(file, 0, 0, PENDING);
            }
        }
    }

    /** Inserts pending rows for keys that have none yet; existing rows are kept as they are. */
    void register(Connection c, List<Row> rows) throws SQLException {
        for (int from = 0; from < rows.size(); from += 500) {
            List<Row> chunk = rows.subList(from, Math.min(rows.size(), from + 500));
            StringBuilder sql = new StringBuilder("INSERT IGNORE INTO ").append(table)
                    .append(" (`source_id`, `file`, `offset`, `end_offset`, `status`) VALUES ");
            for (int i = 0; i < chunk.size(); i++) {
                sql.append(i == 0 ? "(?, ?, 0, ?, ?)" : ", (?, ?, 0, ?, ?)");
            }
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                int p = 1;
                for (Row r : chunk) {
                    ps.setString(p++, sourceId);
                    ps.setString(p++, r.file());
                    ps.setLong(p++, r.endOffset());
                    ps.setString(p++, PENDING);
                }
                ps.executeUpdate();
            }
        }
    }

    /**
     * Moves a row forward inside the caller's transaction; the caller commits it together with
     * the data it describes.
     */
    void advance(Connection c, String file, long offset, long endOffset, String status, long rows)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table
                + " (`source_id`, `file`, `offset`, `end_offset`, `status`, `rows_loaded`) VALUES (?, ?, ?, ?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE `offset` = VALUES(`offset`), `end_offset` = VALUES(`end_offset`), "
                + "`status` = VALUES(`status`), `rows_loaded` = VALUES(`rows_loaded`)")) {
            ps.setString(1, sourceId);
            ps.setString(2, file);
            ps.setLong(3, offset);
            ps.setLong(4, endOffset);
            ps.setString(5, status);
            ps.setLong(6, rows);
            ps.executeUpdate();
        }
    }
}
