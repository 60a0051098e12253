package io.jdm.dump;

import com.mysql.cj.MysqlType;
import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.exceptions.CJException;
import com.mysql.cj.jdbc.exceptions.SQLExceptionsMapping;
import com.mysql.cj.jdbc.result.ResultSetImpl;
import com.mysql.cj.protocol.a.NativePacketPayload;
import com.mysql.cj.protocol.a.result.AbstractBufferRow;
import com.mysql.cj.protocol.a.result.ResultsetRowsStreaming;
import com.mysql.cj.protocol.a.result.TextBufferRow;
import com.mysql.cj.protocol.ResultsetRows;
import com.mysql.cj.result.DefaultValueFactory;
import com.mysql.cj.result.Field;
import com.mysql.cj.result.Row;
import io.jdm.common.sql.SqlBytes;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The rows of a streaming result set as SQL literals ({@link RowLiterals}). With Connector/J, when
 * every column allows it, the rows are read from the driver's row reader instead of through
 * {@link ResultSet#next()}: the JDBC layer's per-row bookkeeping is skipped, and a character or
 * binary value is escaped (or hex-encoded) straight out of the packet the row arrived in, where
 * {@link ResultSet#getBytes} would first copy it. Numbers and temporals are still copied: they are
 * short. Otherwise the result set is read as usual. Used by the dump, the one place where rows are
 * only turned into text and written.
 *
 * <p>Where the driver's row is a text row over its packet ({@link TextBufferRow}, as streaming gives)
 * and its packet can be reached, the values are taken from the packet in one pass over its
 * length-encoded fields ({@link #raw}): the driver's per-value lookup, decoding and copying of
 * numbers are skipped as well. Any other row goes through the driver's accessors.
 *
 * <p>A row packet that fits the connection's {@link WireInput} is not even read by the driver: its
 * header is looked at and its values parsed where they lie in that buffer ({@link #wireRow}), and
 * the driver reads only what ends the rows (or reports an error), and rows too long for the buffer.
 */
final class PacketRows {
    /** Read the packet under a text row and where its values start; null when the driver hides them. */
    private static final MethodHandle PACKET;
    private static final MethodHandle HOME;

    static {
        MethodHandle packet = null;
        MethodHandle home = null;
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(AbstractBufferRow.class, MethodHandles.lookup());
            packet = lookup.findGetter(AbstractBufferRow.class, "rowFromServer", NativePacketPayload.class);
            home = lookup.findGetter(AbstractBufferRow.class, "homePosition", int.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            packet = null;
        }
        PACKET = packet;
        HOME = packet == null ? null : home;
    }

    private final ResultSet rs;
    private final ResultsetRows rows;
    private final RowLiterals literals;
    private final Escaper escaper;
    /** The connection's buffer, when rows are parsed where they arrive (see {@link WireInput}). */
    private final WireInput wire;
    private Row row;
    /** Where the current row's payload starts in {@link #wire}'s buffer, and its length; -1: none. */
    private int wireStart;
    private int wireLength = -1;
    private boolean fromPacket;
    private long wireRows;

    /** @param direct whether to read from the driver's row reader ({@link RowLiterals#rows} decides) */
    PacketRows(ResultSet rs, RowLiterals literals, boolean direct) throws SQLException {
        this.rs = rs;
        this.rows = direct ? ((ResultSetImpl) rs).getRows() : null;
        this.escaper = direct ? new Escaper(((ResultSetImpl) rs).getSession().getPropertySet(), literals)
                : null;
        this.literals = literals;
        try {
            this.wire = rows instanceof ResultsetRowsStreaming && PACKET != null ? WireInput.of(rs) : null;
        } catch (IOException e) {
            throw new SQLException("cannot read the connection's input: " + e.getMessage(), "08S01", e);
        }
    }

    /** True when the rows come from the driver's row reader. */
    boolean direct() {
        return rows != null;
    }

    /** The MySQL protocol type of each column, or null when {@code rs} is not Connector/J's. */
    static int[] wireTypes(ResultSet rs) {
        if (!(rs instanceof ResultSetImpl impl)) {
            return null;
        }
        Field[] fields = impl.getColumnDefinition().getFields();
        int[] out = new int[fields.length];
        for (int i = 0; i < fields.length; i++) {
            out[i] = fields[i].getMysqlTypeId();
        }
        return out;
    }

    /** Whether the driver hands values of this protocol type over as bytes (strings and blobs). */
    static boolean isBytes(int wireType) {
        return wireType == MysqlType.FIELD_TYPE_VARCHAR || wireType == MysqlType.FIELD_TYPE_VAR_STRING
                || wireType == MysqlType.FIELD_TYPE_STRING || wireType == MysqlType.FIELD_TYPE_TINY_BLOB
                || wireType == MysqlType.FIELD_TYPE_MEDIUM_BLOB || wireType == MysqlType.FIELD_TYPE_LONG_BLOB
                || wireType == MysqlType.FIELD_TYPE_BLOB;
    }

    /** Moves to the next row; false after the last. */
    boolean next() throws SQLException {
        if (rows == null) {
            return rs.next();
        }
        try {
            if (wire != null && wireRow()) {
                return true;
            }
            row = rows.next();
            return row != null;
        } catch (CJException e) {
            throw SQLExceptionsMapping.translateException(e, null);
        }
    }

    /**
     * Takes the next packet as the current row where it lies in the connection's buffer, when it is
     * a row packet that fits there. Anything else is left unread for the driver: a row over several
     * packets or larger than the buffer, the end of the rows (0xFE: an EOF or OK packet; a row's first
     * byte is 0xFE only in a packet of 16 MiB), an error (0xFF), or a read that failed (the driver
     * reads again and reports it in its own words).
     */
    private boolean wireRow() {
        if (wireLength >= 0) {
            wire.consume(4 + wireLength);
            wireLength = -1;
        }
        try {
            if (!wire.want(5)) {
                return false;
            }
            byte[] b = wire.buffer();
            int p = wire.position();
            int len = (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16;
            if (len == 0 || len >= 0xFFFFFF || 4 + len > WireInput.CAPACITY || !wire.want(4 + len)) {
                return false;
            }
            b = wire.buffer();
            p = wire.position();
            int first = b[p + 4] & 0xFF;
            if (first == 0xFE || first == 0xFF) {
                return false;
            }
            wireStart = p + 4;
            wireLength = len;
            row = null;
            wireRows++;
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Appends the current row's values, comma-separated, without parentheses. */
    void append(SqlBytes out) throws SQLException {
        if (rows == null) {
            literals.append(out, rs);
            return;
        }
        try {
            if (wireLength >= 0) {
                appendPacket(out, wire.buffer(), wireStart, wireStart + wireLength);
                fromPacket = true;
                return;
            }
            fromPacket = raw(out);
            if (!fromPacket) {
                literals.appendDirect(out, this);
            }
        } catch (CJException e) {
            throw SQLExceptionsMapping.translateException(e, null);
        }
    }

    /**
     * Appends the current row from its packet when it is a text row whose packet can be reached: a
     * text row is its columns' values in order, each a length-encoded string, or 0xFB for NULL.
     * False, having appended nothing, otherwise.
     */
    private boolean raw(SqlBytes out) {
        if (PACKET == null || row.getClass() != TextBufferRow.class) {
            return false;
        }
        NativePacketPayload packet;
        int pos;
        try {
            packet = (NativePacketPayload) PACKET.invokeExact((AbstractBufferRow) row);
            pos = (int) HOME.invokeExact((AbstractBufferRow) row);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot read a row's packet", e); // a getter of a field does not throw
        }
        appendPacket(out, packet.getByteBuffer(), pos, packet.getPayloadLength());
        return true;
    }

    /** Appends the row whose text-protocol payload is {@code buf} from {@code pos} to {@code end}. */
    private void appendPacket(SqlBytes out, byte[] buf, int pos, int end) {
        int columns = literals.columns();
        for (int i = 0; i < columns; i++) {
            if (pos >= end) {
                throw new IllegalStateException("a row packet ended after " + i + " of " + columns + " values");
            }
            int first = buf[pos++] & 0xFF;
            long len;
            if (first < 0xFB) {
                len = first;
            } else if (first == 0xFB) {
                literals.appendNull(out, i);
                continue;
            } else if (first == 0xFC) {
                len = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
                pos += 2;
            } else if (first == 0xFD) {
                len = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16;
                pos += 3;
            } else if (first == 0xFE) {
                len = 0;
                for (int b = 7; b >= 0; b--) {
                    len = len << 8 | (buf[pos + b] & 0xFF);
                }
                pos += 8;
            } else {
                throw new IllegalStateException("a row packet holds no value at column " + (i + 1));
            }
            if (len > end - pos) {
                throw new IllegalStateException("a row packet's value " + (i + 1) + " runs past its end");
            }
            literals.appendValue(out, i, buf, pos, (int) len);
            pos += (int) len;
        }
        if (pos != end) {
            throw new IllegalStateException("a row packet holds more than its " + columns + " values");
        }
    }

    /** How many rows were taken where they lay in the connection's buffer. */
    long wireRows() {
        return wireRows;
    }

    /** Whether the last row appended was read from its packet in one pass. */
    boolean fromPacket() {
        return fromPacket;
    }

    byte[] bytes(int column) {
        return row.getBytes(column);
    }

    /** Writes column {@code column}'s text or binary value straight from the driver's row. */
    void escape(int column, SqlBytes out) {
        escaper.out = out;
        escaper.column = column;
        row.getValue(column, escaper);
    }

    /**
     * Receives a value's bytes where they lie in the row's packet and writes its literal. Only columns
     * whose protocol type {@link #isBytes} are read through it; any other decoding is refused by the
     * driver's default factory as an unsupported conversion.
     */
    private static final class Escaper extends DefaultValueFactory<Void> {
        private final RowLiterals literals;
        SqlBytes out;
        int column;

        Escaper(PropertySet settings, RowLiterals literals) {
            super(settings);
            this.literals = literals;
        }

        @Override
        public Void createFromBytes(byte[] bytes, int offset, int length, Field f) {
            literals.value(out, column, bytes, offset, length);
            return null;
        }

        @Override
        public Void createFromNull() {
            out.appendAscii("NULL");
            return null;
        }

        @Override
        public String getTargetTypeName() {
            return "SQL literal";
        }
    }
}
