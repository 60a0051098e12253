package io.jdm.sync.ring;

import io.jdm.common.position.BinlogPosition;
import java.util.Comparator;
import java.util.Objects;

/**
 * Where one row change sits in the source's binlog, totally ordered: file, start of its
 * transaction (the GTID or BEGIN event), ordinal of the rows event inside the transaction, index of
 * the row inside that event. Ordinals rather than byte offsets because MariaDB leaves the end
 * position of events inside a transaction at 0; replaying a transaction from its start yields the
 * same ordinals. {@code gtidBefore} is the GTID set executed before the transaction: with
 * {@code txnPos}, the two ways to restart the stream so that this change is read again.
 */
public record ChangePos(String file, long txnPos, long event, int row, String gtidBefore)
        implements Comparable<ChangePos> {
    private static final Comparator<ChangePos> ORDER = Comparator
            .comparingLong((ChangePos p) -> fileIndex(p.file))
            .thenComparing(ChangePos::file)
            .thenComparingLong(ChangePos::txnPos)
            .thenComparingLong(ChangePos::event)
            .thenComparingInt(ChangePos::row);

    public ChangePos {
        Objects.requireNonNull(file, "file");
        gtidBefore = gtidBefore == null ? "" : gtidBefore;
    }

    @Override
    public int compareTo(ChangePos o) {
        return ORDER.compare(this, o);
    }

    public boolean isAfter(ChangePos o) {
        return o == null || compareTo(o) > 0;
    }

    /** The position to request from the source so that this change's transaction is replayed whole. */
    public BinlogPosition restartPoint() {
        return new BinlogPosition(file, txnPos, gtidBefore);
    }

    static long fileIndex(String file) {
        return BinlogPosition.of(file, 0).fileIndex();
    }

    @Override
    public String toString() {
        return file + ":" + txnPos + "#" + event + "." + row;
    }
}
