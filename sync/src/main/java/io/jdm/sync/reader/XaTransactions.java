package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import io.jdm.common.error.FatalException;
import io.jdm.sync.ring.ByteBudget;
import io.jdm.sync.ring.RowChange;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * XA transactions as the source logs them (MySQL, MariaDB 10.5+): the prepared part (XA START or a
 * MariaDB GTID flagged prepared-XA, rows, XA END, XA_PREPARE) is one transaction with its own GTID,
 * and the outcome ({@code XA COMMIT xid} or {@code XA ROLLBACK xid}) another one, later, with its
 * own GTID, while other transactions go on in between. The changes of a prepared transaction are
 * held here until its outcome: handed on at the outcome's position on COMMIT (so they are ordered
 * with what the source committed around them), dropped on ROLLBACK.
 *
 * <p>On MySQL a prepared transaction's GTID counts as executed only once its outcome has been read
 * ({@link GtidTracker#hold}), so every position handed on meanwhile restarts the stream (by GTID)
 * before the prepared part, which is read and held again; what was already applied after it is
 * dropped as on any restart. A MariaDB GTID state cannot leave one transaction out: there the
 * positions carry a second state to restart from, with the prepared transaction's domain before it
 * ({@link GtidTracker#positionText}), to the same effect. An outcome whose prepared
 * part this reader never saw (it lies before where the task started, or a restart passed it)
 * cannot be replayed: the unit stops.
 * A one-phase commit (MySQL logs it as XA_PREPARE with the one-phase flag) is handed on at once.
 * Reader thread only.
 */
final class XaTransactions {
    /**
     * Held bytes beyond which the unit stops rather than grow the heap without bound: as much as
     * the ring may hold in flight (a sixteenth of the heap, see {@link ByteBudget#defaultLimit}).
     */
    private final long limit = Long.getLong("jdm.sync.xa-hold-bytes", ByteBudget.defaultLimit());

    /** A prepared transaction waiting for its outcome. */
    record Prepared(String xid, String gtid, String at, List<RowChange> changes, long bytes) {
    }

    private final Map<String, Prepared> prepared = new LinkedHashMap<>();
    /** The changes of the XA transaction being read, up to its XA_PREPARE; null outside one. */
    private List<RowChange> reading;
    private long readingBytes;
    private long heldBytes;

    /** A transaction starts: not an XA one unless {@link #begin} says so. */
    void reset() {
        reading = null;
        readingBytes = 0;
    }

    /** The open transaction is an XA one: its changes are kept until its XA_PREPARE. */
    void begin() {
        reading = new ArrayList<>();
        readingBytes = 0;
    }

    /** True while the open transaction is an XA one: its changes come here instead of the ring. */
    boolean reading() {
        return reading != null;
    }

    void add(RowChange c, String at) {
        readingBytes += ByteBudget.sizeOf(c);
        if (heldBytes + readingBytes > limit) {
            throw new FatalException("sync: the XA transaction at " + at + " holds more than " + (limit >> 20)
                    + " MiB of row changes until its XA COMMIT or XA ROLLBACK (with the prepared XA transactions "
                    + "still open: " + prepared.keySet() + "); give the JVM more heap, e.g. JDM_JAVA_OPTS=-Xmx4g, "
                    + "and restart the task (it reads the transaction again)");
        }
        reading.add(c);
    }

    /** XA_PREPARE with the one-phase flag: the changes read, to hand on now. */
    List<RowChange> commitOnePhase() {
        List<RowChange> out = reading == null ? List.of() : reading;
        reset();
        return out;
    }

    /**
     * XA_PREPARE: the changes read are held under {@code xid}. False when that transaction is held
     * already (read again after a reconnect): the copy just read is dropped.
     */
    boolean prepare(String xid, String gtid, String at) {
        List<RowChange> changes = reading == null ? List.of() : reading;
        long bytes = readingBytes;
        reset();
        if (prepared.containsKey(xid)) {
            return false;
        }
        prepared.put(xid, new Prepared(xid, gtid, at, changes, bytes));
        heldBytes += bytes;
        return true;
    }

    /** The outcome of {@code xid} arrived: its prepared part, no longer held; null when never seen. */
    Prepared outcome(String xid) {
        Prepared p = prepared.remove(xid);
        if (p != null) {
            heldBytes -= p.bytes();
        }
        return p;
    }

    /** The xid as the source writes it in XA statements of its binlog: {@code X'hex',X'hex',formatID}. */
    static String xid(XAPrepareEventData d) {
        byte[] data = d.getData();
        HexFormat hex = HexFormat.of().withUpperCase();
        String gtrid = hex.formatHex(data, 0, d.getGtridLength());
        String bqual = hex.formatHex(data, d.getGtridLength(), d.getGtridLength() + d.getBqualLength());
        return "X'" + gtrid + "',X'" + bqual + "'," + d.getFormatID();
    }

    /** The xid of {@code XA COMMIT xid} / {@code XA ROLLBACK xid} / {@code XA END xid}, written alike. */
    static String xid(String statement) {
        String rest = statement.trim().substring(2).trim(); // past XA
        rest = rest.substring(rest.indexOf(' ') + 1).trim(); // past COMMIT / ROLLBACK / END
        return rest.replace(" ", "").toUpperCase(Locale.ROOT);
    }
}
