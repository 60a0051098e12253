package io.jdm.sync.reader;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_SOURCE_FATAL_ERROR_READING_BINLOG;

import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.error.JdmException;
import io.jdm.common.error.RetriableException;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import io.jdm.common.retry.Retries;
import io.jdm.common.retry.RetryCounter;
import java.io.EOFException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the binlog stream open: reopens the {@link BinlogConnection} from the last transaction
 * boundary when it drops, on the one retry policy ({@link Retries}: backoff from 100 ms doubling
 * up to the max backoff, within the retry budget, which starts over whenever the stream got
 * further, ended by a stop or an interrupt), and for what the one classifier calls retriable.
 * Anything else stops the reader with one line: a purged position (1236) says how to start over.
 * A connection the reader closed itself while held at the {@link ReadGate} is reopened once the
 * gate lets it go on, with no pause and a fresh budget. Reader thread only.
 */
final class StreamSupervisor {
    private static final Logger LOG = LoggerFactory.getLogger(StreamSupervisor.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    /**
     * How MySQL 5.7/8.0 and MariaDB word a 1236 for logs that are gone: the file is not in the
     * index, or the GTIDs the replica needs were purged (MySQL), or no binlog holds the requested
     * GTID state (MariaDB).
     */
    private static final Pattern PURGED = Pattern.compile("could not find first log file|purged|could not find "
            + "GTID state", Pattern.CASE_INSENSITIVE);

    private final BinlogReader.Settings settings;
    private final BinlogConnection connection;
    private final EventDispatcher events;
    private final ReaderContext ctx;
    private final ReadGate gate;
    private final ReaderStop stop;
    private final RetryCounter lost = new RetryCounter();
    private final Retries retries;
    private volatile long heldReconnects;
    /** Where the current connection started reading. */
    private BinlogPosition from;
    /** How far the stream had got at the last failure; and whether a hold ended since. */
    private long seen;
    private boolean reopenedAfterHold;

    StreamSupervisor(BinlogReader.Settings settings, BinlogConnection connection, EventDispatcher events,
                     ReaderContext ctx, ReadGate gate, ReaderStop stop) {
        this.settings = settings;
        this.connection = connection;
        this.events = events;
        this.ctx = ctx;
        this.gate = gate;
        this.stop = stop;
        this.retries = Retries.builder().budget(settings.retryBudget())
                .backoff(FIRST_BACKOFF, settings.maxBackoff()).counter(lost).stopWhen(stop::ended).build();
    }

    /** How often the stream was reopened: after a lost connection, or after a hold. */
    long reconnects() {
        return lost.total() + heldReconnects;
    }

    /**
     * Streams from {@code start} until the reader stops or fails.
     *
     * @throws JdmException when the stream is lost for good or the source refuses it
     */
    void run(BinlogPosition start) throws InterruptedException {
        from = start;
        seen = progress();
        try {
            retries.call("sync: binlog stream of " + settings.source().address(), retry -> {
                streamUntilLost(retry);
                return null;
            }, this::progressed);
        } catch (Retries.GaveUp e) {
            if (e.stopped() || stop.ended()) {
                return;
            }
            throw new RetriableException("sync: lost the binlog stream from " + settings.source().address()
                    + " at " + ctx.resumePoint() + " and could not get it back within "
                    + settings.retryBudget().toSeconds() + "s: " + ErrorClassifier.oneLine(e.getCause())
                    + "; check the source and restart the task", e.getCause());
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw refused(e);
        }
    }

    /** Streams until the connection is lost; returns once the reader stops or fails. */
    private void streamUntilLost(boolean retry) throws Exception {
        if (retry) {
            from = ctx.resumePoint();
        }
        while (!stop.ended()) {
            Exception failure = connection.stream(from);
            if (stop.ended()) {
                return;
            }
            if (!events.takeHeld()) {
                throw failure != null ? failure : new EOFException("connection closed by the server");
            }
            from = ctx.resumePoint();
            LOG.info("sync: held (verify hold or paused task); binlog connection closed at {} until it ends", from);
            gate.awaitPassable(from, stop::ended);
            heldReconnects++;
            reopenedAfterHold = true;
        }
    }

    /**
     * Whether the stream got further since the last failure (or a hold ended): the budget starts
     * over. A heartbeat counts: a stream quiet for longer than the budget was alive, and its first
     * drop must get the whole budget, not find it spent.
     */
    private boolean progressed() {
        long now = progress();
        boolean moved = now != seen || reopenedAfterHold;
        seen = now;
        reopenedAfterHold = false;
        return moved;
    }

    private long progress() {
        return ctx.rowEvents + ctx.lastEventEnd.pos() + ctx.heartbeats;
    }

    /**
     * The source refused the stream, or the stream refused the source's certificate: a failure no
     * reconnect can pass. 1236 covers more than a purge (a checksum the client did not declare, a
     * position past the file's end, a file the index lists but the disk lacks): only the source's
     * own words about missing logs or GTIDs are reported as a purge.
     */
    private JdmException refused(Exception e) {
        if (ErrorClassifier.isCertificateRefused(e)) {
            return new FatalException("sync: binlog stream of " + settings.source().address() + ": "
                    + ErrorClassifier.oneLine(e), e);
        }
        if (ErrorClassifier.code(e) == ER_SOURCE_FATAL_ERROR_READING_BINLOG && PURGED.matcher(
                String.valueOf(e.getMessage())).find()) {
            return purged(e);
        }
        return new FatalException("sync: the source refused the binlog stream at " + from + ": "
                + ErrorClassifier.oneLine(e) + "; fix the cause on the source and restart the task", e);
    }

    /**
     * The source has purged the binlog a resume needs. A checkpoint exists, so meta is not read
     * again: only the binlogs back, or starting over from a fresh dump, can go on without a gap.
     */
    private FatalException purged(Exception e) {
        return new FatalException("sync: task " + settings.task() + " needs binlog " + from.file() + " (from "
                + from + ") but the source " + settings.source().address() + " no longer has it (its oldest binlog "
                + "is " + oldestBinlog() + "; " + e.getMessage() + "); to go on without losing rows either restore "
                + "the purged binlogs on the source and restart, or start over from a new full dump: "
                + settings.startOver() + ", then run the task with task-mode all", e);
    }

    private String oldestBinlog() {
        try (Connection c = DataSources.connect(settings.source()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
            return rs.next() ? rs.getString(1) : "none";
        } catch (SQLException e) {
            return "unknown: " + ErrorClassifier.oneLine(e);
        }
    }
}
