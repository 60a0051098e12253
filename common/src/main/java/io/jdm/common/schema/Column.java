package io.jdm.common.schema;

import io.jdm.common.sql.TypedColumn;
import java.util.Locale;

/**
 * One column.
 *
 * @param dataType lower-case base type as information_schema.DATA_TYPE gives it ({@code int}, {@code varchar})
 * @param columnType the full type ({@code int(10) unsigned}, {@code enum('a','b')})
 * @param generated true for VIRTUAL/STORED generated columns, which are never written
 */
public record Column(String name, int ordinal, String dataType, String columnType, boolean nullable,
                     boolean generated, String charset, String collation) implements TypedColumn {

    public Column {
        dataType = dataType.toLowerCase(Locale.ROOT);
    }

    public boolean unsigned() {
        return columnType.toLowerCase(Locale.ROOT).contains("unsigned");
    }

    public boolean isIntegral() {
        return switch (dataType) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint" -> true;
            default -> false;
        };
    }

    public boolean isBinary() {
        return switch (dataType) {
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> true;
            default -> false;
        };
    }

    public boolean isString() {
        return switch (dataType) {
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set" -> true;
            default -> false;
        };
    }

    public boolean isTemporal() {
        return switch (dataType) {
            case "date", "datetime", "timestamp", "time", "year" -> true;
            default -> false;
        };
    }
}
