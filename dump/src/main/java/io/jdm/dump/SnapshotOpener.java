package io.jdm.dump;

import io.jdm.common.config.Consistency;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.position.Flavor;
import io.jdm.common.schema.SchemaReader;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.SqlModes;
import io.jdm.common.sql.TableName;
import io.jdm.common.util.NamedThreadFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the dump's connections so that they all see the source as of one binlog position:
 *
 * <pre>
 *  flush:    FTWRL ─► N × START TRANSACTION WITH CONSISTENT SNAPSHOT ─► list tables, read position ─► UNLOCK
 *  lock:     LOCK TABLES t… READ ─► N × START TRANSACTION WITH CONSISTENT SNAPSHOT ─► read position ─► UNLOCK
 *  snapshot: read TSO ─► N × SET tidb_snapshot = TSO
 *  lock-free: N plain connections at REPEATABLE READ; each chunk opens its own snapshot (ChunkWindow)
 *  none:     N plain connections ─► read position (marked "none" in the metadata)
 * </pre>
 *
 * The lock is held only while the snapshots open and the position is read. {@code auto} takes
 * {@code flush}, and where FTWRL is refused (no RELOAD) goes lock-free rather than to LOCK TABLES,
 * which managed MySQL refuses as well; only when a selected table has no key to replay it by does
 * it take LOCK TABLES, as before.
 */
final class SnapshotOpener {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotOpener.class);

    /**
     * What was opened: the connections, the position they see, the mode used and the selected
     * objects. Lock-free connections see no one position: theirs is the one when the dump began
     * (null: the source writes no binlog), and each chunk has its own.
     */
    record Opened(SnapshotPool pool, BinlogPosition position, Consistency used, List<TableName> tables,
                  List<TableName> views, SchemaFingerprint fingerprint) {
    }

    /** Seconds the source may wait on a chunk's reader: Connector/J's own for streamed results. */
    private static final String STREAMING_WRITE_TIMEOUT = "600";

    private final DumpConfig config;
    private final Flavor flavor;
    private final Connection meta;
    private final int size;

    SnapshotOpener(DumpConfig config, Flavor flavor, Connection meta) {
        this.config = config;
        this.flavor = flavor;
        this.meta = meta;
        this.size = config.threads() + 1;
    }

    /**
     * @param resumable the directory holds an incomplete lock-free dump: {@code auto} resumes it
     *                  lock-free rather than start over under a lock
     */
    Opened open(boolean resumable) throws SQLException {
        Consistency mode = config.consistency();
        if (mode == Consistency.AUTO && resumable && flavor != Flavor.TIDB) {
            LOG.info("{} holds an incomplete lock-free dump; resuming it lock-free", config.outputDir());
            mode = Consistency.LOCK_FREE;
        }
        if (mode == Consistency.AUTO) {
            mode = flavor == Flavor.TIDB ? Consistency.SNAPSHOT : Consistency.FLUSH;
        }
        return switch (mode) {
            case FLUSH -> flush(config.consistency() == Consistency.AUTO);
            case LOCK -> lock();
            case SNAPSHOT -> tidbSnapshot();
            case LOCK_FREE -> lockFree();
            case NONE -> none();
            case AUTO -> throw new IllegalStateException("resolved above");
        };
    }

    private Opened flush(boolean mayFallBack) throws SQLException {
        List<Connection> conns = openAll();
        Connection first = conns.get(0);
        try {
            try {
                exec(first, "FLUSH TABLES WITH READ LOCK");
            } catch (SQLException e) {
                if (mayFallBack && ErrorClassifier.isAccessDenied(e)) {
                    closeAll(conns);
                    List<TableName> keyless = keyless(SchemaReader.listTables(meta, config.tableFilter()));
                    if (keyless.isEmpty()) {
                        LOG.info("FLUSH TABLES WITH READ LOCK refused ({}); dumping lock-free: each chunk in its own "
                                + "snapshot, the sync in safe mode until it passes the last one",
                                ErrorClassifier.oneLine(e));
                        return lockFree();
                    }
                    LOG.info("FLUSH TABLES WITH READ LOCK refused ({}) and {} have no key to dump lock-free by; "
                            + "using LOCK TABLES on the selected tables", ErrorClassifier.oneLine(e), keyless.stream()
                            .map(TableName::quoted).collect(java.util.stream.Collectors.joining(", ")));
                    return lock();
                }
                throw e;
            }
            long t0 = System.nanoTime();
            try {
                startSnapshots(conns);
                SchemaReader.SchemaCondition where = SchemaReader.selectedSchemas(meta, "TABLE_SCHEMA",
                        config.tableFilter());
                SideRead<SchemaFingerprint> columns = null;
                if (where.schemas() != null && conns.size() > 1) {
                    // the columns beside the list, on a snapshot connection not lent yet: the lock is
                    // held for the longer of the two instead of both
                    Connection other = conns.get(conns.size() - 1);
                    columns = new SideRead<>(config.task(), "columns", () -> SchemaFingerprint.read(other, where));
                }
                SchemaReader.Listing listed;
                try {
                    listed = listing(where);
                } finally {
                    if (columns != null) {
                        columns.awaitQuietly();
                    }
                }
                SchemaFingerprint fingerprint;
                try {
                    fingerprint = columns != null ? columns.get() : SchemaFingerprint.read(meta, listed.tables());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while reading the tables' columns", e);
                }
                BinlogPosition pos = position(first);
                return new Opened(new SnapshotPool(conns, null), pos, Consistency.FLUSH, listed.tables(),
                        listed.views(), fingerprint);
            } finally {
                exec(first, "UNLOCK TABLES");
                LOG.info("global read lock held for {} ms", (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (SQLException | RuntimeException e) {
            closeAll(conns);
            throw e;
        }
    }

    private Opened lock() throws SQLException {
        SchemaReader.Listing listed = listing();
        List<TableName> tables = listed.tables();
        List<TableName> views = listed.views();
        List<Connection> conns = openAll();
        Connection locker = null;
        try {
            locker = connect();
            if (!tables.isEmpty()) {
                StringBuilder sb = new StringBuilder("LOCK TABLES ");
                for (int i = 0; i < tables.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(tables.get(i).quoted()).append(" READ");
                }
                exec(locker, sb.toString());
            }
            long t0 = System.nanoTime();
            try {
                startSnapshots(conns);
                SchemaFingerprint fingerprint = SchemaFingerprint.read(meta, tables);
                BinlogPosition pos = position(locker);
                return new Opened(new SnapshotPool(conns, null), pos, Consistency.LOCK, tables, views, fingerprint);
            } finally {
                exec(locker, "UNLOCK TABLES");
                LOG.info("table read locks held for {} ms", (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (SQLException | RuntimeException e) {
            closeAll(conns);
            throw e;
        } finally {
            if (locker != null) {
                locker.close();
            }
        }
    }

    private Opened tidbSnapshot() throws SQLException {
        if (flavor != Flavor.TIDB) {
            throw new FatalException("task " + config.task() + " dump: consistency snapshot needs a TiDB source, "
                    + config.sourceId() + " is " + flavor.name().toLowerCase() + "; use flush, lock or auto");
        }
        SchemaReader.Listing listed = listing();
        BinlogPosition pos = flavor.currentPosition(meta);
        String tso = Long.toString(pos.pos());
        SnapshotPool.Reopener reopen = () -> {
            Connection c = connect();
            exec(c, "SET SESSION tidb_snapshot = '" + tso + "'");
            return c;
        };
        List<Connection> conns = new ArrayList<>();
        try {
            for (int i = 0; i < size; i++) {
                conns.add(reopen.open());
            }
        } catch (SQLException e) {
            closeAll(conns);
            throw e;
        }
        return new Opened(new SnapshotPool(conns, reopen), pos, Consistency.SNAPSHOT, listed.tables(), listed.views(),
                null);
    }

    /**
     * Plain connections at REPEATABLE READ (a lost one is replaced: every chunk opens a snapshot of
     * its own); the columns are fingerprinted now, for the plan to compare against later.
     */
    private Opened lockFree() throws SQLException {
        SchemaReader.Listing listed = listing();
        SchemaFingerprint fingerprint = SchemaFingerprint.read(meta, listed.tables());
        BinlogPosition now = position(meta);
        return new Opened(new SnapshotPool(openAll(), this::connectRepeatableRead), now, Consistency.LOCK_FREE,
                listed.tables(), listed.views(), fingerprint);
    }

    /**
     * The tables with neither a primary key nor a unique key on NOT NULL columns ({@link
     * io.jdm.common.schema.TableSchema#identityKey}, what the lock-free dump chunks by).
     */
    private List<TableName> keyless(List<TableName> tables) throws SQLException {
        Map<TableName, TableSchema> read = SchemaReader.readEach(meta, tables);
        return tables.stream().filter(t -> read.containsKey(t) && !read.get(t).hasIdentityKey()).toList();
    }

    private Opened none() throws SQLException {
        SchemaReader.Listing listed = listing();
        List<Connection> conns = new ArrayList<>();
        try {
            for (int i = 0; i < size; i++) {
                conns.add(connect());
            }
        } catch (SQLException e) {
            closeAll(conns);
            throw e;
        }
        BinlogPosition pos = position(meta);
        LOG.warn("consistency none: the data is not consistent with the recorded position {}", pos);
        return new Opened(new SnapshotPool(conns, this::connect), pos, Consistency.NONE, listed.tables(), listed.views(),
                null);
    }

    /**
     * The tables and views the task selects, in one statement; a selected table jdm does not copy
     * (a system-versioned table, a sequence) stops the dump with one line rather than be left out.
     */
    private SchemaReader.Listing listing() throws SQLException {
        return listing(SchemaReader.selectedSchemas(meta, "TABLE_SCHEMA", config.tableFilter()));
    }

    private SchemaReader.Listing listing(SchemaReader.SchemaCondition where) throws SQLException {
        SchemaReader.Listing listed = SchemaReader.list(meta, where, config.tableFilter());
        String uncopied = listed.uncopiedLine(5);
        if (uncopied != null) {
            throw new FatalException("task " + config.task() + " dump: " + uncopied);
        }
        return listed;
    }

    /** Opens the connections in parallel (a TLS handshake each), all at REPEATABLE READ. */
    private List<Connection> openAll() throws SQLException {
        ExecutorService pool = Executors.newFixedThreadPool(size,
                new NamedThreadFactory(config.task(), "dump", "connect", true));
        List<Future<Connection>> pending = new ArrayList<>(size);
        try {
            for (int i = 0; i < size; i++) {
                pending.add(pool.submit(this::connectRepeatableRead));
            }
            List<Connection> conns = new ArrayList<>(size);
            SQLException failure = null;
            for (Future<Connection> f : pending) {
                try {
                    conns.add(f.get());
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof SQLException s ? s
                                : new SQLException(ErrorClassifier.oneLine(e), e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = new SQLException("interrupted while connecting", e);
                }
            }
            if (failure != null) {
                closeAll(conns);
                throw failure;
            }
            return conns;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void startSnapshots(List<Connection> conns) throws SQLException {
        for (Connection c : conns) {
            exec(c, "START TRANSACTION WITH CONSISTENT SNAPSHOT");
        }
    }

    /** The position, or null when the source writes no binlog (a full-only dump is still possible). */
    private BinlogPosition position(Connection c) throws SQLException {
        try {
            return flavor.currentPosition(c);
        } catch (SQLException e) {
            if (e.getSQLState() == null && String.valueOf(e.getMessage()).contains("binary log is disabled")) {
                LOG.warn("source {} has no binlog: the dump records no position", config.sourceId());
                return null;
            }
            throw e;
        }
    }

    private Connection connect() throws SQLException {
        return connect(config);
    }

    /** A connection at REPEATABLE READ, where START TRANSACTION WITH CONSISTENT SNAPSHOT takes a snapshot. */
    private Connection connectRepeatableRead() throws SQLException {
        Connection c = connect();
        try {
            exec(c, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        } catch (SQLException e) {
            SnapshotPool.abort(c);
            throw e;
        }
        return c;
    }

    /**
     * A source connection whose schemas and values read the same whatever the source's global
     * sql_mode, a generated invisible primary key shown. Its net_write_timeout is 600 s from the start, as Connector/J would otherwise set it
     * around each streamed chunk (and back to 60 s after): two round trips a chunk saved, which a
     * source across a network pays in milliseconds each.
     */
    static Connection connect(DumpConfig config) throws SQLException {
        Properties driver = new Properties();
        driver.setProperty("netTimeoutForStreamingResults", "0");
        Connection c = DataSources.connect(config.source().withSession(Map.of("sql_mode", SqlModes.READ,
                "net_write_timeout", STREAMING_WRITE_TIMEOUT)), driver);
        try {
            DataSources.showGeneratedInvisibleKeys(c);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static void closeAll(List<Connection> conns) {
        for (Connection c : conns) {
            SnapshotPool.abort(c);
        }
    }
}
