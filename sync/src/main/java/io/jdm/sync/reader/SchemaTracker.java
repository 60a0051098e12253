package io.jdm.sync.reader;

import io.jdm.common.config.EventType;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.error.RetriableException;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.retry.Retries;
import io.jdm.common.schema.Column;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableEngines;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.SqlDialect;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.Hashes;
import io.jdm.sync.ring.SessionSwitch;
import io.jdm.sync.ring.SourceSession;
import io.jdm.sync.shard.ShardCoordinator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The definition of every selected source table at the reader's binlog position, never "now".
 * Each table has an empty copy on the target, in a private scratch schema per source database;
 * every DDL read from the stream is replayed on those copies (names rewritten to them), in the
 * session it ran in on the source, before the next event is decoded, so a row is always decoded
 * with the columns its table had when the row was written, charsets included.
 *
 * <p>Why one scratch schema per source database: a column declared without a charset takes its
 * table's, and a table its database's. Each scratch schema is created with its source database's
 * default charset and collation (from the source's SCHEMATA at start, or by replaying the stream's
 * CREATE DATABASE in the source session, whose collation_server a bare CREATE DATABASE takes), so
 * a replayed CREATE TABLE or ADD COLUMN lands on the charset it got on the source, whatever the
 * target server's defaults are.
 *
 * <p>Where a copy starts from: the target table the table routes to, copied with
 * {@code CREATE TABLE … LIKE} the first time the table (or any table routed to the same target)
 * is needed. The target is at the reader's start position because only sync changes its
 * definitions, behind a barrier that moves the checkpoint to each DDL; copying a whole group of
 * merged shards at once keeps a shard met late from seeing a sibling's ALTER. A table the target
 * lacks is read from the source as it is now (and the first TABLE_MAP checks the column types).
 * The columns a route adds to the target table (DM's extract-table and its siblings) are dropped
 * from the copy: the source table does not have them. In the shard modes a shard's own definition
 * comes first where the target's is not it: its spool (pessimistic, a shard waiting for a group
 * DDL) or its shape table (optimistic: the target is the shards' joined table, which a sibling's
 * DDL may have moved past this shard's position).
 * The scratch schema is dropped at every start. Reader thread only.
 */
final class SchemaTracker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaTracker.class);
    /** Reading a definition back is retried from 100 ms, doubling up to 5 s, within the retry budget. */
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    private final ConnectionSpec target;
    private final ConnectionSpec source;
    private final String scratch;
    private final BiPredicate<String, String> selected;
    private final UnaryOperator<TableName> router;
    private final Retries retries;
    /** Source databases whose scratch schema exists. */
    private final Set<String> databases = new HashSet<>();
    /**
     * Source database → "CHARACTER SET x COLLATE y" as the source's SCHEMATA had it at start; null →
     * the source server's default collation.
     */
    private Map<String, String> sourceDefaults;
    /** Source table → whether its copy exists; absent: not looked at yet. */
    private final Map<TableName, Boolean> known = new HashMap<>();
    /** Tables whose copy lost the target's own columns: their targets have more columns than the source. */
    private final Set<TableName> targetHasMore = new HashSet<>();
    /** Target table → the source tables routed to it (listed at start, plus every one met since). */
    private Map<TableName, Set<TableName>> groups;
    private Connection tconn;
    private final Set<TableName> keylessWarned = new java.util.HashSet<>();
    private Connection sconn;
    /** Where a shard's definition is when the target's is not it (shard modes, see ShardCoordinator), else null. */
    private UnaryOperator<TableName> spools = t -> null;
    /** The columns a source table's route adds to its target table. */
    private Function<TableName, ExtraColumns> extraColumns = t -> ExtraColumns.NONE;
    /** The source's grammar, for the definitions read from it. */
    private final DdlGrammar grammar;

    SchemaTracker(ConnectionSpec target, ConnectionSpec source, String scratch, BiPredicate<String, String> selected,
                  UnaryOperator<TableName> router, Duration retryBudget, DdlGrammar grammar) {
        this.grammar = grammar;
        this.target = target;
        this.source = source;
        this.scratch = scratch;
        this.selected = selected;
        this.router = router;
        this.retries = Retries.builder().budget(retryBudget).backoff(FIRST_BACKOFF, MAX_BACKOFF).build();
    }

    /** Where a shard waiting for a group DDL keeps its rows: its definition is there, not on the target. */
    void spools(UnaryOperator<TableName> spoolOf) {
        this.spools = spoolOf;
    }

    /** The columns routes add to target tables (see {@link ExtraColumns}): a copy from the target drops them. */
    void extraColumns(Function<TableName, ExtraColumns> of) {
        this.extraColumns = of;
    }

    /** The columns the route of {@code src} adds to its target table. */
    ExtraColumns extraColumns(TableName src) {
        return extraColumns.apply(src);
    }

    /** The scratch schema of one task's source: short, stable, and apart from every user schema. */
    static String scratchSchema(String metaSchema, String task, String sourceId) {
        String base = metaSchema.length() > 30 ? metaSchema.substring(0, 30) : metaSchema;
        return base + "_tracker_" + hash(task + "\0" + sourceId).substring(0, 12);
    }

    /**
     * The table's definition at the current binlog position. Reading is retried while the target
     * is unreachable (within the retry budget): it changes nothing, so a retry is always safe.
     */
    TableSchema schema(TableName src) {
        String what = "sync: schema tracker reading " + src;
        try {
            return retries.call(what, retry -> read(src));
        } catch (Retries.GaveUp e) { // the budget ran out, or the thread was interrupted
            throw ErrorClassifier.wrap(what, e.getCause());
        }
    }

    private TableSchema read(TableName src) {
        ensure(src);
        try {
            TableSchema s = Boolean.TRUE.equals(known.get(src)) ? SchemaReader.read(tconn(), copy(src)) : null;
            if (s == null || s.columns().isEmpty()) {
                throw new FatalException("sync: table " + src + " is in the binlog but its definition at this "
                        + "position is unknown (it is neither on the target nor on the source); create it on the "
                        + "target as it was at this position, or restart the task from a fresh dump");
            }
            return new TableSchema(src, s.columns(), s.primaryKey(), s.uniqueKeys());
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    /**
     * The table's definition with each column's default and AUTO_INCREMENT: what a MODIFY or
     * CHANGE is typed by for filters (see {@link ColumnChanges}). Read once before the statement
     * and once after it; not retried (a table the tracker cannot read is typed {@code alter table}).
     */
    ColumnChanges.Shape shape(TableName src) {
        TableSchema s = read(src);
        Map<String, ColumnChanges.Facts> facts = new HashMap<>();
        TableName c = copy(src);
        try (PreparedStatement ps = tconn().prepareStatement("SELECT COLUMN_NAME, COLUMN_DEFAULT, EXTRA FROM "
                + "information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, c.schema());
            ps.setString(2, c.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String extra = rs.getString(3);
                    facts.put(rs.getString(1).toLowerCase(Locale.ROOT), new ColumnChanges.Facts(rs.getString(2),
                            extra != null && extra.toLowerCase(Locale.ROOT).contains("auto_increment")));
                }
            }
        } catch (SQLException e) {
            throw unreachable(e);
        }
        return new ColumnChanges.Shape(s, facts);
    }

    /** Replaces the copy with the source's definition as it is now: a second opinion when the first did not fit. */
    boolean reloadFromSource(TableName src) {
        try {
            dropCopy(src);
            boolean ok = copyFromSource(src);
            known.put(src, ok);
            return ok;
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    /** The source's kind of {@code src} when jdm does not copy that kind ({@link SchemaReader#uncopiedKind}). */
    String uncopiedKind(TableName src) {
        try {
            return SchemaReader.uncopiedKind(sconn(), src);
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("sync: source " + source.address(), e);
        }
    }

    /**
     * Where the copy (taken from the target) has columns the binlog does not name, drops them, so
     * the copy holds exactly the binlog's columns: DM's "downstream has more columns". Only when
     * every binlog column is in the copy under its name and in the same order; the writers name
     * their columns, so the target's own columns keep their values.
     *
     * @param names the binlog's column names, in order (binlog_row_metadata=FULL)
     * @return the copy's columns dropped, or empty when the binlog's columns are not such a subset
     */
    List<String> narrowToBinlogColumns(TableName src, List<String> names) {
        try {
            TableSchema s = SchemaReader.read(tconn(), copy(src));
            if (s == null) {
                return List.of();
            }
            List<String> extra = new ArrayList<>();
            int next = 0;
            for (Column c : s.columns()) {
                if (next < names.size() && c.name().equalsIgnoreCase(names.get(next))) {
                    next++;
                } else {
                    extra.add(c.name());
                }
            }
            boolean keyColumn = extra.stream().anyMatch(x -> s.primaryKey().stream().anyMatch(x::equalsIgnoreCase));
            if (next != names.size() || extra.isEmpty() || keyColumn) {
                return List.of(); // a target-only key column would change which rows a change finds
            }
            StringBuilder sql = new StringBuilder("ALTER TABLE ").append(copy(src).quoted());
            for (int i = 0; i < extra.size(); i++) {
                sql.append(i == 0 ? " " : ", ").append("DROP COLUMN ").append(Identifiers.quote(extra.get(i)));
            }
            try (Statement st = tconn().createStatement()) {
                st.execute(sql.toString());
            }
            targetHasMore.add(src);
            return extra;
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    /**
     * Whether the target table keeps rows outside transactions (its engine, read now: a DDL may
     * have changed it). One without a key gets a warning, once: safe mode cannot tell its rows
     * apart, so a batch that fails after some of its rows landed writes those again on the replay.
     */
    boolean outsideTransactions(TableName target) {
        try {
            TableEngines.Engine e = TableEngines.read(tconn(), target);
            if (!e.transactional() && !e.keyed() && keylessWarned.add(target)) {
                LOG.warn("sync: target table {} is {}, which keeps rows outside transactions, and has no primary or"
                        + " NOT NULL unique key: if a batch fails or the task is killed after some of its rows"
                        + " landed there, they are written again on the replay; give it a key or a transactional"
                        + " engine", target, e.name());
            }
            return !e.transactional();
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    /** Whether the target table of {@code src} has columns of its own (see narrowToBinlogColumns). */
    boolean targetHasMoreColumns(TableName src) {
        return targetHasMore.contains(src);
    }

    /** Whether more than one source table is routed to this target table: shards merged into one. */
    boolean merged(TableName targetTable) {
        return groups().getOrDefault(targetTable, Set.of()).size() > 1;
    }

    /**
     * Replays a DDL (source names, one table's statement) on the copies, in the session it ran in
     * on the source (foreign-key checks off: a copy's parent may have no copy).
     *
     * @param where the statement's position, for messages
     */
    void apply(ParsedDdl d, SourceSession session, String where) {
        try {
            if (d.isDatabase()) {
                applyDatabase(d, session, where);
                return;
            }
            for (ParsedDdl.Ref r : d.refs()) {
                ensureDatabase(r.name().schema());
                if (r.role() != ParsedDdl.Role.REFERENCES) {
                    group(r.name());
                    if (!(r.role() == ParsedDdl.Role.TO || (d.kind() == EventType.CREATE_TABLE
                            && r.role() == ParsedDdl.Role.TABLE))) {
                        ensure(r.name());
                    }
                }
            }
            TableName to = d.kind() == EventType.CREATE_TABLE ? d.primary() : d.renamedTo();
            if (to != null && !(d.kind() == EventType.CREATE_TABLE && d.saysIfNotExists())) {
                dropCopy(to); // a plain CREATE or a rename target cannot exist at this position
            }
            try {
                replay(d.rewrite(this::copy), session, where);
            } catch (SQLException e) {
                if (!ErrorClassifier.isRetriable(e)) {
                    LOG.warn("sync: schema tracker could not replay \"{}\" ({}); the tables it touches are read "
                            + "again when next met", oneLine(d.sql()), e.getMessage());
                    d.touched().forEach(known::remove);
                    return;
                }
                throw e;
            }
            switch (d.kind()) {
                case CREATE_TABLE -> known.put(d.primary(), true);
                case DROP_TABLE -> known.put(d.primary(), false);
                case RENAME_TABLE -> {
                    known.put(d.primary(), false);
                    known.put(to, true);
                }
                case ALTER_TABLE -> {
                    if (to != null) {
                        known.put(d.primary(), false);
                        known.put(to, true);
                    }
                }
                default -> {
                }
            }
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    /**
     * CREATE DATABASE makes the database's scratch schema with the statement's own clauses (a bare
     * one takes the source session's collation_server); DROP DATABASE drops it and every copy in it.
     */
    private void applyDatabase(ParsedDdl d, SourceSession session, String where) throws SQLException {
        String db = d.primary().schema();
        if (d.kind() == EventType.CREATE_DATABASE && d.saysIfNotExists() && sourceDefaults().containsKey(db)) {
            ensureDatabase(db); // it may have existed at this position: IF NOT EXISTS then leaves it as it was
        }
        if (d.kind() == EventType.DROP_DATABASE || !d.saysIfNotExists()) {
            for (TableName t : List.copyOf(known.keySet())) {
                if (t.schema().equals(db)) {
                    known.put(t, false);
                }
            }
            try (Statement st = tconn().createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + Identifiers.quote(scratchDatabase(db)));
            }
            databases.remove(db);
        }
        if (d.kind() == EventType.CREATE_DATABASE) {
            try {
                replay(d.rewrite(n -> new TableName(scratchDatabase(n.schema()), "")), session, where);
                databases.add(db);
            } catch (SQLException e) {
                if (!ErrorClassifier.isRetriable(e)) {
                    LOG.warn("sync: schema tracker could not replay \"{}\" ({}); the database's tables are "
                            + "created with its defaults at start", oneLine(d.sql()), e.getMessage());
                    return;
                }
                throw e;
            }
        }
    }

    /**
     * ALTER DATABASE … CHARACTER SET / COLLATE replayed on the database's scratch schema: tables
     * and columns created after it without a charset take the new default, as on the source.
     */
    void alterDatabase(AlterDatabase a, String sql, SourceSession session, String where) {
        try {
            ensureDatabase(a.db());
            replay(a.rewrite(sql, Identifiers.quote(scratchDatabase(a.db()))), session, where);
        } catch (SQLException e) {
            if (ErrorClassifier.isRetriable(e)) {
                throw unreachable(e);
            }
            LOG.warn("sync: schema tracker could not replay \"{}\" ({}); tables created in {} after it take "
                    + "its defaults as they were", oneLine(sql), e.getMessage(), a.db());
        }
    }

    /**
     * "CHARACTER SET x COLLATE y" of a source database at the reader's position (its scratch
     * schema's), for a target database that has to be created.
     */
    String databaseOptions(String db) {
        try {
            ensureDatabase(db);
            try (Statement st = tconn().createStatement(); ResultSet rs = st.executeQuery("SELECT "
                    + "DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE "
                    + "SCHEMA_NAME = " + Identifiers.literal(scratchDatabase(db)))) {
                return rs.next() ? "CHARACTER SET " + rs.getString(1) + " COLLATE " + rs.getString(2) : "";
            }
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    private void replay(String sql, SourceSession session, String where) throws SQLException {
        Connection c = tconn();
        try (SessionSwitch sw = SessionSwitch.enter(c, session.withoutForeignKeyChecks(), where);
             Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /**
     * Reads every source database's defaults now, before the stream opens: read later, they could
     * already include an ALTER DATABASE the reader has not reached.
     */
    void readSourceDefaults() {
        try {
            sourceDefaults();
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    /**
     * The scratch schema of a source database, created the first time it is needed with the
     * database's default charset and collation as the source's SCHEMATA listed them at start (a
     * database the source no longer has gets the source server's default).
     */
    private void ensureDatabase(String db) throws SQLException {
        if (db.isEmpty() || databases.contains(db)) {
            return;
        }
        String defaults = sourceDefaults().getOrDefault(db, sourceDefaults().get(null));
        try (Statement st = tconn().createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + Identifiers.quote(scratchDatabase(db)) + " " + defaults);
        }
        databases.add(db);
    }

    private Map<String, String> sourceDefaults() throws SQLException {
        if (sourceDefaults == null) {
            Map<String, String> m = new HashMap<>();
            try (Statement st = sconn().createStatement(); ResultSet rs = st.executeQuery("SELECT SCHEMA_NAME, "
                    + "DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA")) {
                while (rs.next()) {
                    m.put(rs.getString(1), "CHARACTER SET " + rs.getString(2) + " COLLATE " + rs.getString(3));
                }
            }
            try (Statement st = sconn().createStatement();
                 ResultSet rs = st.executeQuery("SELECT @@GLOBAL.collation_server")) {
                rs.next();
                m.put(null, "COLLATE " + rs.getString(1)); // what a database the source no longer has had
            }
            sourceDefaults = m;
        }
        return sourceDefaults;
    }

    private void ensure(TableName src) {
        if (known.containsKey(src)) {
            return;
        }
        try {
            Set<TableName> members = new HashSet<>(group(src));
            members.add(src);
            for (TableName t : members) {
                if (!known.containsKey(t)) {
                    dropCopy(t); // left by a replay that failed
                    boolean ok = copyFromTarget(t);
                    if (!ok && copyFromSource(t)) {
                        ok = true;
                        LOG.info("sync: table {} is not on the target; its definition is read from the source as "
                                + "it is now", t);
                    }
                    known.put(t, ok);
                }
            }
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    private Set<TableName> group(TableName src) {
        Set<TableName> g = groups().computeIfAbsent(router.apply(src), k -> new HashSet<>());
        g.add(src);
        return g;
    }

    private Map<TableName, Set<TableName>> groups() {
        if (groups == null) {
            groups = new HashMap<>();
            try {
                for (TableName t : SchemaReader.listTables(sconn(), selected)) {
                    groups.computeIfAbsent(router.apply(t), k -> new HashSet<>()).add(t);
                }
            } catch (SQLException e) {
                groups = null;
                throw new RetriableException("sync: cannot list the tables of the source " + source.address()
                        + ": " + e.getMessage(), e);
            }
        }
        return groups;
    }

    private boolean copyFromTarget(TableName src) throws SQLException {
        TableName spool = spools.apply(src);
        TableName t = spool != null ? spool : router.apply(src);
        ensureDatabase(src.schema());
        try (Statement st = tconn().createStatement()) {
            st.execute("CREATE TABLE " + copy(src).quoted() + " LIKE " + t.quoted());
            if (spool != null && SchemaReader.read(tconn(), copy(src)).columns().stream()
                    .anyMatch(c -> c.name().equalsIgnoreCase(ShardCoordinator.DELETED))) {
                // a shard waiting for a group DDL: the target table has not got it yet, its spool has
                st.execute("ALTER TABLE " + copy(src).quoted() + " DROP COLUMN "
                        + Identifiers.quote(ShardCoordinator.DELETED));
            }
            if (spool == null) {
                dropExtraColumns(st, src);
            }
            return true;
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTableOrDatabase(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Drops the columns the route adds from a copy of the target table, where it has them. The keys
     * that hold them are rebuilt without them first (MariaDB refuses to drop a column of a
     * multi-column key): the copy's primary key becomes the source's.
     */
    private void dropExtraColumns(Statement st, TableName src) throws SQLException {
        ExtraColumns extra = extraColumns.apply(src);
        if (extra.isEmpty()) {
            return;
        }
        TableName c = copy(src);
        Map<String, List<String>> keys = new java.util.LinkedHashMap<>();
        Set<String> unique = new HashSet<>();
        Set<String> touched = new HashSet<>();
        try (PreparedStatement ps = tconn().prepareStatement("SELECT INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART "
                + "FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? "
                + "ORDER BY INDEX_NAME, SEQ_IN_INDEX")) {
            ps.setString(1, c.schema());
            ps.setString(2, c.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String index = rs.getString(1);
                    String column = rs.getString(3);
                    List<String> cols = keys.computeIfAbsent(index, k -> new ArrayList<>());
                    if (rs.getInt(2) == 0) {
                        unique.add(index);
                    }
                    if (column == null || extra.contains(column)) {
                        touched.add(index); // an expression part (MySQL 8.0) is kept only with its index
                    } else {
                        cols.add(Identifiers.quote(column) + (rs.getObject(4) == null ? "" : "(" + rs.getInt(4) + ")"));
                    }
                }
            }
        }
        List<String> clauses = new ArrayList<>();
        for (String index : touched) {
            boolean primary = index.equals("PRIMARY");
            clauses.add(primary ? "DROP PRIMARY KEY" : "DROP INDEX " + Identifiers.quote(index));
            List<String> rest = keys.get(index);
            if (!rest.isEmpty()) {
                clauses.add((primary ? "ADD PRIMARY KEY" : (unique.contains(index) ? "ADD UNIQUE " : "ADD INDEX ")
                        + Identifiers.quote(index)) + " (" + String.join(", ", rest) + ")");
            }
        }
        SchemaReader.read(tconn(), c).columns().stream().map(Column::name).filter(extra::contains)
                .forEach(n -> clauses.add("DROP COLUMN " + Identifiers.quote(n)));
        if (!clauses.isEmpty()) {
            st.execute("ALTER TABLE " + c.quoted() + " " + String.join(", ", clauses));
        }
    }

    private boolean copyFromSource(TableName src) throws SQLException {
        String create;
        try (Statement st = sconn().createStatement();
             ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + src.quoted())) {
            if (!rs.next()) {
                return false;
            }
            create = rs.getString(2);
        } catch (SQLException e) {
            if (ErrorClassifier.isNoSuchTableOrDatabase(e)) {
                return false;
            }
            throw e;
        }
        ParsedDdl d = DdlParser.parse(src.schema(), create, SqlDialect.DEFAULT, grammar);
        if (d == null) {
            return false;
        }
        ensureDatabase(src.schema());
        try (Statement st = tconn().createStatement()) {
            st.execute(d.rewrite(n -> n.equals(d.primary()) ? copy(src) : n,
                    r -> r.role() == ParsedDdl.Role.TABLE));
        }
        return true;
    }

    private void dropCopy(TableName src) throws SQLException {
        try (Statement st = tconn().createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + copy(src).quoted());
        }
    }

    /** The copy of a source table: same name, in its database's scratch schema. */
    TableName copyOf(TableName src) {
        return copy(src);
    }

    private TableName copy(TableName src) {
        return new TableName(scratchDatabase(src.schema()), src.table());
    }

    /** A source database's scratch schema: the task's prefix and a hash that fits in 64 characters. */
    private String scratchDatabase(String db) {
        return scratch + "_" + hash(db).substring(0, 12);
    }

    private Connection tconn() throws SQLException {
        if (tconn == null || !tconn.isValid(2)) {
            closeQuietly(tconn);
            tconn = DataSources.connect(target);
            try (Statement st = tconn.createStatement()) {
                st.execute("SET SESSION foreign_key_checks = 0, sql_mode = 'NO_ENGINE_SUBSTITUTION'");
                if (known.isEmpty() && databases.isEmpty()) {
                    dropScratch(st); // a fresh start: copies of an earlier run describe another position
                }
            }
        }
        return tconn;
    }

    private void dropScratch(Statement st) throws SQLException {
        List<String> old = new java.util.ArrayList<>();
        try (ResultSet rs = st.executeQuery("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA")) {
            while (rs.next()) {
                String s = rs.getString(1);
                if (s.equals(scratch) || s.startsWith(scratch + "_")) {
                    old.add(s);
                }
            }
        }
        for (String s : old) {
            st.execute("DROP DATABASE IF EXISTS " + Identifiers.quote(s));
        }
    }

    private Connection sconn() throws SQLException {
        if (sconn == null || !sconn.isValid(2)) {
            closeQuietly(sconn);
            sconn = DataSources.connect(source);
            DataSources.showGeneratedInvisibleKeys(sconn);
        }
        return sconn;
    }

    private JdmException unreachable(SQLException e) {
        closeQuietly(tconn);
        tconn = null;
        String msg = "sync: the schema tracker's scratch schema " + scratch + " on the target "
                + target.address() + " failed: " + ErrorClassifier.oneLine(e) + "; restart the task";
        return ErrorClassifier.isRetriable(e) ? new RetriableException(msg, e) : new FatalException(msg, e);
    }

    private static String oneLine(String sql) {
        return sql.replaceAll("\\s+", " ");
    }

    private static String hash(String s) {
        return Hashes.sha256Hex(s, 64);
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // being replaced or closed at the end; nothing depends on it
            }
        }
    }

    /**
     * Ends the reader's use of the copies and drops them: the next start rebuilds them anyway
     * (copies describe one run's position), so a stopped or failed task leaves no scratch schema
     * on the target. A target that cannot be reached keeps them until the next start.
     */
    @Override
    public void close() {
        if (tconn != null) {
            try (Statement st = tconn.createStatement()) {
                dropScratch(st);
            } catch (SQLException e) {
                LOG.debug("sync: scratch schemas of {} left for the next start to drop: {}", scratch,
                        ErrorClassifier.oneLine(e));
            }
        }
        closeQuietly(tconn);
        closeQuietly(sconn);
        tconn = null;
        sconn = null;
    }
}
