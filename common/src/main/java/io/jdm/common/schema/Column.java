package io.jdm.common.schema;

import io.jdm.common.sql.TypedColumn;
import java.util.Locale;

/**
 * One column.
 *
 * @param dataType lower-case base type as information_schema.DATA_TYPE gives it ({@code int}, {@code varchar})
 * @param columnType the full type ({@code int(10) unsigned}, {@code enum('a','b')})
 * @param generated true for VIRTUAL/STORED generated columns, which are never written
 * @param invisible true for an INVISIBLE column (MySQL 8.0.23+, MariaDB 10.3+), which an INSERT
 *     without a column list gives no value
 */
public record Column(String name, int ordinal, String dataType, String columnType, boolean nullable,
                     boolean generated, String charset, String collation, boolean invisible) implements TypedColumn {

    public Column {
        dataType = dataType.toLowerCase(Locale.ROOT);
    }

    /** A visible column. */
    public Column(String name, int ordinal, String dataType, String columnType, boolean nullable, boolean generated,
                  String charset, String collation) {
        this(name, ordinal, dataType, columnType, nullable, generated, charset, collation, false);
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

    /**
     * MySQL's (and TiDB's) JSON type; MariaDB's JSON is LONGTEXT and reads as that. MySQL makes a
     * JSON value of text only: a binary string is refused (error 3144).
     */
    public boolean isJson() {
        return dataType.equals("json");
    }

    public boolean isTemporal() {
        return TypedColumn.isTemporal(dataType);
    }
}
