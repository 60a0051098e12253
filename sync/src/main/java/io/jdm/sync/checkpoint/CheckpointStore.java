package io.jdm.sync.checkpoint;

import io.jdm.common.meta.MetaTable;
import io.jdm.common.meta.MetaColumns;
import io.jdm.common.position.BinlogPosition;

import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.sync.ring.ChangePos;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The sync checkpoint table in the target. One row per (source, generation, writer) holds that
 * writer's position and is written in the same transaction as the writer's data; the row with
 * writer {@code -1} is the global checkpoint (everything before it applied), written on its own.
 * Each row also names the source server whose binlog the position is in ({@code source_server},
 * see {@link SourceServer}): with GTID off a file and offset mean nothing on another server.
 */
public final class CheckpointStore {
    public static final int GLOBAL = -1;
    private final TableName table;
    private final String sourceId;
    /** The source server this run reads, written with every position; empty until known. */
    private volatile String server = "";

    public CheckpointStore(TableName table, String sourceId) {
        this.table = table;
        this.sourceId = sourceId;
    }

    public TableName table() {
        return table;
    }

    public void ensureTable(Connection c) throws SQLException {
        MetaTable.create(c, table, ""
                + "source_id VARCHAR(128) NOT NULL, gen INT NOT NULL, writer INT NOT NULL,"
                + " worker_count INT NOT NULL, binlog_name VARCHAR(255) NOT NULL, txn_pos BIGINT NOT NULL,"
                + " event_idx BIGINT NOT NULL, row_idx INT NOT NULL, gtid_before TEXT NOT NULL,"
                + " source_server VARCHAR(255) NOT NULL DEFAULT '',"
                + " updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),"
                + " PRIMARY KEY (source_id, gen, writer)");
        // a table made before positions named their server gets the column; its rows name none
        MetaColumns.addIfMissing(c, table, "source_server", "VARCHAR(255) NOT NULL DEFAULT '' AFTER gtid_before");
    }

    /** Names the source server the positions written from now on are in ({@link SourceServer#id()}). */
    public void server(String id) {
        this.server = id == null ? "" : id;
    }

    /**
     * What is stored for this source: writer generations (oldest first), the global checkpoint and
     * the source server the newest positions were read from (empty when no row names one).
     */
    public record Saved(List<Generation> generations, ChangePos global, String server) {
        public boolean isEmpty() {
            return generations.isEmpty();
        }

        public Generation latest() {
            return generations.isEmpty() ? null : generations.get(generations.size() - 1);
        }

        /** The lowest position any writer stored: every change before it is applied; null when none is stored. */
        public ChangePos lowest() {
            return generations.stream().map(Generation::min).filter(Objects::nonNull).min(ChangePos::compareTo)
                    .orElse(null);
        }

        /**
         * Where the next start reads from: the lowest writer position, or the DDL {@code pending}
         * marks when it is after it (every writer committed everything before that DDL, and reading
         * earlier would decode those rows with table definitions it may have changed already);
         * null when nothing is stored.
         */
        public BinlogPosition resumePoint(DdlMarkers.Marker pending) {
            ChangePos min = lowest();
            if (min == null) {
                return null;
            }
            return (pending != null && pending.pos().isAfter(min) ? pending.pos() : min).restartPoint();
        }
    }

    /**
     * Every row of the source. Read with a locking read when {@code c} autocommits: a writer of a
     * process that was just killed may have a COMMIT of its batch and its row still running on the
     * target, and a plain read would return the row from before it, so the batch would be applied
     * twice; the locking read waits for that commit (or its rollback) and returns what it left.
     */
    public Saved load(Connection c) throws SQLException {
        Map<Integer, ChangePos[]> gens = new TreeMap<>();
        ChangePos global = null;
        String server = "";
        try (PreparedStatement ps = c.prepareStatement("SELECT gen, writer, worker_count, binlog_name, txn_pos,"
                + " event_idx, row_idx, gtid_before, source_server FROM " + table.quoted()
                + " WHERE source_id = ? ORDER BY updated_at" + (c.getAutoCommit() ? " FOR UPDATE" : ""))) {
            ps.setString(1, sourceId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ChangePos p = new ChangePos(rs.getString(4), rs.getLong(5), rs.getLong(6), rs.getInt(7),
                            rs.getString(8));
                    if (!rs.getString(9).isEmpty()) {
                        server = rs.getString(9); // the latest written wins
                    }
                    int writer = rs.getInt(2);
                    if (writer == GLOBAL) {
                        global = p;
                    } else {
                        int count = rs.getInt(3);
                        ChangePos[] arr = gens.computeIfAbsent(rs.getInt(1), g -> new ChangePos[count]);
                        if (writer < arr.length) {
                            arr[writer] = p;
                        }
                    }
                }
            }
        }
        List<Generation> out = new ArrayList<>();
        gens.forEach((id, arr) -> out.add(new Generation(id, arr)));
        return new Saved(out, global, server);
    }

    /** Deletes every row of the source: the next start reads from its start position. */
    public void clear(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table.quoted() + " WHERE source_id = ?")) {
            ps.setString(1, sourceId);
            ps.executeUpdate();
        }
    }

    /** Appends the upsert of one writer's row; run it inside the writer's transaction. */
    public void appendUpsert(StringBuilder sb, int gen, int writer, int workerCount, ChangePos p) {
        sb.append("INSERT INTO ").append(table.quoted())
                .append(" (source_id, gen, writer, worker_count, binlog_name, txn_pos, event_idx, row_idx, gtid_before,"
                        + " source_server) VALUES (")
                .append(Identifiers.literal(sourceId)).append(',').append(gen).append(',').append(writer).append(',')
                .append(workerCount).append(',').append(Identifiers.literal(p.file())).append(',')
                .append(p.txnPos()).append(',').append(p.event()).append(',').append(p.row()).append(',')
                .append(Identifiers.literal(p.gtidBefore())).append(',').append(Identifiers.literal(server))
                .append(") ON DUPLICATE KEY UPDATE binlog_name = VALUES(binlog_name), txn_pos = VALUES(txn_pos),"
                        + " event_idx = VALUES(event_idx), row_idx = VALUES(row_idx), gtid_before = VALUES(gtid_before),"
                        + " worker_count = VALUES(worker_count), source_server = VALUES(source_server)");
    }

    /** This writer's stored position, to learn after a lost connection whether a commit went through. */
    public ChangePos read(Connection c, int gen, int writer) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT binlog_name, txn_pos, event_idx, row_idx, gtid_before"
                + " FROM " + table.quoted() + " WHERE source_id = ? AND gen = ? AND writer = ?")) {
            ps.setString(1, sourceId);
            ps.setInt(2, gen);
            ps.setInt(3, writer);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new ChangePos(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getInt(4),
                        rs.getString(5)) : null;
            }
        }
    }

    /** Starts a generation: every writer's row at {@code start}, meaning "nothing after it applied". */
    public void startGeneration(Connection c, int gen, int workerCount, ChangePos start) throws SQLException {
        StringBuilder sb = new StringBuilder();
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            for (int w = 0; w < workerCount; w++) {
                sb.setLength(0);
                appendUpsert(sb, gen, w, workerCount, start);
                st.execute(sb.toString());
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** Writes the global checkpoint and drops generations older than {@code keepFrom}. */
    public void saveGlobal(Connection c, ChangePos global, int workerCount, int keepFrom) throws SQLException {
        StringBuilder sb = new StringBuilder();
        appendUpsert(sb, 0, GLOBAL, workerCount, global);
        try (Statement st = c.createStatement()) {
            st.execute(sb.toString());
            st.execute("DELETE FROM " + table.quoted() + " WHERE source_id = " + Identifiers.literal(sourceId)
                    + " AND writer <> " + GLOBAL + " AND gen < " + keepFrom);
        }
    }
}
