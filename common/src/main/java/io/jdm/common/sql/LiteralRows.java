package io.jdm.common.sql;

import com.mysql.cj.MysqlType;
import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.exceptions.CJException;
import com.mysql.cj.jdbc.exceptions.SQLExceptionsMapping;
import com.mysql.cj.jdbc.result.ResultSetImpl;
import com.mysql.cj.protocol.InternalDate;
import com.mysql.cj.protocol.InternalTime;
import com.mysql.cj.protocol.InternalTimestamp;
import com.mysql.cj.protocol.ResultsetRows;
import com.mysql.cj.result.Field;
import com.mysql.cj.result.Row;
import com.mysql.cj.result.ValueFactory;
import java.math.BigDecimal;
import java.math.BigInteger;
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
public final class LiteralRows {
    private final ResultSet rs;
    private final ResultsetRows rows;
    private final RowLiterals literals;
    private final Escaper escaper = new Escaper();
    private Row row;

    /** @param direct whether to read from the driver's row reader ({@link RowLiterals#rows} decides) */
    LiteralRows(ResultSet rs, RowLiterals literals, boolean direct) {
        this.rs = rs;
        this.rows = direct ? ((ResultSetImpl) rs).getRows() : null;
        this.literals = literals;
    }

    /** True when the rows come from the driver's row reader. */
    public boolean direct() {
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
    public boolean next() throws SQLException {
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
    public void append(SqlBytes out) throws SQLException {
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

    /** Receives a value's bytes where they lie in the row's packet and writes its literal. */
    private static final class Escaper implements ValueFactory<Void> {
        SqlBytes out;
        boolean hex;

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

        private static Void unexpected(String what) {
            // only protocol types for which isBytes() holds come here, and the driver hands those over as bytes
            throw new IllegalStateException("the driver decoded a string or binary column as " + what);
        }

        @Override
        public void setPropertySet(PropertySet set) {
        }

        @Override
        public Void createFromTime(InternalTime t) {
            return unexpected("TIME");
        }

        @Override
        public Void createFromTimestamp(InternalTimestamp t) {
            return unexpected("TIMESTAMP");
        }

        @Override
        public Void createFromDate(InternalDate d) {
            return unexpected("DATE");
        }

        @Override
        public Void createFromDatetime(InternalTimestamp t) {
            return unexpected("DATETIME");
        }

        @Override
        public Void createFromYear(long y) {
            return unexpected("YEAR");
        }

        @Override
        public Void createFromLong(long l) {
            return unexpected("an integer");
        }

        @Override
        public Void createFromBigInteger(BigInteger i) {
            return unexpected("an integer");
        }

        @Override
        public Void createFromDouble(double d) {
            return unexpected("a double");
        }

        @Override
        public Void createFromBigDecimal(BigDecimal d) {
            return unexpected("a decimal");
        }

        @Override
        public Void createFromBit(byte[] bytes, int offset, int length) {
            return unexpected("BIT");
        }

        @Override
        public String getTargetTypeName() {
            return "SQL literal";
        }
    }
}
