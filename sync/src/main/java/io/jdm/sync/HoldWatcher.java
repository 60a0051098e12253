package io.jdm.sync;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.hold.SyncHoldTable;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.sync.reader.ReadGate;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync's side of the hold of {@code jdm verify --snapshot} (see the hold package of the verify module):
 * polls the hold row on the target, closes the reader's {@link ReadGate} on a live request, answers
 * once the reader has paused or once every change before the requested position is committed, and
 * opens the gate again when the row is deleted or its lease runs out.
 */
final class HoldWatcher implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(HoldWatcher.class);

    private final ConnectionSpec target;
    private final SyncHoldTable table;
    private final String task;
    private final String sourceId;
    private final ReadGate gate;
    private final Supplier<BinlogPosition> readerPosition;
    private final LongSupplier published;
    private final LongSupplier committed;
    private Connection conn;
    private String token;
    private BinlogPosition until;
    private long untilSequence = -2;
    private boolean answered;
    private boolean warned;

    /**
     * @param readerPosition the end of the last event the reader has read
     * @param published the ring's cursor (the last change handed to the writers)
     * @param committed the lowest sequence every writer has committed
     */
    HoldWatcher(ConnectionSpec target, SyncHoldTable table, String task, String sourceId, ReadGate gate,
                Supplier<BinlogPosition> readerPosition, LongSupplier published, LongSupplier committed) {
        this.target = target;
        this.table = table;
        this.task = task;
        this.sourceId = sourceId;
        this.gate = gate;
        this.readerPosition = readerPosition;
        this.published = published;
        this.committed = committed;
    }

    void ensureTable() throws SQLException {
        try (Connection c = DataSources.connect(target)) {
            table.ensure(c);
        }
    }

    @Override
    public void run() {
        try {
            if (conn == null) {
                conn = DataSources.connect(target);
            }
            poll(table.read(conn, sourceId));
            warned = false;
        } catch (SQLException e) {
            closeConnection();
            if (!warned) {
                LOG.warn("sync: cannot read the hold row {} ({}); retrying", table.table(), ErrorClassifier.oneLine(e));
                warned = true;
            }
        } catch (RuntimeException e) {
            LOG.warn("sync: hold watcher: {}", ErrorClassifier.oneLine(e));
        }
    }

    private void poll(Optional<SyncHoldTable.Request> request) throws SQLException {
        if (request.isEmpty() || !request.get().live()) {
            if (token != null) {
                gate.open();
                LOG.info(request.isEmpty() ? "sync: task {} released by verify; replicating again"
                        : "sync: task {}: the verify hold's lease ran out; replicating again", task);
                token = null;
            }
            return;
        }
        SyncHoldTable.Request r = request.get();
        if (!r.token().equals(token)) {
            gate.pause();
            token = r.token();
            until = null;
            answered = false;
            table.ack(conn, sourceId, token, null);
            LOG.info("sync: task {} paused for verify at {}", task, readerPosition.get());
        }
        if (r.until() != null && !r.until().equals(until)) {
            until = r.until();
            untilSequence = -2;
            answered = false;
            gate.stopAt(until);
        }
        if (until != null && !answered && reached()) {
            table.ack(conn, sourceId, token, BinlogPosition.of(until.file(), until.pos()));
            answered = true;
            LOG.info("sync: task {} holds the target at source position {} for verify", task, until);
        }
    }

    /** Everything before {@code until} read, handed on and committed by every writer. */
    private boolean reached() {
        if (untilSequence == -2) {
            BinlogPosition read = readerPosition.get();
            if (read == null || read.compareTo(BinlogPosition.of(until.file(), until.pos())) < 0) {
                return false;
            }
            untilSequence = published.getAsLong();
        }
        return committed.getAsLong() >= untilSequence;
    }

    /** Opens the gate for good: the unit is stopping. */
    void close() {
        gate.open();
        closeConnection();
    }

    private void closeConnection() {
        if (conn != null) {
            try {
                conn.close();
            } catch (SQLException e) {
                LOG.debug("hold connection close: {}", e.getMessage());
            }
            conn = null;
        }
    }
}
