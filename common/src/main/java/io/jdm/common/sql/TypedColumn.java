package io.jdm.common.sql;

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
}
