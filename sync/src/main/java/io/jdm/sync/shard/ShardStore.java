package io.jdm.sync.shard;

import io.jdm.common.meta.MetaTable;

import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The shard DDL coordination of one task, in four tables of the target's meta schema, read and
 * written in the target's transactions by every process of the task (one per source, or one for
 * all): nothing else coordinates them.
 *
 * <pre>
 *  {task}_shard_source   a source has listed its shards (a lock waits until every source of the task has)
 *  {task}_shard_member   one row per shard: target table, source id, source table, applied_seq
 *                        (the group DDLs it has reached that ran on the target, its spool drained)
 *  {task}_shard_lock     one row per group DDL: target table, seq (1, 2, … per target table), the
 *                        statement for the target, the session it ran in, state waiting | executing | done
 *  {task}_shard_arrival  one row per shard that has reached a group DDL, with its position and statement
 * </pre>
 */
public final class ShardStore {
    public static final String WAITING = "waiting";
    public static final String EXECUTING = "executing";
    public static final String DONE = "done";

    private final String meta;
    private final String task;

    public ShardStore(String metaSchema, String task) {
        this.meta = metaSchema;
        this.task = task;
    }

    /** One group DDL as its lock row holds it. */
    public record Lock(TableName target, int seq, String ddl, String session, String firstShard, String firstDdl,
                       String state, String executor, String before) {
    }

    /** One shard's arrival at a group DDL. */
    public record Arrival(TableName target, int seq, String sourceId, TableName shard, String position,
                          String ddl) {
    }

    /** One shard of a group. */
    public record Member(TableName target, String sourceId, TableName shard, int appliedSeq) {
    }

    public TableName sources() {
        return MetaTable.SHARD_SOURCE.of(meta, task);
    }

    public TableName members() {
        return MetaTable.SHARD_MEMBER.of(meta, task);
    }

    public TableName locks() {
        return MetaTable.SHARD_LOCK.of(meta, task);
    }

    public TableName arrivals() {
        return MetaTable.SHARD_ARRIVAL.of(meta, task);
    }

    public String metaSchema() {
        return meta;
    }

    public String task() {
        return task;
    }

    public void ensureTables(Connection c) throws SQLException {
        String names = "target_schema VARCHAR(64) NOT NULL, target_table VARCHAR(64) NOT NULL, ";
        String shard = "source_id VARCHAR(128) NOT NULL, source_schema VARCHAR(64) NOT NULL, "
                + "source_table VARCHAR(64) NOT NULL, ";
        String tail = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
        try (Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(meta));
            st.execute("CREATE TABLE IF NOT EXISTS " + sources().quoted() + " (source_id VARCHAR(128) NOT NULL "
                    + "PRIMARY KEY, registered_at DATETIME(3) NOT NULL)" + tail);
            st.execute("CREATE TABLE IF NOT EXISTS " + members().quoted() + " (" + names + shard
                    + "applied_seq INT NOT NULL, PRIMARY KEY (target_schema, target_table, source_id, source_schema, "
                    + "source_table))" + tail);
            st.execute("CREATE TABLE IF NOT EXISTS " + locks().quoted() + " (" + names + "seq INT NOT NULL, "
                    + "ddl LONGTEXT NOT NULL, session TEXT NULL, first_shard VARCHAR(300) NOT NULL, "
                    + "first_ddl LONGTEXT NOT NULL, state VARCHAR(16) NOT NULL, executor VARCHAR(128) NULL, "
                    + "before_definition LONGTEXT NULL, updated_at DATETIME(3) NOT NULL, "
                    + "PRIMARY KEY (target_schema, target_table, seq))" + tail);
            st.execute("CREATE TABLE IF NOT EXISTS " + arrivals().quoted() + " (" + names + "seq INT NOT NULL, "
                    + shard + "binlog_position VARCHAR(600) NOT NULL, ddl LONGTEXT NOT NULL, "
                    + "arrived_at DATETIME(3) NOT NULL, PRIMARY KEY (target_schema, target_table, seq, source_id, "
                    + "source_schema, source_table))" + tail);
        }
    }

    /**
     * Lists a source's shards and marks the source as listed. A shard new to the group starts at the
     * group's last DDL that ran: it was created after it, or it would have been listed before.
     */
    public void register(Connection c, String sourceId, List<Member> shards) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO " + members().quoted()
                + " (target_schema, target_table, source_id, source_schema, source_table, applied_seq) VALUES "
                + "(?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) FROM " + locks().quoted()
                + " WHERE target_schema = ? AND target_table = ? AND state = 'done'))")) {
            for (Member m : shards) {
                ps.setString(1, m.target().schema());
                ps.setString(2, m.target().table());
                ps.setString(3, sourceId);
                ps.setString(4, m.shard().schema());
                ps.setString(5, m.shard().table());
                ps.setString(6, m.target().schema());
                ps.setString(7, m.target().table());
                ps.addBatch();
            }
            if (!shards.isEmpty()) {
                ps.executeBatch();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO " + sources().quoted()
                + " (source_id, registered_at) VALUES (?, UTC_TIMESTAMP(3))")) {
            ps.setString(1, sourceId);
            ps.executeUpdate();
        }
    }

    /** Every shard of the task, or of one source when {@code sourceId} is not null. */
    public List<Member> members(Connection c, String sourceId) throws SQLException {
        String sql = "SELECT target_schema, target_table, source_id, source_schema, source_table, applied_seq FROM "
                + members().quoted() + (sourceId == null ? "" : " WHERE source_id = ?")
                + " ORDER BY target_schema, target_table, source_id, source_schema, source_table";
        List<Member> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (sourceId != null) {
                ps.setString(1, sourceId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Member(new TableName(rs.getString(1), rs.getString(2)), rs.getString(3),
                            new TableName(rs.getString(4), rs.getString(5)), rs.getInt(6)));
                }
            }
        }
        return out;
    }

    /** The highest group DDL each of a source's shards has reached (absent: none). */
    public List<Arrival> arrivals(Connection c, String sourceId) throws SQLException {
        String sql = "SELECT target_schema, target_table, seq, source_id, source_schema, source_table, "
                + "binlog_position, ddl FROM " + arrivals().quoted() + (sourceId == null ? "" : " WHERE source_id = ?")
                + " ORDER BY target_schema, target_table, seq, source_id, source_schema, source_table";
        List<Arrival> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (sourceId != null) {
                ps.setString(1, sourceId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Arrival(new TableName(rs.getString(1), rs.getString(2)), rs.getInt(3),
                            rs.getString(4), new TableName(rs.getString(5), rs.getString(6)), rs.getString(7),
                            rs.getString(8)));
                }
            }
        }
        return out;
    }

    /** Every lock of the task, in order. */
    public List<Lock> locks(Connection c) throws SQLException {
        List<Lock> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(lockSelect()
                + " ORDER BY target_schema, target_table, seq")) {
            while (rs.next()) {
                out.add(lock(rs));
            }
        }
        return out;
    }

    /** The lock of a group DDL, or null; {@code forUpdate} locks its row (inside a transaction). */
    public Lock lock(Connection c, TableName target, int seq, boolean forUpdate) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(lockSelect() + " WHERE target_schema = ? AND target_table = ? "
                + "AND seq = ?" + (forUpdate ? " FOR UPDATE" : ""))) {
            ps.setString(1, target.schema());
            ps.setString(2, target.table());
            ps.setInt(3, seq);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? lock(rs) : null;
            }
        }
    }

    private String lockSelect() {
        return "SELECT target_schema, target_table, seq, ddl, session, first_shard, first_ddl, state, executor, "
                + "before_definition FROM " + locks().quoted();
    }

    private static Lock lock(ResultSet rs) throws SQLException {
        return new Lock(new TableName(rs.getString(1), rs.getString(2)), rs.getInt(3), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10));
    }

    /** The lock of a group DDL, created (waiting) by its first shard; the row stays locked until commit. */
    public Lock lockOrCreate(Connection c, TableName target, int seq, String ddl, String session, String shard,
                             String shardDdl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO " + locks().quoted()
                + " (target_schema, target_table, seq, ddl, session, first_shard, first_ddl, state, updated_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting', UTC_TIMESTAMP(3))")) {
            ps.setString(1, target.schema());
            ps.setString(2, target.table());
            ps.setInt(3, seq);
            ps.setString(4, ddl);
            ps.setString(5, session);
            ps.setString(6, shard);
            ps.setString(7, shardDdl);
            ps.executeUpdate();
        }
        return lock(c, target, seq, true);
    }

    public void setState(Connection c, TableName target, int seq, String state, String executor, String before)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + locks().quoted() + " SET state = ?, executor = ?, "
                + "before_definition = ?, updated_at = UTC_TIMESTAMP(3) WHERE target_schema = ? AND target_table = ? "
                + "AND seq = ?")) {
            ps.setString(1, state);
            ps.setString(2, executor);
            ps.setString(3, before);
            ps.setString(4, target.schema());
            ps.setString(5, target.table());
            ps.setInt(6, seq);
            ps.executeUpdate();
        }
    }

    public void arrive(Connection c, Arrival a) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO " + arrivals().quoted()
                + " (target_schema, target_table, seq, source_id, source_schema, source_table, binlog_position, ddl, "
                + "arrived_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(3))")) {
            ps.setString(1, a.target().schema());
            ps.setString(2, a.target().table());
            ps.setInt(3, a.seq());
            ps.setString(4, a.sourceId());
            ps.setString(5, a.shard().schema());
            ps.setString(6, a.shard().table());
            ps.setString(7, a.position());
            ps.setString(8, a.ddl());
            ps.executeUpdate();
        }
    }

    public void applied(Connection c, TableName target, String sourceId, TableName shard, int seq)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + members().quoted() + " SET applied_seq = "
                + "GREATEST(applied_seq, ?) WHERE target_schema = ? AND target_table = ? AND source_id = ? AND "
                + "source_schema = ? AND source_table = ?")) {
            ps.setInt(1, seq);
            ps.setString(2, target.schema());
            ps.setString(3, target.table());
            ps.setString(4, sourceId);
            ps.setString(5, shard.schema());
            ps.setString(6, shard.table());
            ps.executeUpdate();
        }
    }

    /**
     * Why group DDL {@code seq} of {@code target} cannot run on the target yet, or null when it can:
     * every source of the task has listed its shards, and every shard of the group has reached it with
     * the one before it run and drained. {@code except} (may be null) counts as arrived.
     */
    public String notReady(Connection c, TableName target, int seq, List<String> allSources, Member except)
            throws SQLException {
        StringBuilder in = new StringBuilder();
        for (String s : allSources) {
            in.append(in.length() == 0 ? "" : ", ").append(Identifiers.literal(s));
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT source_id FROM "
                + sources().quoted() + " WHERE source_id IN (" + in + ")")) {
            List<String> listed = new ArrayList<>();
            while (rs.next()) {
                listed.add(rs.getString(1));
            }
            List<String> missing = allSources.stream().filter(s -> !listed.contains(s)).toList();
            if (!missing.isEmpty()) {
                return "source(s) " + String.join(", ", missing) + " not started yet";
            }
        }
        List<String> waiting = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT m.source_id, m.source_schema, m.source_table, "
                + "m.applied_seq, a.seq IS NOT NULL FROM " + members().quoted() + " m LEFT JOIN " + arrivals().quoted()
                + " a ON a.target_schema = m.target_schema AND a.target_table = m.target_table AND a.seq = ? AND "
                + "a.source_id = m.source_id AND a.source_schema = m.source_schema AND a.source_table = m.source_table "
                + "WHERE m.target_schema = ? AND m.target_table = ?")) {
            ps.setInt(1, seq);
            ps.setString(2, target.schema());
            ps.setString(3, target.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(1);
                    TableName shard = new TableName(rs.getString(2), rs.getString(3));
                    boolean me = except != null && except.sourceId().equals(id) && except.shard().equals(shard);
                    boolean arrived = me || rs.getBoolean(5);
                    int applied = me ? except.appliedSeq() : rs.getInt(4);
                    if (!arrived || applied < seq - 1) {
                        waiting.add(id + ":" + shard);
                    }
                }
            }
        }
        return waiting.isEmpty() ? null : "waiting for " + String.join(", ", waiting);
    }
}
