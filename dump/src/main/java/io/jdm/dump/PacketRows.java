package io.jdm.dump;

import com.mysql.cj.MysqlType;
import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.exceptions.CJException;
import com.mysql.cj.jdbc.exceptions.SQLExceptionsMapping;
import com.mysql.cj.jdbc.result.ResultSetImpl;
import com.mysql.cj.protocol.ResultsetRows;
import com.mysql.cj.result.DefaultValueFactory;
import com.mysql.cj.result.Field;
import com.mysql.cj.result.Row;
import io.jdm.common.sql.SqlBytes;
import io.jdm.common.sql.ValueEncoder;
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
 */
final class PacketRows {
    private final ResultSet rs;
    private final ResultsetRows rows;
    private final RowLiterals literals;
    private final Escaper escaper;
    private Row row;

    /** @param direct whether to read from the driver's row reader ({@link RowLiterals#rows} decides) */
    PacketRows(ResultSet rs, RowLiterals literals, boolean direct) {
        this.rs = rs;
        this.rows = direct ? ((ResultSetImpl) rs).getRows() : null;
        this.escaper = direct ? new Escaper(((ResultSetImpl) rs).getSession().getPropertySet()) : null;
        this.literals = literals;
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
            row = rows.next();
            return row != null;
        } catch (CJException e) {
            throw SQLExceptionsMapping.translateException(e, null);
        }
    }

    /** Appends the current row's values, comma-separated, without parentheses. */
    void append(SqlBytes out) throws SQLException {
        if (rows == null) {
            literals.append(out, rs);
            return;
        }
        try {
            literals.appendDirect(out, this);
        } catch (CJException e) {
            throw SQLExceptionsMapping.translateException(e, null);
        }
    }

    byte[] bytes(int column) {
        return row.getBytes(column);
    }

    void escape(int column, SqlBytes out, boolean hex) {
        escaper.out = out;
        escaper.hex = hex;
        row.getValue(column, escaper);
    }

    /**
     * Receives a value's bytes where they lie in the row's packet and writes its literal. Only columns
     * whose protocol type {@link #isBytes} are read through it; any other decoding is refused by the
     * driver's default factory as an unsupported conversion.
     */
    private static final class Escaper extends DefaultValueFactory<Void> {
        SqlBytes out;
        boolean hex;

        Escaper(PropertySet settings) {
            super(settings);
        }

        @Override
        public Void createFromBytes(byte[] bytes, int offset, int length, Field f) {
            if (hex) {
                ValueEncoder.appendHex(out, bytes, offset, length);
            } else {
                ValueEncoder.appendString(out, bytes, offset, length);
            }
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
