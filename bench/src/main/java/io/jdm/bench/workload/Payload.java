package io.jdm.bench.workload;

import io.jdm.common.sql.ValueEncoder;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The shape of the bench's sbtest tables. Wide rows: a TEXT column {@code doc} and a BLOB column
 * {@code bin} added to the sbtest shape, the two together between {@code minBytes} and
 * {@code maxBytes} a row (half each, drawn per row), for the shape of rows of 4–16 KB; and the
 * tables' default character set ({@code utf8mb4}; {@code latin1} as MySQL 5.7 and MariaDB create
 * tables by default, {@code utf8mb3} as MySQL 5.7's {@code utf8}). {@link #NONE} keeps sysbench's
 * columns in utf8mb4.
 */
public record Payload(int minBytes, int maxBytes, String charset) {
    public static final Payload NONE = new Payload(0, 0);
    /** The character sets a bench file may give its tables. */
    public static final List<String> CHARSETS = List.of("utf8mb4", "latin1", "utf8mb3");

    public Payload(int minBytes, int maxBytes) {
        this(minBytes, maxBytes, "utf8mb4");
    }

    /** This shape with the tables' default character set {@code charset}. */
    public Payload withCharset(String charset) {
        return new Payload(minBytes, maxBytes, charset);
    }

    /** Bytes a single INSERT of the prepare step aims at, far below any max_allowed_packet. */
    private static final int STATEMENT_BYTES = 4 << 20;

    public boolean present() {
        return maxBytes > 0;
    }

    /** The columns this shape adds to sbtest's, as they go into CREATE TABLE. */
    String columns() {
        return present() ? ", doc TEXT NULL, bin BLOB NULL" : "";
    }

    /** Rows a prepare statement holds: 1000, or fewer when each is wide (hex doubles the BLOB). */
    int rowsPerStatement() {
        return present() ? Math.max(1, Math.min(1000, STATEMENT_BYTES / (2 * maxBytes + 200))) : 1000;
    }

    /** Appends {@code ,'doc',0x…} of one row: printable ASCII text, then random bytes. */
    void appendValues(StringBuilder sb, SplittableRandom r) {
        int total = minBytes + (maxBytes > minBytes ? r.nextInt(maxBytes - minBytes + 1) : 0);
        int text = total / 2;
        sb.append(",'");
        for (int i = 0; i < text; i++) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        byte[] bin = new byte[total - text];
        for (int i = 0; i < bin.length; i++) {
            bin[i] = (byte) r.nextInt(256);
        }
        sb.append("',");
        ValueEncoder.appendHex(sb, bin);
    }
}
