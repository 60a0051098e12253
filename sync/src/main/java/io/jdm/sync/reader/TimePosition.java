package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.FatalException;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import io.jdm.common.position.BinlogPosition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DM's {@code start-task --start-time}: the position of the first transaction in the source's binlog
 * that starts at or after a time (by its first event's timestamp, in seconds as the binlog keeps
 * them). The binlog files are searched by the time each was opened (its FORMAT_DESCRIPTION event),
 * then the one file is read from its start until a transaction (a GTID event, BEGIN, or a DDL)
 * starts late enough. A time after every event gives the end of the binlog as it is now; one before
 * every kept file gives the start of the oldest.
 */
public final class TimePosition {
    private static final Logger LOG = LoggerFactory.getLogger(TimePosition.class);

    private TimePosition() {
    }

    /** The position of the first transaction at or after {@code time}. */
    public static BinlogPosition find(ConnectionSpec source, long serverId, Instant time) {
        List<String> files = new ArrayList<>();
        String endFile;
        long endPos;
        try (Connection c = DataSources.connect(source); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
                while (rs.next()) {
                    files.add(rs.getString(1));
                }
            }
            try (ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
                if (!rs.next() || files.isEmpty()) {
                    throw new FatalException("--start-time: the source " + source.address() + " writes no binlog; "
                            + "a start time needs one");
                }
                endFile = rs.getString(1);
                endPos = rs.getLong(2);
            }
        } catch (SQLException e) {
            throw ErrorClassifier.wrap("--start-time: cannot list the binlog files of " + source.address(), e);
        }
        long second = time.getEpochSecond() + (time.getNano() > 0 ? 1 : 0);
        // the last file opened at or before the time holds the first transaction after it, or the next one starts it
        int lo = 0;
        int hi = files.size() - 1;
        if (opened(source, serverId, files.get(0)) > second) {
            hi = 0;
        } else {
            while (lo < hi) {
                int mid = (lo + hi + 1) / 2;
                if (opened(source, serverId, files.get(mid)) <= second) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
        }
        BinlogPosition p = scan(source, serverId, files.get(hi), second, endFile, endPos);
        LOG.info("sync: --start-time {}: the first transaction at or after it is at {}", time, p);
        return p;
    }

    /** The time (epoch seconds) a binlog file was opened: its FORMAT_DESCRIPTION event's. */
    private static long opened(ConnectionSpec source, long serverId, String file) {
        long[] at = {-1};
        Exception e = connection(source, serverId, event -> {
            if (event.getHeader().getEventType() == EventType.FORMAT_DESCRIPTION) {
                at[0] = event.getHeader().getTimestamp() / 1000;
                return false;
            }
            return true;
        }).stream(new BinlogPosition(file, 4, null));
        if (at[0] < 0) {
            throw failed(source, file, e);
        }
        return at[0];
    }

    /** Reads {@code file} from its start; the first transaction starting at or after {@code second}. */
    private static BinlogPosition scan(ConnectionSpec source, long serverId, String file, long second, String endFile,
                                       long endPos) {
        BinlogPosition[] found = {null};
        String[] current = {file};
        boolean[] inTxn = {false};
        Exception e = connection(source, serverId, event -> {
            EventHeaderV4 h = event.getHeader();
            EventType type = h.getEventType();
            if (type == EventType.ROTATE) {
                String next = ((RotateEventData) event.getData()).getBinlogFilename();
                if (h.getTimestamp() != 0 && !next.equals(current[0])) {
                    found[0] = new BinlogPosition(next, 4, null); // nothing late enough in this file
                    return false;
                }
                current[0] = next;
                return true;
            }
            long start = h.getNextPosition() - h.getEventLength();
            boolean starts = false;
            if (type == EventType.GTID || type == EventType.ANONYMOUS_GTID || type == EventType.MARIADB_GTID) {
                starts = !inTxn[0];
                inTxn[0] = true;
            } else if (type == EventType.QUERY && event.getData() instanceof QueryEventData q) {
                String sql = q.getSql().strip().toUpperCase(Locale.ROOT);
                starts = !inTxn[0];
                // BEGIN opens a transaction; COMMIT and a DDL (after its GTID or alone) end one
                inTxn[0] = sql.equals("BEGIN") || sql.startsWith("XA START");
            } else if (type == EventType.XID || type == EventType.XA_PREPARE) {
                inTxn[0] = false;
            }
            if (starts && h.getTimestamp() / 1000 >= second) {
                found[0] = new BinlogPosition(current[0], start, null);
                return false;
            }
            if (current[0].equals(endFile) && h.getNextPosition() >= endPos) {
                found[0] = new BinlogPosition(endFile, endPos, null); // the time is after every event
                return false;
            }
            return true;
        }).stream(new BinlogPosition(file, 4, null));
        if (found[0] == null) {
            throw failed(source, file, e);
        }
        return found[0];
    }

    private static BinlogConnection connection(ConnectionSpec source, long serverId,
                                               java.util.function.Predicate<Event> events) {
        BinlogReader.Settings settings = new BinlogReader.Settings("start-time", source, serverId, false,
                Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(1), (db, table) -> false,
                null, null, null, null, null, null, null, null, null);
        return new BinlogConnection(settings, events, ex -> { });
    }

    private static FatalException failed(ConnectionSpec source, String file, Exception e) {
        return new FatalException("--start-time: cannot read the binlog file " + file + " of " + source.address()
                + (e == null ? "" : ": " + e.getMessage()));
    }
}
