package io.jdm.sync.shard;

import io.jdm.common.config.EventType;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.ring.BarrierStep;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.SourceSession;
import io.jdm.sync.ring.TableInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DM's pessimistic shard mode for one source of a task: a group DDL (ALTER TABLE, CREATE/DROP
 * INDEX of a table that routes merge with others into one target table) runs on the target once,
 * when every shard of the group, on every source, has reached the same statement.
 *
 * <p>No stream ever waits. A shard that reaches a group DDL before the others goes on being read:
 * its later rows, which already have the new shape, are written to its own <em>spool</em> in the
 * meta schema (a table like the shard after the DDL, plus a deleted flag; each row holds its last
 * image), in the writers' transactions with their checkpoints, so nothing is lost at a crash and
 * memory stays bounded. The shards that have not reached it go on writing to the target table,
 * which still has the old shape. When the last shard arrives, the statement runs on the target;
 * then each spooled shard's reader, at its next transaction boundary, drains its spool into the
 * target table (deletes, then upserts of the last images) in one transaction with its checkpoint,
 * and writes to the target again. Group DDLs of one target table are numbered (seq 1, 2, …): a
 * shard that reaches a second DDL while still spooled starts a second spool, drained after the first.
 *
 * <p>Everything the processes of a task share lives in {@link ShardStore}'s tables on the target.
 * Two shards that reach different statements at the same seq stop the task with one line naming both.
 */
public final class ShardCoordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardCoordinator.class);
    /** The spool's flag column: 1 for a row the shard deleted. */
    public static final String DELETED = "jdm_spool_deleted";
    private static final long POLL_MILLIS = 500;

    private final ConnectionSpec target;
    private final ShardStore store;
    private final String sourceId;
    private final List<String> allSources;
    /** shard-mode optimistic: its part; null in pessimistic mode. */
    private final OptimisticShards optimistic;
    private final Spools spools;
    private final Function<TableName, ExtraColumns> extraColumns;
    /** Reader thread: this source's shards, by source table. */
    private final Map<TableName, Shard> shards = new HashMap<>();
    /** Drains wait for a boundary after it ({@link #drainAfter}); null: none to wait for. */
    private volatile ChangePos drainHorizon;
    /** Shards (source table) whose first spool may be drained now: written by the poller. */
    private final Set<TableName> drainable = ConcurrentHashMap.newKeySet();
    /** The poller's view: shard → its first spooled seq; replaced by the reader thread. */
    private volatile Map<TableName, Head> heads = Map.of();
    private ScheduledExecutorService poller;
    private Connection conn;
    /** What /status shows: the locks this source's shards wait on, refreshed by the poller. */
    private volatile List<Group> groups = List.of();

    /**
     * A group DDL this source's shards wait on, as DM's query-status shows it (ShardingGroup):
     * shards named {@code source-`db`.`table`}; {@code unsyncedHere} counts the unsynced shards of
     * this source (DM's {@code dm_syncer_unsynced_table_number}, the subtask's own).
     */
    public record Group(TableName target, int seq, String ddl, String firstLocation, List<String> synced,
                        List<String> unsynced, int unsyncedHere) {
    }

    /** The group DDLs this source's shards have reached and that have not run on the target yet. */
    public List<Group> unresolved() {
        return groups;
    }

    private record Head(TableName target, int seq) {
    }

    /** One shard of this source: how far it got, and its spools not drained yet (oldest first). */
    static final class Shard {
        final TableName source;
        final TableName target;
        /** Pessimistic: the group DDLs it has reached; optimistic: how many DDLs it has sent this run. */
        int arrived;
        final ArrayDeque<Integer> spooling = new ArrayDeque<>();
        TableInfo spoolInfo;
        TableInfo spoolInfoOf;

        Shard(TableName source, TableName target) {
            this.source = source;
            this.target = target;
        }
    }

    /**
     * @param extraColumns the columns a shard's route adds to its merged table (none for most routes),
     *     written with the rows a pessimistic group DDL kept in the shard's spool
     */
    public ShardCoordinator(ConnectionSpec target, String metaSchema, String task, String sourceId,
                            List<String> allSources, boolean optimistic,
                            Function<TableName, ExtraColumns> extraColumns) {
        this.target = target;
        this.extraColumns = extraColumns;
        this.store = new ShardStore(metaSchema, task);
        this.spools = new Spools(store, sourceId);
        this.optimistic = optimistic
                ? new OptimisticShards(target, store, sourceId, List.copyOf(allSources), this::conn) : null;
        this.sourceId = sourceId;
        this.allSources = List.copyOf(allSources);
    }

    /**
     * Before the stream opens: lists this source's shards in the group tables, reads how far each got,
     * finishes a group DDL this source began to run when it stopped, drops spools a stop left
     * behind that no arrival needs, and starts watching the locks.
     */
    public void start(ConnectionSpec source, BiPredicate<String, String> selected, UnaryOperator<TableName> router) {
        try {
            List<ShardStore.Member> mine = new ArrayList<>();
            try (Connection s = DataSources.connect(source)) {
                for (TableName t : SchemaReader.listTables(s, selected)) {
                    mine.add(new ShardStore.Member(router.apply(t), sourceId, t, 0));
                }
            }
            Connection c = conn();
            store.ensureTables(c);
            store.register(c, sourceId, mine);
            Map<TableName, Integer> applied = new HashMap<>();
            for (ShardStore.Member m : store.members(c, sourceId)) {
                shards.put(m.shard(), new Shard(m.shard(), m.target()));
                applied.put(m.shard(), m.appliedSeq());
            }
            for (ShardStore.Arrival a : store.arrivals(c, sourceId)) {
                Shard s = shards.computeIfAbsent(a.shard(), k -> new Shard(a.shard(), a.target()));
                s.arrived = Math.max(s.arrived, a.seq());
                if (a.seq() > applied.getOrDefault(a.shard(), 0)) {
                    s.spooling.add(a.seq());
                }
            }
            for (Shard s : shards.values()) {
                s.arrived = Math.max(s.arrived, applied.getOrDefault(s.source, 0));
            }
            for (ShardStore.Lock l : store.locks(c)) {
                if (ShardStore.EXECUTING.equals(l.state()) && sourceId.equals(l.executor())) {
                    finish(l);
                }
            }
            spools.dropLeftSpools(c, shards.values());
            if (optimistic != null) {
                optimistic.start(c, shards.values());
            }
            publishHeads();
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: cannot read the shard DDL locks in " + store.metaSchema()
                    + " on the target " + target.address(), e);
        }
        poller = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(store.task(), "sync", "shard-locks",
                true));
        poller.scheduleWithFixedDelay(this::poll, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Whether a DDL of this kind is one the shards of a group must all reach before it runs. */
    public static boolean groupDdl(EventType kind, boolean renames) {
        return (kind == EventType.ALTER_TABLE && !renames) || kind == EventType.CREATE_INDEX
                || kind == EventType.DROP_INDEX;
    }

    /**
     * A shard of this source reached a group DDL (reader thread, in stream order).
     *
     * @param targetSql the statement for the target table (names routed)
     * @param copy the schema tracker's copy of the shard, the DDL already replayed on it: a spool is made like it
     */
    public BarrierStep arrive(TableName shard, TableName targetTable, String targetSql, String sourceSql, ChangePos at,
                           SourceSession session, TableName copy, Function<TableName, String> sqlOn) {
        Shard s = shards.computeIfAbsent(shard, k -> joinLate(shard, targetTable));
        if (optimistic != null) {
            return optimistic.arrive(s, targetSql, sourceSql, session, copy, sqlOn);
        }
        int seq = s.arrived + 1;
        String ddl = GroupDdl.normalize(targetSql);
        String who = sourceId + ":" + shard;
        String sessionJson = GroupDdl.json(session);
        ShardStore.Arrival arrival = new ShardStore.Arrival(targetTable, seq, sourceId, shard,
                String.valueOf(at.restartPoint()), GroupDdl.normalize(sourceSql));
        try {
            Connection c = conn();
            // the lock and the arrivals read in one snapshot: another shard's arrival commits its lock
            // row with it, so a statement that conflicts is seen here, never after it ran
            ShardStore.Lock lock;
            boolean ready;
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
                lock = store.lock(c, targetTable, seq, false);
                ready = s.spooling.isEmpty() && store.notReady(c, targetTable, seq, allSources,
                        new ShardStore.Member(targetTable, sourceId, shard, seq - 1)) == null;
            } finally {
                c.commit();
                c.setAutoCommit(true);
            }
            if (lock != null && !lock.ddl().equals(ddl)) {
                throw conflict(lock, who, sourceSql, seq);
            }
            s.arrived = seq;
            if (s.spooling.isEmpty() && lock != null && ShardStore.DONE.equals(lock.state())) {
                LOG.info("sync: shard {} reached group DDL {} of {}, which already ran on the target (unlocked by "
                        + "hand): not run again", who, seq, targetTable);
                return new ShardStep(false, "shard " + who + " passed group DDL " + seq + " (already run)",
                        c2 -> {
                            store.arrive(c2, arrival);
                            store.applied(c2, targetTable, sourceId, shard, seq);
                        }, () -> { });
            }
            if (ready) {
                LOG.info("sync: shard {} is the last to reach group DDL {} of {}: it runs on the target now: {}", who,
                        seq, targetTable, ddl);
                return new ShardStep(true, "group DDL " + seq + " of " + targetTable + " ran", c2 -> {
                    ShardStore.Lock l = store.lockOrCreate(c2, targetTable, seq, ddl, sessionJson, who, arrival.ddl());
                    if (!l.ddl().equals(ddl)) {
                        throw conflict(l, who, sourceSql, seq);
                    }
                    store.arrive(c2, arrival);
                    store.setState(c2, targetTable, seq, ShardStore.DONE, sourceId, null);
                    store.applied(c2, targetTable, sourceId, shard, seq);
                }, () -> { });
            }
            TableName spool = spools.name(shard, seq);
            spools.create(c, spool, copy, shard);
            s.spooling.add(seq);
            publishHeads();
            LOG.info("sync: shard {} reached group DDL {} of {} before other shards; its rows go to {} until the "
                    + "DDL runs on the target: {}", who, seq, targetTable, spool, ddl);
            return new ShardStep(false, "shard " + who + " reached group DDL " + seq + " of " + targetTable
                    + "; spooling to " + spool, c2 -> {
                ShardStore.Lock l = store.lockOrCreate(c2, targetTable, seq, ddl, sessionJson, who, arrival.ddl());
                if (!l.ddl().equals(ddl)) {
                    throw conflict(l, who, sourceSql, seq);
                }
                store.arrive(c2, arrival);
            }, () -> tryRun(targetTable, seq));
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: shard DDL lock of " + targetTable + " at " + at.restartPoint(), e);
        }
    }

    /**
     * Where a shard's definition at the reader's start is when the target table does not have it: its
     * newest spool (pessimistic), or its own shape table (optimistic); null: the target table's.
     */
    public TableName definitionOf(TableName shard) {
        if (optimistic != null) {
            return optimistic.definitionOf(shard);
        }
        return spoolOf(shard);
    }

    /**
     * Drains wait for a boundary after {@code horizon}, the furthest any writer of an earlier run got:
     * a change at or before it is taken for one that run applied and skipped, and a drain decided at
     * the start of the stream (a lock that ran while this source had no process) would be lost so.
     */
    public void drainAfter(ChangePos horizon) {
        this.drainHorizon = horizon;
    }

    /**
     * Where the drains of the boundary {@code at} are placed: {@code at}, or, when the stream stands at
     * the boundary an earlier run's writers reached last (a source with nothing new since a restart),
     * one step past it, still before the next transaction: a drain at the boundary itself would be
     * taken for a change that run applied, and with a quiet source no later boundary would come.
     */
    public ChangePos drainPosition(ChangePos at) {
        ChangePos h = drainHorizon;
        if (h != null && h.event() == -1 && !at.isAfter(h) && h.file().equals(at.file()) && h.txnPos() == at.txnPos()
                && h.gtidBefore().equals(at.gtidBefore())) {
            return new ChangePos(at.file(), at.txnPos(), -1, h.row() + 1, at.gtidBefore());
        }
        return at;
    }

    /** The table a shard's rows go to now: its newest spool, or null for the target table. */
    public TableName spoolOf(TableName shard) {
        if (optimistic != null) {
            return null;
        }
        Shard s = shards.get(shard);
        return s == null || s.spooling.isEmpty() ? null : spools.name(shard, s.spooling.peekLast());
    }

    /** How rows of a shard with {@code info} are written to its newest spool, or null when it has none. */
    public TableInfo spoolInfo(TableInfo info) {
        if (optimistic != null) {
            return null;
        }
        Shard s = shards.get(info.source());
        if (s == null || s.spooling.isEmpty()) {
            return null;
        }
        if (s.spoolInfoOf != info) {
            if (info.keyless()) {
                throw new FatalException("sync: shard " + info.source() + " has no primary or not-null unique key: "
                        + "its rows cannot wait for a group DDL in shard-mode pessimistic; add a key to the shards, "
                        + "or leave shard-mode out and apply shard DDL on the target yourself");
            }
            TableName spool = spools.name(info.source(), s.spooling.peekLast());
            List<Column> cols = new ArrayList<>(info.schema().columns());
            cols.add(new Column(DELETED, cols.size() + 1, "tinyint", "tinyint(1)", false, false, null, null));
            TableSchema schema = new TableSchema(spool, cols, info.schema().primaryKey(), info.schema().uniqueKeys());
            s.spoolInfo = TableInfo.spool(schema, info.source(), spool);
            s.spoolInfoOf = info;
        }
        return s.spoolInfo;
    }

    /**
     * Drains due at a transaction boundary (reader thread): for each shard whose oldest spool's DDL
     * has run on the target, the step that moves its rows there; the shard's later rows go to the
     * next spool, or to the target table when it has none.
     */
    public List<BarrierStep> drains(ChangePos at) {
        ChangePos horizon = drainHorizon;
        if (drainable.isEmpty() || (horizon != null && !at.isAfter(horizon))) {
            return List.of(); // kept for a boundary past what an earlier run applied
        }
        List<BarrierStep> out = new ArrayList<>();
        for (TableName src : List.copyOf(drainable)) {
            drainable.remove(src);
            Shard s = shards.get(src);
            if (s == null || s.spooling.isEmpty()) {
                continue;
            }
            int seq = s.spooling.pollFirst();
            s.spoolInfoOf = null;
            TableName spool = spools.name(src, seq);
            TableName to = s.target;
            out.add(new ShardStep(false, "drained " + spool + " into " + to + " (group DDL " + seq + " ran)",
                    c -> spools.drain(c, spool, to, src, seq, extraColumns.apply(src)), () -> {
                        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
                            st.execute("DROP TABLE IF EXISTS " + spool.quoted());
                        }
                        tryRun(to, seq + 1);
                    }));
        }
        publishHeads();
        return out;
    }


    /**
     * Runs group DDL {@code seq} of {@code targetTable} on the target if every shard is ready for it and
     * no process runs it already. Any process of the task may: the lock row decides who.
     */
    void tryRun(TableName targetTable, int seq) throws SQLException {
        ShardStore.Lock lock;
        try (Connection c = DataSources.connect(target)) {
            c.setAutoCommit(false);
            lock = store.lock(c, targetTable, seq, true);
            if (lock == null || !ShardStore.WAITING.equals(lock.state())
                    || store.notReady(c, targetTable, seq, allSources, null) != null) {
                c.rollback();
                return;
            }
            String before = GroupDdl.definition(c, targetTable);
            store.setState(c, targetTable, seq, ShardStore.EXECUTING, sourceId, before);
            c.commit();
            lock = new ShardStore.Lock(lock.target(), seq, lock.ddl(), lock.session(), lock.firstShard(),
                    lock.firstDdl(), ShardStore.EXECUTING, sourceId, before);
        }
        finish(lock);
    }

    /**
     * Runs a lock this source marked executing, unless the target table already differs from the
     * definition kept before it (then it ran before a stop), and marks it done.
     */
    private void finish(ShardStore.Lock lock) throws SQLException {
        try (Connection c = DataSources.connect(target)) {
            String now = GroupDdl.definition(c, lock.target());
            GroupDdl.run(c, lock, lock.before() != null && !lock.before().equals(now));
            c.setAutoCommit(false);
            store.setState(c, lock.target(), lock.seq(), ShardStore.DONE, lock.executor(), null);
            c.commit();
        }
        LOG.info("sync: group DDL {} of {} ran on the target: every shard reached it: {}", lock.seq(), lock.target(),
                lock.ddl());
    }



    private void poll() {
        try {
            Map<TableName, Head> h = heads;
            if (h.isEmpty()) {
                groups = List.of();
                return;
            }
            try (Connection c = DataSources.connect(target)) {
                // one snapshot: a shard's arrival commits with its group's lock row, so a lock read
                // after a separate read of the arrivals would count the shard that made it as unsynced
                c.setAutoCommit(false);
                try (Statement st = c.createStatement()) {
                    st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
                    groups = groups(c, h);
                } finally {
                    c.commit();
                    c.setAutoCommit(true);
                }
                for (Map.Entry<TableName, Head> e : h.entrySet()) {
                    Head head = e.getValue();
                    ShardStore.Lock l = store.lock(c, head.target(), head.seq(), false);
                    if (l != null && ShardStore.DONE.equals(l.state())) {
                        drainable.add(e.getKey());
                    } else if (l != null && ShardStore.WAITING.equals(l.state())) {
                        tryRun(head.target(), head.seq()); // a source that started late may have made it ready
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("sync: cannot read the shard DDL locks on the target (retrying): {}", ErrorClassifier.oneLine(e));
        }
    }

    private List<Group> groups(Connection c, Map<TableName, Head> h) throws SQLException {
        List<ShardStore.Member> members = store.members(c, null);
        List<ShardStore.Arrival> arrivals = store.arrivals(c, null);
        List<Group> out = new ArrayList<>();
        for (Head head : new java.util.LinkedHashSet<>(h.values())) {
            ShardStore.Lock l = store.lock(c, head.target(), head.seq(), false);
            if (l == null || ShardStore.DONE.equals(l.state())) {
                continue;
            }
            List<String> synced = new ArrayList<>();
            List<String> unsynced = new ArrayList<>();
            int unsyncedHere = 0;
            String first = "";
            for (ShardStore.Member m : members) {
                if (!m.target().equals(head.target())) {
                    continue;
                }
                ShardStore.Arrival a = arrivals.stream().filter(x -> x.target().equals(head.target())
                        && x.seq() == head.seq() && x.sourceId().equals(m.sourceId()) && x.shard().equals(m.shard()))
                        .findFirst().orElse(null);
                (a != null ? synced : unsynced).add(m.sourceId() + "-" + m.shard().quoted());
                if (a == null && m.sourceId().equals(sourceId)) {
                    unsyncedHere++;
                }
                if (a != null && a.sourceId().equals(sourceId) && first.isEmpty()) {
                    first = a.position();
                }
            }
            out.add(new Group(head.target(), head.seq(), l.ddl(), first, synced, unsynced, unsyncedHere));
        }
        return List.copyOf(out);
    }

    private void publishHeads() {
        Map<TableName, Head> h = new HashMap<>();
        for (Shard s : shards.values()) {
            if (!s.spooling.isEmpty()) {
                h.put(s.source, new Head(s.target, s.spooling.peekFirst()));
            }
        }
        heads = Map.copyOf(h);
    }

    /** A shard created after the start: listed now, at the group's last DDL that ran. */
    private Shard joinLate(TableName shard, TableName targetTable) {
        try {
            store.register(conn(), sourceId, List.of(new ShardStore.Member(targetTable, sourceId, shard, 0)));
            int applied = store.members(conn(), sourceId).stream().filter(m -> m.shard().equals(shard))
                    .mapToInt(ShardStore.Member::appliedSeq).findFirst().orElse(0);
            Shard s = new Shard(shard, targetTable);
            s.arrived = applied;
            return s;
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: cannot list shard " + shard + " of " + targetTable, e);
        }
    }













    private FatalException conflict(ShardStore.Lock lock, String who, String sourceSql, int seq) {
        return new FatalException("sync: shard-mode pessimistic: shards of " + lock.target() + " reached different "
                + "DDL as their group DDL " + seq + ": " + lock.firstShard() + " ran \"" + lock.firstDdl() + "\", "
                + who + " ran \"" + GroupDdl.normalize(sourceSql) + "\"; make the shards' DDL the same (apply the "
                + "right "
                + "statement to the target and skip the other with a filter rule, or jdm shard-ddl-lock unlock) "
                + "and restart the task");
    }



    private Connection conn() throws SQLException {
        if (conn == null || !conn.isValid(2)) {
            if (conn != null) {
                try {
                    conn.close();
                } catch (SQLException ignored) {
                    // replaced
                }
            }
            conn = DataSources.connect(target);
        }
        return conn;
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
        if (conn != null) {
            try {
                conn.close();
            } catch (SQLException ignored) {
                // closing
            }
        }
    }

}
