package io.jdm.common.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * What this package needs of a column to select, read and write its values: its name and declared
 * type. The schema model's {@code Column} is the one implementation; reading columns through this
 * narrow view keeps the SQL text layer below the schema model, which names its tables with
 * {@link TableName}.
 */
public interface TypedColumn {
    String name();

    /** Lower-case base type as information_schema.DATA_TYPE gives it ({@code int}, {@code varchar}). */
    String dataType();

    /** The full type ({@code int(10) unsigned}, {@code enum('a','b')}). */
    String columnType();

    /**
     * The byte length of MariaDB's INET4 (4), INET6 and UUID (16), -1 for any other type. Their
     * values are written and read as text; a binary string of exactly this length is taken as the
     * value's raw bytes instead (a 16-character INET6 text sent as bytes would be stored as its
     * ASCII), and so is each value in the binlog, where trailing zero bytes are cut.
     */
    /** DATE, DATETIME, TIMESTAMP, TIME and YEAR, whose canonical values are MySQL's text of them. */
    static boolean isTemporal(String dataType) {
        return switch (dataType) {
            case "date", "datetime", "timestamp", "time", "year" -> true;
            default -> false;
        };
    }

    static int fixedBinaryLength(String dataType) {
        return switch (dataType) {
            case "inet4" -> 4;
            case "inet6", "uuid" -> 16;
            default -> -1;
        };
    }

    /**
     * The labels of an ENUM or SET type ({@code enum('a','b''c')}) as information_schema shows
     * them: a quote doubled, any other character after a backslash taken as it is.
     */
    static List<String> labels(String columnType) {
        List<String> out = new ArrayList<>();
        int open = columnType.indexOf('(');
        int close = columnType.lastIndexOf(')');
        if (open < 0 || close < open) {
            return out;
        }
        new SqlScanner(SqlDialect.DEFAULT).scan(columnType, open + 1, close, (kind, start, end) -> {
            if (kind == SqlScanner.Kind.STRING && end - start >= 2 && columnType.charAt(end - 1) == '\'') {
                StringBuilder label = new StringBuilder(end - start);
                for (int i = start + 1; i < end - 1; i++) {
                    char c = columnType.charAt(i);
                    label.append(c == '\\' || c == '\'' ? columnType.charAt(++i) : c);
                }
                out.add(label.toString());
            }
        });
        return out;
    }
}
