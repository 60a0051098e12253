package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.jdm.common.schema.Column;
import io.jdm.sync.ring.TableInfo;
import java.util.Set;

/**
 * Whether a column's binlog type (TABLE_MAP) can carry values of its current definition: a check
 * that catches a schema read after a later DDL (same column count, other columns).
 */
final class BinlogTypes {
    private static final Set<Integer> STRINGS = Set.of(ColumnType.VARCHAR.getCode(), ColumnType.STRING.getCode(),
            ColumnType.VAR_STRING.getCode());

    private BinlogTypes() {
    }

    /** The first column whose binlog type does not fit, or -1 (also -1 when the counts differ). */
    static int firstMismatch(TableInfo info, byte[] types) {
        if (info.columnCount() != types.length) {
            return -1;
        }
        for (int i = 0; i < types.length; i++) {
            if (!fits(info.column(i), types[i] & 0xFF)) {
                return i;
            }
        }
        return -1;
    }

    static boolean fits(Column c, int t) {
        return switch (c.dataType()) {
            case "tinyint" -> t == ColumnType.TINY.getCode();
            case "smallint" -> t == ColumnType.SHORT.getCode();
            case "mediumint" -> t == ColumnType.INT24.getCode();
            case "int", "integer" -> t == ColumnType.LONG.getCode();
            case "bigint" -> t == ColumnType.LONGLONG.getCode();
            case "float" -> t == ColumnType.FLOAT.getCode();
            case "double", "real" -> t == ColumnType.DOUBLE.getCode();
            case "decimal", "numeric" -> t == ColumnType.NEWDECIMAL.getCode() || t == ColumnType.DECIMAL.getCode();
            case "bit" -> t == ColumnType.BIT.getCode();
            case "date" -> t == ColumnType.DATE.getCode() || t == ColumnType.NEWDATE.getCode();
            case "datetime" -> t == ColumnType.DATETIME.getCode() || t == ColumnType.DATETIME_V2.getCode();
            case "timestamp" -> t == ColumnType.TIMESTAMP.getCode() || t == ColumnType.TIMESTAMP_V2.getCode();
            case "time" -> t == ColumnType.TIME.getCode() || t == ColumnType.TIME_V2.getCode();
            case "year" -> t == ColumnType.YEAR.getCode();
            case "char", "varchar", "binary", "varbinary", "enum", "set" -> STRINGS.contains(t)
                    || t == ColumnType.ENUM.getCode() || t == ColumnType.SET.getCode();
            case "json" -> t == ColumnType.JSON.getCode() || t == ColumnType.BLOB.getCode();
            // LONGTEXT also takes MySQL's JSON: a MariaDB target's copy of a JSON column is LONGTEXT.
            case "longtext" -> t == ColumnType.JSON.getCode() || t == ColumnType.BLOB.getCode();
            case "tinytext", "text", "mediumtext", "tinyblob", "blob", "mediumblob", "longblob" ->
                    t == ColumnType.BLOB.getCode() || t == ColumnType.TINY_BLOB.getCode()
                            || t == ColumnType.MEDIUM_BLOB.getCode() || t == ColumnType.LONG_BLOB.getCode();
            default -> true; // geometry and anything newer: nothing to compare against
        };
    }
}
