package io.jdm.sync.shard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jdm.common.config.EventType;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.Hashes;
import io.jdm.common.util.NamedThreadFactory;
import io.jdm.sync.checkpoint.DdlMarkers;
import io.jdm.sync.ring.BarrierStep;
import io.jdm.sync.ring.ChangePos;
import io.jdm.sync.ring.SessionSwitch;
import io.jdm.sync.ring.SourceSession;
import io.jdm.sync.ring.TableInfo;
import io.jdm.sync.writer.DdlApplier;
import java.sql.Connection;
import java.sql.ResultSet;
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
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The spool's flag column: 1 for a row the shard deleted. */
    public static final String DELETED = "jdm_spool_deleted";
    private static final long POLL_MILLIS = 500;

    private final ConnectionSpec target;
    private final ShardStore store;
    private final String sourceId;
    private final List<String> allSources;
    /** shard-mode optimistic rather than pessimistic (see {@link #arriveOptimistic}). */
    private final boolean optimistic;
    /** Reader thread: this source's shards, by source table. */
    private final Map<TableName, Shard> shards = new HashMap<>();
    /** Shards (source table) whose first spool may be drained now: written by the poller. */
    private final Set<TableName> drainable = ConcurrentHashMap.newKeySet();
    /** Optimistic: this source's shards that have a shape table (written at barriers, read by the reader). */
    private final Set<TableName> shapes = ConcurrentHashMap.newKeySet();
    /** The poller's view: shard → its first spooled seq; replaced by the reader thread. */
    private volatile Map<TableName, Head> heads = Map.of();
    private ScheduledExecutorService poller;
    private Connection conn;
    /** What /status shows: the locks this source's shards wait on, refreshed by the poller. */
    private volatile List<Group> groups = List.of();

    /**
     * A group DDL this source's shards wait on, as DM's query-status shows it (ShardingGroup):
     * shards named {@code source-`db`.`table`}.
     */
    public record Group(TableName target, int seq, String ddl, String firstLocation, List<String> synced,
                        List<String> unsynced) {
    }

    /** The group DDLs this source's shards have reached and that have not run on the target yet. */
    public List<Group> unresolved() {
        return groups;
    }

    private record Head(TableName target, int seq) {
    }

    /** One shard of this source: how far it got, and its spools not drained yet (oldest first). */
    private static final class Shard {
        final TableName source;
        final TableName target;
        int arrived;
        final ArrayDeque<Integer> spooling = new ArrayDeque<>();
        TableInfo spoolInfo;
        TableInfo spoolInfoOf;

        Shard(TableName source, TableName target) {
            this.source = source;
            this.target = target;
        }
    }

    public ShardCoordinator(ConnectionSpec target, String metaSchema, String task, String sourceId,
                            List<String> allSources, boolean optimistic) {
        this.optimistic = optimistic;
        this.target = target;
        this.store = new ShardStore(metaSchema, task);
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
            dropLeftSpools(c);
            if (optimistic) {
                startShapes(c);
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
        if (optimistic) {
            return arriveOptimistic(s, targetSql, sourceSql, session, copy, sqlOn);
        }
        int seq = s.arrived + 1;
        String ddl = normalize(targetSql);
        String who = sourceId + ":" + shard;
        String sessionJson = json(session);
        ShardStore.Arrival arrival = new ShardStore.Arrival(targetTable, seq, sourceId, shard,
                String.valueOf(at.restartPoint()), normalize(sourceSql));
        try {
            Connection c = conn();
            ShardStore.Lock lock = store.lock(c, targetTable, seq, false);
            if (lock != null && !lock.ddl().equals(ddl)) {
                throw conflict(lock, who, sourceSql, seq);
            }
            s.arrived = seq;
            if (s.spooling.isEmpty() && lock != null && ShardStore.DONE.equals(lock.state())) {
                LOG.info("sync: shard {} reached group DDL {} of {}, which already ran on the target (unlocked by "
                        + "hand): not run again", who, seq, targetTable);
                return new Step(false, "shard " + who + " passed group DDL " + seq + " (already run)",
                        c2 -> {
                            store.arrive(c2, arrival);
                            store.applied(c2, targetTable, sourceId, shard, seq);
                        }, () -> { });
            }
            if (s.spooling.isEmpty() && store.notReady(c, targetTable, seq, allSources,
                    new ShardStore.Member(targetTable, sourceId, shard, seq - 1)) == null) {
                LOG.info("sync: shard {} is the last to reach group DDL {} of {}: it runs on the target now: {}", who,
                        seq, targetTable, ddl);
                return new Step(true, "group DDL " + seq + " of " + targetTable + " ran", c2 -> {
                    ShardStore.Lock l = store.lockOrCreate(c2, targetTable, seq, ddl, sessionJson, who, arrival.ddl());
                    if (!l.ddl().equals(ddl)) {
                        throw conflict(l, who, sourceSql, seq);
                    }
                    store.arrive(c2, arrival);
                    store.setState(c2, targetTable, seq, ShardStore.DONE, sourceId, null);
                    store.applied(c2, targetTable, sourceId, shard, seq);
                }, () -> { });
            }
            TableName spool = spoolName(shard, seq);
            createSpool(c, spool, copy, shard);
            s.spooling.add(seq);
            publishHeads();
            LOG.info("sync: shard {} reached group DDL {} of {} before other shards; its rows go to {} until the "
                    + "DDL runs on the target: {}", who, seq, targetTable, spool, ddl);
            return new Step(false, "shard " + who + " reached group DDL " + seq + " of " + targetTable
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
        if (optimistic) {
            return shapes.contains(shard) ? shapeName(shard, "") : null;
        }
        return spoolOf(shard);
    }

    /** The table a shard's rows go to now: its newest spool, or null for the target table. */
    public TableName spoolOf(TableName shard) {
        if (optimistic) {
            return null;
        }
        Shard s = shards.get(shard);
        return s == null || s.spooling.isEmpty() ? null : spoolName(shard, s.spooling.peekLast());
    }

    /** How rows of a shard with {@code info} are written to its newest spool, or null when it has none. */
    public TableInfo spoolInfo(TableInfo info) {
        if (optimistic) {
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
            TableName spool = spoolName(info.source(), s.spooling.peekLast());
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
    public List<BarrierStep> drains() {
        if (drainable.isEmpty()) {
            return List.of();
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
            TableName spool = spoolName(src, seq);
            TableName to = s.target;
            out.add(new Step(false, "drained " + spool + " into " + to + " (group DDL " + seq + " ran)",
                    c -> drain(c, spool, to, src, seq), () -> {
                        try (Connection c = DataSources.connect(target); Statement st = c.createStatement()) {
                            st.execute("DROP TABLE IF EXISTS " + spool.quoted());
                        }
                        tryRun(to, seq + 1);
                    }));
        }
        publishHeads();
        return out;
    }

    private void drain(Connection c, TableName spool, TableName to, TableName shard, int seq) throws SQLException {
        TableSchema sp = SchemaReader.read(c, spool);
        if (sp == null) {
            throw new FatalException("sync: the spool " + spool + " of shard " + shard + " is gone from the target; "
                    + "its rows since group DDL " + seq + " of " + to + " cannot be written: restore it or start the "
                    + "task over");
        }
        List<String> cols = new ArrayList<>();
        for (Column col : sp.columns()) {
            if (!col.generated() && !col.name().equalsIgnoreCase(DELETED)) {
                cols.add(Identifiers.quote(col.name()));
            }
        }
        List<String> key = sp.primaryKey().isEmpty() ? sp.uniqueKeys().get(0) : sp.primaryKey();
        StringBuilder on = new StringBuilder();
        for (String k : key) {
            on.append(on.length() == 0 ? "" : " AND ").append("t.").append(Identifiers.quote(k)).append(" = s.")
                    .append(Identifiers.quote(k));
        }
        String list = String.join(", ", cols);
        StringBuilder update = new StringBuilder();
        for (String col : cols) {
            update.append(update.length() == 0 ? "" : ", ").append(col).append(" = VALUES(").append(col).append(')');
        }
        try (Statement st = c.createStatement()) {
            st.execute("USE " + Identifiers.quote(to.schema())); // MariaDB resolves a multi-table DELETE's list there
            int deleted = st.executeUpdate("DELETE t FROM " + to.quoted() + " t JOIN " + spool.quoted() + " s ON " + on
                    + " WHERE s." + Identifiers.quote(DELETED) + " = 1");
            int written = st.executeUpdate("INSERT INTO " + to.quoted() + " (" + list + ") SELECT " + list + " FROM "
                    + spool.quoted() + " WHERE " + Identifiers.quote(DELETED) + " = 0 ON DUPLICATE KEY UPDATE "
                    + update);
            LOG.debug("sync: spool {} drained into {}: {} deleted, {} written", spool, to, deleted, written);
        }
        store.applied(c, to, sourceId, shard, seq);
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
            String before = definition(c, targetTable);
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
            run(c, lock, lock.before() != null && !lock.before().equals(definition(c, lock.target())));
            c.setAutoCommit(false);
            store.setState(c, lock.target(), lock.seq(), ShardStore.DONE, lock.executor(), null);
            c.commit();
        }
        LOG.info("sync: group DDL {} of {} ran on the target: every shard reached it: {}", lock.seq(), lock.target(),
                lock.ddl());
    }

    /** Runs a lock's statement in its first shard's session (or says it ran already). Shared with the CLI. */
    public static void run(Connection c, ShardStore.Lock lock, boolean ranAlready) throws SQLException {
        if (ranAlready) {
            LOG.info("sync: group DDL {} of {} had run before a stop: not run again", lock.seq(), lock.target());
            return;
        }
        try (Statement st = c.createStatement()) {
            st.execute("USE " + Identifiers.quote(lock.target().schema()));
            SourceSession session = lock.session() == null ? null : JSON.readValue(lock.session(), SourceSession.class);
            try (SessionSwitch ignored = session == null ? null
                    : SessionSwitch.enter(c, session, "group DDL " + lock.seq() + " of " + lock.target())) {
                st.execute(lock.ddl());
            }
        } catch (SQLException e) {
            if (!DdlApplier.alreadyDone(e)) {
                throw e;
            }
            LOG.warn("sync: group DDL {} of {} looks applied already: {}", lock.seq(), lock.target(), e.getMessage());
        } catch (JsonProcessingException e) {
            throw new FatalException("sync: the session of group DDL " + lock.seq() + " of " + lock.target()
                    + " in the lock table cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    /** The target table's definition now ({@code SHOW CREATE TABLE}), or null when it does not exist. */
    static String definition(Connection c, TableName t) throws SQLException {
        return DdlMarkers.snapshot(c, List.of(t)).get(0).definition();
    }

    private void poll() {
        try {
            Map<TableName, Head> h = heads;
            if (h.isEmpty()) {
                groups = List.of();
                return;
            }
            try (Connection c = DataSources.connect(target)) {
                groups = groups(c, h);
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
            String first = "";
            for (ShardStore.Member m : members) {
                if (!m.target().equals(head.target())) {
                    continue;
                }
                ShardStore.Arrival a = arrivals.stream().filter(x -> x.target().equals(head.target())
                        && x.seq() == head.seq() && x.sourceId().equals(m.sourceId()) && x.shard().equals(m.shard()))
                        .findFirst().orElse(null);
                (a != null ? synced : unsynced).add(m.sourceId() + "-" + m.shard().quoted());
                if (a != null && a.sourceId().equals(sourceId) && first.isEmpty()) {
                    first = a.position();
                }
            }
            out.add(new Group(head.target(), head.seq(), l.ddl(), first, synced, unsynced));
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

    private void createSpool(Connection c, TableName spool, TableName copy, TableName shard) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + spool.quoted() + " LIKE " + copy.quoted());
            try {
                st.execute("ALTER TABLE " + spool.quoted() + " ADD COLUMN " + Identifiers.quote(DELETED)
                        + " TINYINT(1) NOT NULL DEFAULT 0");
            } catch (SQLException e) {
                if (!DdlApplier.alreadyDone(e)) {
                    throw e;
                }
            }
        }
        TableSchema s = SchemaReader.read(c, spool);
        if (s == null || (s.primaryKey().isEmpty() && s.uniqueKeys().isEmpty())) {
            throw new FatalException("sync: shard " + shard + " has no primary or not-null unique key: its rows "
                    + "cannot wait for a group DDL in shard-mode pessimistic; add a key to the shards, or leave "
                    + "shard-mode out and apply shard DDL on the target yourself");
        }
    }

    // ---- optimistic ----------------------------------------------------------------------------------------------

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
    private BarrierStep arriveOptimistic(Shard s, String targetSql, String sourceSql, SourceSession session,
                                         TableName copy, Function<TableName, String> sqlOn) {
        int n = ++s.arrived;
        TableName next = shapeName(s.source, "n" + n);
        String who = sourceId + ":" + s.source;
        try (Statement st = conn().createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + next.quoted());
            st.execute("CREATE TABLE " + next.quoted() + " LIKE " + copy.quoted());
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: shard-mode optimistic: cannot keep the definition of " + who, e);
        }
        String ddl = normalize(targetSql);
        return new Step(false, "shard " + who + ": " + ddl, c -> settle(s, next, ddl, normalize(sourceSql), session,
                sqlOn), () -> { });
    }

    /** At the shard's barrier: the DDL runs on the target or is skipped, as the joined table says. */
    private void settle(Shard s, TableName next, String ddl, String sourceSql, SourceSession session,
                        Function<TableName, String> sqlOn) throws SQLException {
        String who = sourceId + ":" + s.source;
        String lock = "jdm-shard-" + hash(store.metaSchema() + "\0" + store.task() + "\0" + s.target).substring(0, 24);
        try (Connection w = DataSources.connect(target); Statement st = w.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT GET_LOCK(" + Identifiers.literal(lock) + ", 600)")) {
                if (!rs.next() || rs.getInt(1) != 1) {
                    throw new FatalException("sync: shard-mode optimistic: another process held the DDL lock of "
                            + s.target + " for 10 minutes; check the task's other processes and restart");
                }
            }
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
                    ShardCoordinator.run(w, new ShardStore.Lock(s.target, 0, ddl, json(session), who, sourceSql,
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
                try (ResultSet rs = st.executeQuery("SELECT RELEASE_LOCK(" + Identifiers.literal(lock) + ")")) {
                    rs.next();
                }
            }
        }
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
    private TableShape predict(Connection w, Shard s, String ddl, SourceSession session,
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
                ShardCoordinator.run(w, new ShardStore.Lock(s.target, 0, sqlOn.apply(scratch), json(session), "", ddl,
                        ShardStore.EXECUTING, sourceId, null), false);
                return TableShape.read(w, scratch);
            } finally {
                st.execute("DROP TABLE IF EXISTS " + scratch.quoted());
            }
        }
    }

    /** Optimistic: every shard of this source starts from the target table's definition the first time. */
    private void startShapes(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (Shard s : shards.values()) {
                TableName shape = shapeName(s.source, "");
                if (TableShape.read(c, shape) == null && TableShape.read(c, s.target) != null) {
                    st.execute("CREATE TABLE IF NOT EXISTS " + shape.quoted() + " LIKE " + s.target.quoted());
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

    private TableName shapeName(TableName shard, String suffix) {
        return shapeName(sourceId, shard, suffix);
    }

    private TableName shapeName(String source, TableName shard, String suffix) {
        return new TableName(store.metaSchema(), "jdm_shape_" + hash(store.task() + "\0" + source + "\0"
                + shard.schema() + "\0" + shard.table()).substring(0, 16) + (suffix.isEmpty() ? "" : "_" + suffix));
    }

    /** Spools of this source's shards that no undrained arrival needs (a stop between steps left them). */
    private void dropLeftSpools(Connection c) throws SQLException {
        Map<String, Shard> byPrefix = new HashMap<>();
        for (Shard s : shards.values()) {
            byPrefix.put(spoolPrefix(s.source), s);
        }
        List<String> drop = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM "
                + "information_schema.TABLES WHERE TABLE_SCHEMA = " + Identifiers.literal(store.metaSchema())
                + " AND TABLE_NAME LIKE 'jdm\\_spool\\_%'")) {
            while (rs.next()) {
                String name = rs.getString(1);
                int cut = name.lastIndexOf('_');
                Shard s = byPrefix.get(name.substring(0, cut + 1));
                if (s != null && !s.spooling.contains(Integer.parseInt(name.substring(cut + 1)))) {
                    drop.add(name);
                }
            }
        }
        try (Statement st = c.createStatement()) {
            for (String name : drop) {
                st.execute("DROP TABLE IF EXISTS " + new TableName(store.metaSchema(), name).quoted());
            }
        }
    }

    /** A shard's spool for group DDL {@code seq}: short, stable, in the meta schema. */
    TableName spoolName(TableName shard, int seq) {
        return new TableName(store.metaSchema(), spoolPrefix(shard) + seq);
    }

    private String spoolPrefix(TableName shard) {
        return "jdm_spool_" + hash(store.task() + "\0" + sourceId + "\0" + shard.schema() + "\0" + shard.table())
                .substring(0, 16) + "_";
    }

    private FatalException conflict(ShardStore.Lock lock, String who, String sourceSql, int seq) {
        return new FatalException("sync: shard-mode pessimistic: shards of " + lock.target() + " reached different "
                + "DDL as their group DDL " + seq + ": " + lock.firstShard() + " ran \"" + lock.firstDdl() + "\", "
                + who + " ran \"" + normalize(sourceSql) + "\"; make the shards' DDL the same (apply the right "
                + "statement to the target and skip the other with a filter rule, or jdm shard-ddl-lock unlock) "
                + "and restart the task");
    }

    private static String normalize(String sql) {
        return sql.strip().replaceAll("\\s+", " ");
    }

    private static String json(SourceSession s) {
        try {
            return s == null ? null : JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
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

    private static String hash(String s) {
        return Hashes.sha256Hex(s, 64);
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

    /** A barrier step made of two actions. */
    private static final class Step implements BarrierStep {
        interface InTxn {
            void run(Connection c) throws SQLException;
        }

        interface After {
            void run() throws SQLException;
        }

        private final boolean runsStatement;
        private final String what;
        private final InTxn inTxn;
        private final After after;

        Step(boolean runsStatement, String what, InTxn inTxn, After after) {
            this.runsStatement = runsStatement;
            this.what = what;
            this.inTxn = inTxn;
            this.after = after;
        }

        @Override
        public boolean runsStatement() {
            return runsStatement;
        }

        @Override
        public void inCheckpointTransaction(Connection c) throws SQLException {
            inTxn.run(c);
        }

        /** What follows is done again by the poller or the next start: a failure here is only logged. */
        @Override
        public void afterCommit() {
            try {
                after.run();
            } catch (SQLException | RuntimeException e) {
                LOG.warn("sync: after \"{}\": {} (tried again later)", what, ErrorClassifier.oneLine(e));
            }
        }

        @Override
        public String describe() {
            return what;
        }
    }
}
