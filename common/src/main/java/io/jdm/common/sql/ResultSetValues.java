package io.jdm.common.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads one column of a (streaming, text-protocol) result set into the canonical value
 * {@link ValueEncoder} takes.
 *
 * <p>Numbers, temporals and bytes are read as the server's raw text or bytes: Connector/J's typed
 * getters refuse zero dates, drop the sign of {@code -00:00:01}, turn YEAR into a date and trim
 * fractional zeros. Character types are decoded by the driver in the column's character set. The
 * session time zone must be {@code +00:00} (as {@code ConnectionSpec.jdbcUrl()} sets it) for
 * TIMESTAMP to come out in UTC. Any other type (bit, binary, blob, geometry) comes back as bytes.
 *
 * <p>Select columns with {@link #selectExpression(TypedColumn)}: the server prints FLOAT with six
 * significant digits, so a FLOAT is selected as {@code col * 1e0}, which is its exact value as a
 * double, its sign kept ({@code -0 + 0e0} would be {@code +0}).
 */
public final class ResultSetValues {
    private ResultSetValues() {
    }

    /** The SELECT expression that gives {@link #read} the column's exact value. */
    public static String selectExpression(TypedColumn column) {
        String q = Identifiers.quote(column.name());
        return "float".equals(column.dataType()) ? "(" + q + " * 1e0) AS " + q : q;
    }

    /** {@code a, (b * 1e0) AS b, c}: {@link #selectExpression(TypedColumn)} of each column, comma-joined. */
    public static String selectList(List<? extends TypedColumn> columns) {
        StringBuilder sb = new StringBuilder();
        for (TypedColumn c : columns) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(selectExpression(c));
        }
        return sb.toString();
    }

    /** The canonical value of column {@code index} (1-based) of the current row, {@code null} for SQL NULL. */
    public static Object read(ResultSet rs, int index, TypedColumn column) throws SQLException {
        if (isText(column.dataType())) {
            // Decoded by the driver with the column's own character set: Connector/J leaves
            // character_set_results NULL, so latin1 columns arrive as latin1 bytes.
            return rs.getString(index);
        }
        byte[] raw = rs.getBytes(index);
        if (raw == null) {
            return null;
        }
        return switch (column.dataType()) {
            case "tinyint", "smallint", "mediumint", "int", "integer" -> parseLong(raw);
            case "bigint" -> parseBigint(raw);
            case "decimal", "numeric" -> new BigDecimal(ascii(raw));
            case "float" -> (float) Double.parseDouble(ascii(raw));
            case "double", "real" -> Double.parseDouble(ascii(raw));
            case "date", "datetime", "timestamp", "time", "year" -> ascii(raw);
            default -> raw; // bit, binary, varbinary, blobs, geometry types
        };
    }

    /**
     * Appends the SQL literal of column {@code index} straight from the row: what
     * {@code ValueEncoder.append(sb, column, read(rs, index, column))} writes, without building the
     * value first. Numbers already arrive as valid literals (a FLOAT, selected as
     * {@code col * 1e0}, as its exact double; -0 written as {@link ValueEncoder#NEGATIVE_ZERO}) and temporals need no escaping, so the dump's hot loop
     * copies them; everything else goes through the encoder.
     */
    public static void appendLiteral(StringBuilder sb, ResultSet rs, int index, TypedColumn column)
            throws SQLException {
        switch (column.dataType()) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "decimal", "numeric" ->
                    appendRaw(sb, rs.getBytes(index), false);
            case "float", "double", "real" -> {
                byte[] raw = rs.getBytes(index);
                if (raw != null && ValueEncoder.isNegativeZero(raw, 0, raw.length)) {
                    sb.append(ValueEncoder.NEGATIVE_ZERO);
                } else {
                    appendRaw(sb, raw, false);
                }
            }
            case "date", "datetime", "timestamp", "time", "year" -> appendRaw(sb, rs.getBytes(index), true);
            default -> ValueEncoder.append(sb, column, read(rs, index, column));
        }
    }

    private static void appendRaw(StringBuilder sb, byte[] raw, boolean quoted) {
        if (raw == null) {
            sb.append("NULL");
            return;
        }
        if (quoted) {
            sb.append('\'');
        }
        for (byte b : raw) {
            sb.append((char) b);
        }
        if (quoted) {
            sb.append('\'');
        }
    }

    private static boolean isText(String dataType) {
        return switch (dataType) {
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set", "json" -> true;
            default -> TypedColumn.fixedBinaryLength(dataType) > 0; // written as text, as mariadb-dump does
        };
    }

    private static String ascii(byte[] raw) {
        return new String(raw, StandardCharsets.US_ASCII);
    }

    private static Long parseLong(byte[] raw) {
        long v = 0;
        int i = 0;
        boolean negative = raw[0] == '-';
        if (negative) {
            i = 1;
        }
        for (; i < raw.length; i++) {
            int d = raw[i] - '0';
            if (d < 0 || d > 9) {
                throw new NumberFormatException("not an integer: " + ascii(raw));
            }
            v = v * 10 - d; // accumulate negatively so Long.MIN_VALUE fits
        }
        return negative ? v : -v;
    }

    private static Number parseBigint(byte[] raw) {
        // 19 digits always fit a long; 20 are only unsigned values above Long.MAX_VALUE or Long.MIN_VALUE.
        if (raw.length < 19 || (raw.length == 20 && raw[0] == '-')) {
            return parseLong(raw);
        }
        BigInteger big = new BigInteger(ascii(raw));
        return big.bitLength() < 64 ? (Number) big.longValue() : big;
    }
}
