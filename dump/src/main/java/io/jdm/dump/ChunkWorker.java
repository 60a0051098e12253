package io.jdm.dump;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_BAD_FIELD_ERROR;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_NO_SUCH_TABLE;
import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_TABLE_DEF_CHANGED;

import io.jdm.common.dumpdir.ChunkJournal;
import io.jdm.common.dumpdir.DumpListener;
import io.jdm.common.dumpdir.FileManifest;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.retry.Retries;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.JsonTextTypes;
import io.jdm.common.sql.SqlBytes;
import io.jdm.common.sql.ValueEncoder;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Takes chunks from the shared queue and streams each one from a snapshot connection into its data
 * files. A chunk whose connection is lost is written again from the start on another connection of
 * the same snapshot (io.jdm.common.retry's policy), after its partial files are deleted; when no such
 * connection is left, the dump fails naming the table and chunk. In a lock-free dump each chunk is
 * read in its own snapshot ({@link ChunkWindow}) and recorded in {@code jdm-chunks} once its files
 * are complete, before they are announced.
 */
final class ChunkWorker implements Runnable {
    /** A lock-free dump's per-chunk snapshot and the journal each finished chunk is recorded in. */
    record LockFree(ChunkWindow window, ChunkJournal journal) {
    }

    /** A chunk is read at most this often: a connection lost twice in a row is not bad luck. */
    private static final int MAX_ATTEMPTS = 3;
    private static final int COUNT_EVERY = 1024;

    private final BlockingQueue<Chunk> queue;
    private final SnapshotPool pool;
    private final DumpState state;
    private final DumpConfig config;
    private final DumpMetrics metrics;
    private final Path dir;
    private final SqlBytes buffer;
    private final Collection<FileManifest.Entry> written;
    private final DumpListener listener;
    private final ChunkWindow window;
    private final ChunkJournal journal;
    private final Retries retries;

    /**
     * @param written collects the files of every finished chunk, for {@code jdm-files}
     * @param listener told of each file of a finished chunk (a retried chunk's files are rewritten, so
     *                 none is told before its chunk is done)
     * @param lockFree the per-chunk snapshot and the journal of a lock-free dump; null for a dump
     *                 read in one snapshot
     */
    ChunkWorker(BlockingQueue<Chunk> queue, SnapshotPool pool, DumpState state, DumpConfig config,
                DumpMetrics metrics, Path dir, Collection<FileManifest.Entry> written, DumpListener listener,
                LockFree lockFree) {
        this.written = written;
        this.listener = listener;
        this.window = lockFree == null ? null : lockFree.window();
        this.journal = lockFree == null ? null : lockFree.journal();
        this.retries = Retries.builder().maxRetries(MAX_ATTEMPTS - 1)
                .backoff(Duration.ofMillis(50), Duration.ofSeconds(1))
                .retryIf(e -> e instanceof SQLException && ErrorClassifier.isRetriable(e) && pool.canRetry())
                .stopWhen(state::halted)
                .build();
        this.queue = queue;
        this.pool = pool;
        this.state = state;
        this.config = config;
        this.metrics = metrics;
        this.dir = dir;
        this.buffer = new SqlBytes((int) Math.min(config.statementSize() + 64 * 1024, 16 * 1024 * 1024));
    }

    @Override
    public void run() {
        try {
            while (!state.halted()) {
                Chunk chunk = queue.poll(100, TimeUnit.MILLISECONDS);
                if (chunk == Chunk.END) {
                    return;
                }
                if (chunk != null) {
                    dumpWithRetry(chunk);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            state.fail(new FatalException("task " + config.task() + " dump: worker interrupted"));
        } catch (RuntimeException e) {
            state.fail(ErrorClassifier.wrap("task " + config.task() + " dump", e));
        }
    }

    /**
     * Dumps the chunk, again from the start on another connection after a retriable failure, under
     * the one retry policy; the first other failure, or running out of attempts, fails the dump.
     */
    private void dumpWithRetry(Chunk chunk) throws InterruptedException {
        try {
            retries.call(prefix(chunk), retry -> attempt(chunk));
        } catch (InterruptedException e) {
            throw e;
        } catch (SQLException e) {
            state.fail(classify(chunk, e));
        } catch (IOException e) {
            state.fail(new FatalException(prefix(chunk) + ": cannot write to " + dir + ": "
                    + ErrorClassifier.oneLine(e) + "; check free space and permissions, then rerun", e));
        } catch (Retries.GaveUp e) {
            if (!e.stopped() && e.getCause() instanceof SQLException s) {
                state.fail(classify(chunk, s));
            }
        } catch (Exception e) {
            state.fail(ErrorClassifier.wrap(prefix(chunk), e));
        }
    }

    /**
     * One try of the chunk on a connection of the pool: its files are complete (and, lock-free,
     * recorded in the journal) before anyone is told of them. A failure leaves no file of it and
     * the connection discarded.
     */
    private Void attempt(Chunk chunk) throws SQLException, IOException, InterruptedException {
        Connection conn = pool.take(state::halted);
        if (conn == null) {
            if (!state.halted()) {
                state.fail(new FatalException(prefix(chunk) + ": no connection to the snapshot is left;"
                        + " rerun the dump"));
            }
            return null;
        }
        DataFileWriter writer = new DataFileWriter(dir, chunk.table(), config.compress(), config.statementSize(),
                config.chunkFileSizeMb() * 1024 * 1024, metrics.bytesCounter(), buffer);
        long[] counted = new long[1];
        try {
            ChunkWindow.Positions at = window == null ? null : window.open(conn);
            if (!dumpChunk(conn, chunk, writer, counted)) {
                writer.discard();
                SnapshotPool.abort(conn);
                return null; // halted: the first failure or the stop request speaks for the dump
            }
            if (window != null) {
                ChunkWindow.close(conn);
            }
            writer.finish();
            if (journal != null) {
                journal.record(new ChunkJournal.Done(chunk.table().name().schema(), chunk.table().name().table(),
                        chunk.index(), at.low(), at.high(), writer.written()));
            }
        } catch (SQLException e) {
            writer.discard();
            metrics.rowsCounter().add(-counted[0]);
            if (state.halted()) {
                SnapshotPool.abort(conn);
                return null;
            }
            if (!replace(conn, chunk)) {
                return null;
            }
            throw e;
        } catch (IOException | RuntimeException e) {
            writer.discard();
            SnapshotPool.abort(conn);
            throw e;
        }
        written.addAll(writer.written());
        pool.give(conn);
        writer.recordWriteLatency(metrics.chunkWriteLatency());
        metrics.chunkDone();
        boolean tableDone = chunk.table().release();
        if (tableDone) {
            metrics.tableDone();
        }
        announce(writer.written());
        if (tableDone) {
            listener.tableWritten(chunk.table().name());
        }
        return null;
    }

    /**
     * Tells the listener of the chunk's files, waiting (with no snapshot connection held) while the
     * load that follows the dump is too far behind; gives up waiting once the dump is halted.
     */
    private void announce(List<FileManifest.Entry> files) throws InterruptedException {
        announce(listener, state, files);
    }

    /** Tells {@code listener} of each file, waiting while it is behind; gives up once the dump is halted. */
    static void announce(DumpListener listener, DumpState state, List<FileManifest.Entry> files)
            throws InterruptedException {
        for (FileManifest.Entry f : files) {
            while (!listener.dataWritten(f, 100, TimeUnit.MILLISECONDS)) {
                if (state.halted()) {
                    return;
                }
            }
        }
    }

    /** Drops the broken connection; false (and the dump failed) when even that went wrong. */
    private boolean replace(Connection conn, Chunk chunk) {
        try {
            pool.discard(conn);
            return true;
        } catch (SQLException e) {
            state.fail(new FatalException(prefix(chunk) + ": lost the connection and could not open another: "
                    + ErrorClassifier.oneLine(e), e));
            return false;
        }
    }

    /** Streams the chunk into the writer; false when the dump was halted meanwhile. */
    private boolean dumpChunk(Connection conn, Chunk chunk, DataFileWriter writer, long[] counted)
            throws SQLException, IOException {
        List<Column> cols = chunk.table().columns();
        String sql = query(chunk);
        RowLiterals literals;
        try (Statement st = conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(Integer.MIN_VALUE);
            long t0 = System.nanoTime();
            try (ResultSet rs = st.executeQuery(sql)) {
                metrics.chunkQueryLatency().recordSince(t0);
                try {
                    literals = stream(rs, conn, cols, writer, counted);
                } catch (IOException | RuntimeException e) {
                    SnapshotPool.abort(conn); // else closing the result set would read it to its end
                    throw e;
                }
            }
        }
        if (literals == null) {
            return false;
        }
        refuseJsonTimestamps(conn, chunk, literals.datetimePaths());
        return true;
    }

    /**
     * The chunk's JSON values written as DATETIME that the source holds as TIMESTAMPs, which print
     * alike and which no SQL expression writes into JSON: the first one found fails the dump in
     * one line, as the sync refuses one. One statement per column, on the chunk's connection.
     */
    private void refuseJsonTimestamps(Connection conn, Chunk chunk, Map<Integer, Set<String>> paths)
            throws SQLException {
        for (Map.Entry<Integer, Set<String>> e : paths.entrySet()) {
            String column = Identifiers.quote(chunk.table().columns().get(e.getKey()).name());
            StringBuilder found = new StringBuilder("CASE");
            StringBuilder any = new StringBuilder();
            for (String p : e.getValue()) {
                StringBuilder type = new StringBuilder("JSON_TYPE(JSON_EXTRACT(").append(column).append(", ");
                ValueEncoder.appendString(type, p);
                type.append(")) = 'TIMESTAMP'");
                found.append(" WHEN ").append(type).append(" THEN ");
                ValueEncoder.appendString(found, p);
                any.append(any.isEmpty() ? "" : " OR ").append(type);
            }
            String cond = ChunkPlanner.and(ChunkPlanner.and(chunk.condition(), config.where(chunk.table().schema())),
                    any.toString());
            String sql = "SELECT " + found + " END FROM " + chunk.table().name().quoted() + " WHERE " + cond
                    + " LIMIT 1";
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                if (rs.next()) {
                    throw new FatalException(prefix(chunk) + ": column " + column + ": "
                            + JsonTextTypes.refused(rs.getString(1), "TIMESTAMP", "store it as a DATETIME on the source")
                            .refusal());
                }
            }
        }
    }

    /** The rows of {@code rs} into the writer: what wrote them, or null when the dump was halted meanwhile. */
    private RowLiterals stream(ResultSet rs, Connection conn, List<Column> cols, DataFileWriter writer,
                               long[] counted) throws SQLException, IOException {
        RowLiterals literals = new RowLiterals(rs, cols);
        PacketRows rows = literals.rows(rs);
        long pending = 0;
        while (rows.next()) {
            if (state.halted()) {
                SnapshotPool.abort(conn);
                return null;
            }
            rows.append(writer.startRow());
            writer.endRow();
            if (++pending == COUNT_EVERY) {
                metrics.rowsCounter().add(pending);
                counted[0] += pending;
                pending = 0;
            }
        }
        metrics.rowsCounter().add(pending);
        counted[0] += pending;
        return literals;
    }

    private String query(Chunk chunk) {
        TableJob t = chunk.table();
        StringBuilder sb = new StringBuilder("SELECT ").append(t.selectList()).append(" FROM ")
                .append(t.name().quoted());
        String cond = ChunkPlanner.and(chunk.condition(), config.where(t.schema()));
        if (cond != null) {
            sb.append(" WHERE ").append(cond);
        }
        if (chunk.orderBy() != null) {
            sb.append(" ORDER BY ").append(chunk.orderBy());
        }
        return sb.toString();
    }

    private String prefix(Chunk chunk) {
        return "task " + config.task() + " dump: " + chunk.describe();
    }

    private JdmException classify(Chunk chunk, SQLException e) {
        String table = chunk.table().name().quoted();
        String what = switch (e.getErrorCode()) {
            case ER_NO_SUCH_TABLE -> "table " + table + " was dropped during the dump; rerun the dump";
            case ER_TABLE_DEF_CHANGED -> "table " + table + " was altered during the dump and its snapshot version"
                    + " can no longer be read; rerun the dump";
            case ER_BAD_FIELD_ERROR -> "table " + table + " was altered during the dump (" + ErrorClassifier.oneLine(e)
                    + "); rerun the dump";
            default -> null;
        };
        if (what != null) {
            return new FatalException("task " + config.task() + " dump: " + what, e);
        }
        String advice = ErrorClassifier.isRetriable(e)
                ? "; the consistent snapshot cannot be reopened, rerun the dump"
                : "";
        return new FatalException(prefix(chunk) + ": " + ErrorClassifier.oneLine(e) + advice, e);
    }
}
