package io.jdm.sync.shard;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.Hashes;
import io.jdm.sync.ring.BarrierStep;
import io.jdm.sync.ring.SourceSession;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * shard-mode optimistic for one source of a task (see {@link #arrive}). Its state is the shape
 * tables of the meta schema ({@code jdm_shape_*}), one per shard and one per merged table as it was
 * before a shard's DDL first changed it, and DM's named lock per merged table.
 */
final class OptimisticShards {
    private static final Logger LOG = LoggerFactory.getLogger(OptimisticShards.class);

    /** The reader thread's connection to the target. */
    interface ReaderConnection {
        Connection get() throws SQLException;
    }

    private final ConnectionSpec target;
    private final ShardStore store;
    private final String sourceId;
    private final List<String> allSources;
    private final ReaderConnection conn;
    /** This source's shards that have a shape table (written at barriers, read by the reader). */
    private final Set<TableName> shapes = ConcurrentHashMap.newKeySet();

    OptimisticShards(ConnectionSpec target, ShardStore store, String sourceId, List<String> allSources,
                     ReaderConnection conn) {
        this.target = target;
        this.store = store;
        this.sourceId = sourceId;
        this.allSources = allSources;
        this.conn = conn;
    }

    /** Where a shard's definition at the reader's start is: its shape table, once it has one. */
    TableName definitionOf(TableName shard) {
        return shapes.contains(shard) ? shapeName(shard, "") : null;
    }

    /**
     * shard-mode optimistic, DM's way: nothing waits. A shard's DDL is checked, behind its barrier and
     * under the group's advisory lock (GET_LOCK, which every process of the task takes), against the
     * shards' joined table ({@link TableShape#join}): when the join does not change (a column another
     * shard added already, a column other shards still have dropped by one), the statement is skipped;
     * when it does, the statement runs on the target, provided it makes the target exactly the new
     * join (else the task stops with one line saying what differs); shards that cannot be joined (one
     * column of two unrelated types, say) stop the task naming both. Each shard's definition as of its
     * checkpoint is kept in a shape table of the meta schema, from which its tracker copy starts.
     */
    BarrierStep arrive(ShardCoordinator.Shard s, String targetSql, String sourceSql, SourceSession session,
                                         TableName copy, Function<TableName, String> sqlOn) {
        int n = ++s.arrived;
        TableName next = shapeName(s.source, "n" + n);
        String who = sourceId + ":" + s.source;
        try (Statement st = conn.get().createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + next.quoted());
            st.execute("CREATE TABLE " + next.quoted() + " LIKE " + copy.quoted());
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: shard-mode optimistic: cannot keep the definition of " + who, e);
        }
        String ddl = GroupDdl.normalize(targetSql);
        String statement = GroupDdl.normalize(sourceSql);
        return new ShardStep(false, "shard " + who + ": " + ddl, c -> settle(s, next, ddl, statement, session,
                sqlOn), () -> { });
    }

    /** At the shard's barrier: the DDL runs on the target or is skipped, as the joined table says. */
    private void settle(ShardCoordinator.Shard s, TableName next, String ddl, String sourceSql, SourceSession session,
                        Function<TableName, String> sqlOn) throws SQLException {
        String who = sourceId + ":" + s.source;
        try (Connection w = DataSources.connect(target); Statement st = w.createStatement()) {
            lock(st, s.target);
            try {
                TableShape mine = TableShape.read(w, next);
                if (mine == null) {
                    throw new FatalException("sync: shard-mode optimistic: the definition of " + who + " after \""
                            + sourceSql + "\" is gone from " + store.metaSchema() + "; restart the task");
                }
                List<TableShape> others = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (ShardStore.Member m : store.members(w, null)) {
                    if (!m.target().equals(s.target) || (m.sourceId().equals(sourceId) && m.shard().equals(s.source))) {
                        continue;
                    }
                    TableShape o = TableShape.read(w, shapeName(m.sourceId(), m.shard(), ""));
                    if (o != null) {
                        others.add(o);
                        names.add(m.sourceId() + ":" + m.shard());
                    }
                }
                TableShape now = TableShape.read(w, s.target);
                String notStarted = store.notReady(w, s.target, Integer.MAX_VALUE, allSources, null);
                if (notStarted != null && notStarted.startsWith("source") && now != null) {
                    others.add(now); // a source that has not started may have every column the target has
                    names.add("the target (" + notStarted + ")");
                }
                TableShape before = TableShape.read(w, shapeName(s.source, ""));
                TableShape joined = join(others, names, mine, who, ddl, sourceSql);
                TableShape joinedBefore = null;
                if (before != null) {
                    try {
                        joinedBefore = TableShape.join(concat(others, before), concat(names, who));
                    } catch (TableShape.Conflict e) {
                        joinedBefore = null;
                    }
                }
                boolean run;
                if (now != null && now.sameAs(joined)) {
                    run = false;
                } else if (joinedBefore != null && joinedBefore.sameAs(joined)) {
                    run = false;
                } else {
                    TableShape predicted = predict(w, s, ddl, session, sqlOn);
                    if (predicted == null || !predicted.sameAs(joined)) {
                        throw new FatalException("sync: shard-mode optimistic: \"" + sourceSql + "\" of " + who
                                + " would not make " + s.target + " the shards' joined table ("
                                + (predicted == null ? "the target table is missing" : predicted.diff(joined))
                                + "); bring " + s.target + " to it by hand, skip the statement with a filter rule "
                                + "(action: Ignore, an sql-pattern matching it) and restart the task");
                    }
                    run = true;
                }
                if (run) {
                    // the shards with no DDL of their own yet are still at the joined table as it is now
                    st.execute("CREATE TABLE IF NOT EXISTS " + originName(s.target).quoted() + " LIKE "
                            + s.target.quoted());
                    GroupDdl.run(w, new ShardStore.Lock(s.target, 0, ddl, GroupDdl.json(session), who, sourceSql,
                            ShardStore.EXECUTING, sourceId, null), false);
                    LOG.info("sync: shard {} changed the shards' joined table: ran on the target: {}", who, ddl);
                } else {
                    LOG.info("sync: shard {}: the shards' joined table stays as it is: not run on the target: {}", who,
                            ddl);
                }
                TableName shape = shapeName(s.source, "");
                st.execute("DROP TABLE IF EXISTS " + shape.quoted());
                st.execute("RENAME TABLE " + next.quoted() + " TO " + shape.quoted());
                shapes.add(s.source);
            } finally {
                unlock(st, s.target);
            }
        }
    }

    /** Takes the named lock of a merged table that every process of the task takes before changing it. */
    private void lock(Statement st, TableName merged) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT GET_LOCK(" + Identifiers.literal(lockName(merged)) + ", 600)")) {
            if (!rs.next() || rs.getInt(1) != 1) {
                throw new FatalException("sync: shard-mode optimistic: another process held the DDL lock of "
                        + merged + " for 10 minutes; check the task's other processes and restart");
            }
        }
    }

    private void unlock(Statement st, TableName merged) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT RELEASE_LOCK(" + Identifiers.literal(lockName(merged)) + ")")) {
            rs.next();
        }
    }

    private String lockName(TableName merged) {
        return "jdm-shard-" + Hashes.sha256Hex(store.metaSchema() + "\0" + store.task() + "\0" + merged, 24);
    }

    private TableShape join(List<TableShape> others, List<String> names, TableShape mine, String who, String ddl,
                            String sourceSql) {
        try {
            return TableShape.join(concat(others, mine), concat(names, who));
        } catch (TableShape.Conflict e) {
            throw new FatalException("sync: shard-mode optimistic: after \"" + sourceSql + "\" of " + who
                    + " the shards of the merged table conflict: " + e.getMessage() + "; make the shards' tables "
                    + "compatible (apply the right statement to the target and skip this one with a filter rule) and "
                    + "restart the task");
        }
    }

    /** The target table as the statement would leave it: run on an empty copy of it. */
    private TableShape predict(Connection w, ShardCoordinator.Shard s, String ddl, SourceSession session,
                               Function<TableName, String> sqlOn) throws SQLException {
        TableName scratch = shapeName(s.source, "p");
        try (Statement st = w.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + scratch.quoted());
            try {
                st.execute("CREATE TABLE " + scratch.quoted() + " LIKE " + s.target.quoted());
            } catch (SQLException e) {
                return null;
            }
            try {
                GroupDdl.run(w, new ShardStore.Lock(s.target, 0, sqlOn.apply(scratch), GroupDdl.json(session), "", ddl,
                        ShardStore.EXECUTING, sourceId, null), false);
                return TableShape.read(w, scratch);
            } finally {
                st.execute("DROP TABLE IF EXISTS " + scratch.quoted());
            }
        }
    }

    /**
     * Optimistic: every shard of this source that has no shape table yet gets one, as the merged table
     * was before a shard's DDL first changed it (a shard with no DDL of its own is still there), or, when
     * none has, as the target table is. Under the merged table's lock, so a change cannot come between
     * the look and the copy. The tracker starts the shard's copy from it, at this start and every later one.
     */
    void start(Connection c, Collection<ShardCoordinator.Shard> shards) throws SQLException {
        List<String> left = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM "
                + "information_schema.TABLES WHERE TABLE_SCHEMA = " + Identifiers.literal(store.metaSchema())
                + " AND TABLE_NAME LIKE 'jdm\\_shape\\_%\\_n%'")) {
            while (rs.next()) {
                left.add(rs.getString(1));
            }
        }
        try (Statement st = c.createStatement()) {
            for (ShardCoordinator.Shard s : shards) {
                // definitions read ahead of a barrier that a stop never reached: read again from the stream
                String prefix = shapeName(s.source, "n").table();
                for (String t : left) {
                    if (t.startsWith(prefix)) {
                        st.execute("DROP TABLE IF EXISTS " + new TableName(store.metaSchema(), t).quoted());
                    }
                }
                TableName shape = shapeName(s.source, "");
                if (TableShape.read(c, shape) == null) {
                    lock(st, s.target);
                    try {
                        TableName origin = originName(s.target);
                        TableName from = TableShape.read(c, origin) != null ? origin : s.target;
                        if (TableShape.read(c, from) != null) {
                            st.execute("CREATE TABLE IF NOT EXISTS " + shape.quoted() + " LIKE " + from.quoted());
                        }
                    } finally {
                        unlock(st, s.target);
                    }
                }
                if (TableShape.read(c, shape) != null) {
                    shapes.add(s.source);
                }
            }
        }
    }

    private static <T> List<T> concat(List<T> a, T b) {
        List<T> out = new ArrayList<>(a);
        out.add(b);
        return out;
    }

    /**
     * The merged table as it was before a shard's DDL first changed it: where a shard whose source
     * starts later, or that has no shape table yet, starts. Named like a shape, without a suffix.
     */
    private TableName originName(TableName merged) {
        return new TableName(store.metaSchema(), "jdm_shape_" + Hashes.sha256Hex(store.task() + "\0\0"
                + merged.schema() + "\0" + merged.table(), 16));
    }

    private TableName shapeName(TableName shard, String suffix) {
        return shapeName(sourceId, shard, suffix);
    }

    private TableName shapeName(String source, TableName shard, String suffix) {
        return new TableName(store.metaSchema(), "jdm_shape_" + Hashes.sha256Hex(store.task() + "\0" + source + "\0"
                + shard.schema() + "\0" + shard.table(), 16) + (suffix.isEmpty() ? "" : "_" + suffix));
    }
}
