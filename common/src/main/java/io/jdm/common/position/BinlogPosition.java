package io.jdm.common.position;

import java.util.Comparator;
import java.util.Objects;

/**
 * A point in a source's binlog: file name, byte offset, and the GTID set executed up to it (empty
 * when GTID is off or unknown). Ordered by file then offset, which is how one server's binlog is
 * ordered.
 */
public record BinlogPosition(String file, long pos, String gtidSet) implements Comparable<BinlogPosition> {
    private static final Comparator<BinlogPosition> ORDER = Comparator
            .comparing(BinlogPosition::fileIndex)
            .thenComparing(BinlogPosition::file)
            .thenComparingLong(BinlogPosition::pos);

    public BinlogPosition {
        Objects.requireNonNull(file, "file");
        gtidSet = gtidSet == null ? "" : gtidSet.trim().replace("\n", "");
        if (pos < 0) {
            throw new IllegalArgumentException("binlog pos must be >= 0, got " + pos);
        }
    }

    public static BinlogPosition of(String file, long pos) {
        return new BinlogPosition(file, pos, "");
    }

    /** The numeric suffix of {@code mysql-bin.000042}, or -1 when there is none. */
    public long fileIndex() {
        int dot = file.lastIndexOf('.');
        if (dot < 0 || dot == file.length() - 1) {
            return -1;
        }
        try {
            return Long.parseLong(file.substring(dot + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public boolean hasGtid() {
        return !gtidSet.isEmpty();
    }

    @Override
    public int compareTo(BinlogPosition o) {
        return ORDER.compare(this, o);
    }

    /** As DM prints a position (go-mysql's {@code Position.String()}): {@code (mysql-bin.000042, 1234)}. */
    public String dmText() {
        return "(" + file + ", " + pos + ")";
    }

    /**
     * A position as DM writes one, {@code (mysql-bin.000042, 1234)}, without GTIDs.
     *
     * @throws IllegalArgumentException for any other text
     */
    public static BinlogPosition parseDmText(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(\\s*([^,\\s()]+)\\s*,\\s*(\\d{1,18})\\s*\\)")
                .matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("a binlog position is written (mysql-bin.000001, 4), got " + text);
        }
        return of(m.group(1), Long.parseLong(m.group(2)));
    }

    @Override
    public String toString() {
        return file + ":" + pos + (gtidSet.isEmpty() ? "" : " gtid=" + gtidSet);
    }
}
