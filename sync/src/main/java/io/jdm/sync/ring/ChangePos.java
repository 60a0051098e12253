package io.jdm.sync.ring;

import io.jdm.common.position.BinlogPosition;
import java.util.Comparator;
import java.util.Objects;

/**
 * Where one row change sits in the source's binlog, totally ordered: its transaction, the ordinal
 * of the rows event inside the transaction, the index of the row inside that event. Ordinals rather
 * than byte offsets because MariaDB leaves the end position of events inside a transaction at 0;
 * replaying a transaction from its start yields the same ordinals. {@code gtidBefore} is the GTID
 * set executed before the transaction: with {@code txnPos}, the two ways to restart the stream so
 * that this change is read again.
 *
 * <p>Which transaction comes first: with GTIDs on both sides, the one with fewer transactions
 * executed before it ({@link #gtidWeight}: MySQL's count of GTIDs, MariaDB's sum of each domain's
 * sequence number). File names and offsets belong to one server's binlog: a replica that took over,
 * or the same server restarted with another {@code log-bin} basename, numbers its files from
 * 000001 again, and ordering by them would take every change after the switch for one already
 * applied. Only without GTIDs are transactions ordered by file index and offset.
 *
 * <p>On MariaDB, while a prepared XA transaction waits for its outcome, {@code gtidBefore} is
 * {@code ordering~restart}: the executed state, which orders, and the state to restart from, which
 * leaves the prepared transaction's domain where it was before it, so that a restart reads it again
 * (a MariaDB state cannot leave one transaction out as a MySQL set can).
 */
public record ChangePos(String file, long txnPos, long event, int row, String gtidBefore)
        implements Comparable<ChangePos> {
    private static final Comparator<ChangePos> ORDER = Comparator
            .comparingLong((ChangePos p) -> fileIndex(p.file))
            .thenComparing(ChangePos::file)
            .thenComparingLong(ChangePos::txnPos)
            .thenComparingLong(ChangePos::event)
            .thenComparingInt(ChangePos::row);

    /** Separates the ordering state from the restart state in {@code gtidBefore}. */
    public static final char RESTART = '~';

    /** {@code ordering~restart}, or {@code ordering} when both are the same. */
    public static String withRestart(String ordering, String restart) {
        return ordering.equals(restart) ? ordering : ordering + RESTART + restart;
    }

    /** The state to restart from in a {@code gtidBefore}. */
    public static String restartGtids(String gtidBefore) {
        int at = gtidBefore.indexOf(RESTART);
        return at < 0 ? gtidBefore : gtidBefore.substring(at + 1);
    }

    public ChangePos {
        Objects.requireNonNull(file, "file");
        gtidBefore = gtidBefore == null ? "" : gtidBefore;
    }

    @Override
    public int compareTo(ChangePos o) {
        long mine = gtidWeight(gtidBefore);
        long theirs = gtidWeight(o.gtidBefore);
        if (mine < 0 || theirs < 0) {
            return ORDER.compare(this, o);
        }
        int c = Long.compare(mine, theirs);
        if (c == 0 && file.equals(o.file)) {
            c = Long.compare(txnPos, o.txnPos); // boundaries of one file with no transaction between
        }
        if (c == 0) {
            c = Long.compare(event, o.event);
        }
        return c != 0 ? c : Integer.compare(row, o.row);
    }

    /** The last set weighed: every row of a transaction carries the same string. */
    private static volatile Weighed lastWeighed = new Weighed("", -1);

    private record Weighed(String set, long weight) {
    }

    /**
     * How many transactions a GTID set says were executed, as a number that grows with every
     * transaction of one history: a MySQL set ({@code uuid:1-5:7-9,uuid2:1-3}) counts its GTIDs, a
     * MariaDB state ({@code 0-1-42,1-2-7}) adds each domain's sequence number. -1 when the set is
     * empty (GTID off or unknown).
     */
    static long gtidWeight(String set) {
        Weighed w = lastWeighed;
        if (w.set == set) {
            return w.weight;
        }
        int restart = set.indexOf(RESTART);
        String ordering = restart < 0 ? set : set.substring(0, restart);
        long weight = ordering.isBlank() ? -1 : ordering.indexOf(':') >= 0 ? mysqlCount(ordering)
                : mariadbSum(ordering);
        lastWeighed = new Weighed(set, weight);
        return weight;
    }

    private static long mysqlCount(String set) {
        long n = 0;
        for (String uuidSet : set.split(",")) {
            String[] parts = uuidSet.trim().split(":");
            for (int i = 1; i < parts.length; i++) {
                if (parts[i].isEmpty() || !Character.isDigit(parts[i].charAt(0))) {
                    continue; // a tag (MySQL 8.3+: uuid:tag:1-5)
                }
                int dash = parts[i].indexOf('-');
                long from = Long.parseLong(parts[i].substring(0, dash < 0 ? parts[i].length() : dash).trim());
                long to = dash < 0 ? from : Long.parseLong(parts[i].substring(dash + 1).trim());
                n += to - from + 1;
            }
        }
        return n;
    }

    private static long mariadbSum(String state) {
        long n = 0;
        for (String gtid : state.split(",")) {
            String g = gtid.trim();
            if (!g.isEmpty()) {
                n += Long.parseLong(g.substring(g.lastIndexOf('-') + 1));
            }
        }
        return n;
    }

    public boolean isAfter(ChangePos o) {
        return o == null || compareTo(o) > 0;
    }

    /** The position to request from the source so that this change's transaction is replayed whole. */
    public BinlogPosition restartPoint() {
        return new BinlogPosition(file, txnPos, restartGtids(gtidBefore));
    }

    static long fileIndex(String file) {
        return BinlogPosition.of(file, 0).fileIndex();
    }

    @Override
    public String toString() {
        return file + ":" + txnPos + "#" + event + "." + row;
    }
}
