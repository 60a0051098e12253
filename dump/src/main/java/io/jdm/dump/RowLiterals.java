package io.jdm.dump;

import io.jdm.common.schema.Column;
import io.jdm.common.sql.Identifiers;
import io.jdm.common.sql.JsonDocument;
import io.jdm.common.sql.JsonTextTypes;
import io.jdm.common.sql.ResultSetValues;
import io.jdm.common.sql.SqlBytes;
import io.jdm.common.sql.ValueEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes the current row of a streaming result set as comma-separated SQL literals in UTF-8, the
 * same literals {@link ResultSetValues#appendLiteral} gives, with the least work per value: how
 * each column is written is decided once per result set, each value is read once as the driver's
 * bytes, numbers and temporals are copied, binary values hex-encoded and character values (when the
 * driver delivers UTF-8, see {@link #deliversUtf8}) escaped byte by byte without being decoded.
 * Everything else goes through {@link ValueEncoder}.
 *
 * <p>{@link #rows} goes one step further with MySQL Connector/J: the rows are taken from the
 * driver's row reader and character and binary values are escaped straight out of its packet
 * buffer, without a {@code byte[]} copy per value (see {@link PacketRows}).
 */
final class RowLiterals {
    private static final byte NUMBER = 0;
    private static final byte TEMPORAL = 1;
    private static final byte UTF8_TEXT = 2;
    private static final byte BINARY = 3;
    private static final byte OTHER = 4;
    /** MySQL's JSON, as UTF-8 text: numbers its parser would misread are written back with their type. */
    private static final byte JSON_TEXT = 5;

    private final Column[] columns;
    private final byte[] kinds;
    /** MySQL protocol type ids of the columns, or null when the driver is not Connector/J. */
    private final int[] wireTypes;
    /**
     * For each MySQL JSON column, the result set index of which of its printed strings are strings
     * ({@link JsonTextTypes#stringsSql}, selected after the columns); 0 for any other column.
     */
    private final int[] stringsAt;
    /** The paths of each JSON column's values written as DATETIME, which may be TIMESTAMPs: see {@link #datetimePaths}. */
    private final Map<Integer, Set<String>> datetimePaths = new TreeMap<>();
    private int datetimePathCount;

    /**
     * For {@code rs}, whose columns are {@code columns} selected with {@link ResultSetValues#selectList},
     * then, as a dump selects them ({@link TableJob#selectList}), {@link JsonTextTypes#stringsSql} of
     * each JSON column.
     */
    RowLiterals(ResultSet rs, List<Column> columns) throws SQLException {
        this.columns = columns.toArray(new Column[0]);
        this.kinds = new byte[this.columns.length];
        this.stringsAt = new int[this.columns.length];
        int extra = this.columns.length;
        boolean selected = rs.getMetaData().getColumnCount() > extra; // not by a bare select list
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = kind(this.columns[i], rs, i + 1);
            if (selected && this.columns[i].dataType().equals("json")) {
                stringsAt[i] = ++extra;
                if (kinds[i] != JSON_TEXT) {
                    throw new IllegalStateException("JSON column " + this.columns[i].name() + " is not read as UTF-8");
                }
            }
        }
        this.wireTypes = PacketRows.wireTypes(rs);
    }

    /**
     * The paths, by column, of the JSON values written so far as DATETIME that the source prints as
     * a DATETIME or a TIMESTAMP prints ({@link JsonTextTypes#datetimePaths}), for the dump to ask
     * whether any is a TIMESTAMP, which no expression writes.
     *
     * @throws IllegalArgumentException past {@link #MAX_DATETIME_PATHS} distinct paths
     */
    Map<Integer, Set<String>> datetimePaths() {
        return datetimePaths;
    }

    /** Distinct paths of JSON date-times a chunk may hold: each is asked of the source. */
    static final int MAX_DATETIME_PATHS = 2_000;

    /**
     * The rows of {@code rs} (not yet read), read from Connector/J's row reader when no column needs
     * the result set (see {@link PacketRows}); from then on {@code rs} must only be closed.
     */
    PacketRows rows(ResultSet rs) throws SQLException {
        boolean direct = wireTypes != null && Arrays.stream(stringsAt).allMatch(k -> k == 0);
        for (int i = 0; i < kinds.length && direct; i++) {
            direct = kinds[i] == NUMBER || kinds[i] == TEMPORAL
                    || kinds[i] != OTHER && PacketRows.isBytes(wireTypes[i]);
        }
        return new PacketRows(rs, this, direct);
    }

    /** How many values a row has. */
    int columns() {
        return kinds.length;
    }

    /** Appends column {@code i}'s NULL, after a comma unless it is the first. */
    void appendNull(SqlBytes out, int i) {
        if (i > 0) {
            out.append(',');
        }
        out.appendAscii("NULL");
    }

    /**
     * Appends column {@code i}'s value, given as the {@code len} bytes the driver would hand over (the
     * text protocol's form of the value), after a comma unless it is the first. Only for a direct
     * {@link PacketRows}: every column is then a number, a temporal, UTF-8 text or binary.
     */
    void appendValue(SqlBytes out, int i, byte[] buf, int off, int len) {
        if (i > 0) {
            out.append(',');
        }
        value(out, i, buf, off, len);
    }

    /**
     * Writes column {@code i}'s value from the bytes the driver hands over: the one place a number,
     * a temporal, UTF-8 text or a binary value becomes its literal.
     */
    void value(SqlBytes out, int i, byte[] buf, int off, int len) {
        switch (kinds[i]) {
            // already a literal (a FLOAT is selected as its exact double), but for a FLOAT or DOUBLE -0
            case NUMBER -> {
                if (ValueEncoder.isNegativeZero(buf, off, len)) {
                    out.appendAscii(ValueEncoder.NEGATIVE_ZERO);
                } else {
                    out.append(buf, off, len);
                }
            }
            case TEMPORAL -> out.append('\'').append(buf, off, len).append('\''); // digits, '-', ':', '.', ' '
            case UTF8_TEXT -> ValueEncoder.appendString(out, buf, off, len);
            case JSON_TEXT -> json(out, i, buf, off, len);
            case BINARY -> ValueEncoder.appendHex(out, buf, off, len);
            default -> throw new IllegalStateException("column " + columns[i].name() + " is not read as bytes");
        }
    }

    /**
     * A JSON document: as its text, or where the text holds numbers MySQL's parser would read back
     * otherwise (DECIMALs such as {@code 1.50} or of 30 digits become doubles, doubles of 17 digits
     * their neighbours), as an expression that sets them back (see {@link JsonTextTypes}).
     */
    private void json(SqlBytes out, int i, byte[] buf, int off, int len) {
        json(out, i, buf, off, len, null);
    }

    /**
     * A JSON document, where {@code strings} ({@link JsonTextTypes#stringsSql}, null: none needed)
     * says which of its printed strings are strings: every other one is written back with its type.
     */
    private void json(SqlBytes out, int i, byte[] buf, int off, int len, String strings) {
        JsonDocument doc;
        try {
            doc = JsonTextTypes.of(new String(buf, off, len, StandardCharsets.UTF_8), strings);
            if (!doc.typed().isEmpty()) {
                ValueEncoder.append(out, columns[i], doc);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("column " + Identifiers.quote(columns[i].name()) + ": " + e.getMessage(),
                    e);
        }
        if (doc.typed().isEmpty()) {
            ValueEncoder.appendString(out, buf, off, len);
            return;
        }
        List<String> datetimes = JsonTextTypes.datetimePaths(doc);
        if (!datetimes.isEmpty()) {
            Set<String> seen = datetimePaths.computeIfAbsent(i, k -> new LinkedHashSet<>());
            for (String p : datetimes) {
                if (seen.add(p) && ++datetimePathCount > MAX_DATETIME_PATHS) {
                    throw new IllegalArgumentException("column " + Identifiers.quote(columns[i].name())
                            + " holds JSON date-times at more than " + MAX_DATETIME_PATHS + " paths in one chunk,"
                            + " too many to ask the source which are TIMESTAMPs; lower the task's rows");
                }
            }
        }
    }

    /** Like {@link #append(SqlBytes, ResultSet)} for the current row of a direct {@link PacketRows}. */
    void appendDirect(SqlBytes out, PacketRows rows) {
        for (int i = 0; i < kinds.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            byte kind = kinds[i];
            if (kind == NUMBER || kind == TEMPORAL || kind == JSON_TEXT) {
                byte[] raw = rows.bytes(i);
                if (raw == null) {
                    out.appendAscii("NULL");
                } else {
                    value(out, i, raw, 0, raw.length);
                }
            } else {
                rows.escape(i, out);
            }
        }
    }

    private static byte kind(Column column, ResultSet rs, int index) throws SQLException {
        return switch (column.dataType()) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "decimal", "numeric", "float",
                    "double", "real" -> NUMBER;
            case "date", "datetime", "timestamp", "time", "year" -> TEMPORAL;
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set",
                    "inet4", "inet6", "uuid" -> deliversUtf8(rs, index) ? UTF8_TEXT : OTHER;
            case "json" -> deliversUtf8(rs, index) ? JSON_TEXT : OTHER;
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> BINARY;
            default -> OTHER;
        };
    }

    /**
     * True when the driver delivers column {@code index}'s text as UTF-8 bytes (it does for every
     * character column when the session's {@code character_set_results} is utf8mb4, as
     * {@code ConnectionSpec.jdbcUrl()} sets it), so its raw bytes are the text {@code getString}
     * would decode.
     */
    static boolean deliversUtf8(ResultSet rs, int index) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        if (!md.isWrapperFor(com.mysql.cj.jdbc.result.ResultSetMetaData.class)) {
            return false;
        }
        String encoding = md.unwrap(com.mysql.cj.jdbc.result.ResultSetMetaData.class).getColumnCharacterEncoding(index);
        return encoding != null && (encoding.equalsIgnoreCase("UTF-8") || encoding.equalsIgnoreCase("UTF8"));
    }

    /** Appends the current row's values of {@code rs}, comma-separated, without parentheses. */
    void append(SqlBytes out, ResultSet rs) throws SQLException {
        for (int i = 0; i < kinds.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            int index = i + 1;
            byte kind = kinds[i];
            if (kind == OTHER) {
                ValueEncoder.append(out, columns[i], ResultSetValues.read(rs, index, columns[i]));
                continue;
            }
            byte[] raw = rs.getBytes(index);
            if (raw == null) {
                out.appendAscii("NULL");
            } else if (stringsAt[i] > 0) {
                json(out, i, raw, 0, raw.length, rs.getString(stringsAt[i]));
            } else {
                value(out, i, raw, 0, raw.length);
            }
        }
    }
}
