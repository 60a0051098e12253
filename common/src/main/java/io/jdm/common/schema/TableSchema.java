package io.jdm.common.schema;

import io.jdm.common.sql.TableName;
import java.util.List;
import java.util.Optional;

/**
 * A table's columns (in ordinal order, generated ones included) and keys.
 *
 * @param primaryKey column names of the primary key, empty when there is none
 * @param uniqueKeys other unique keys whose columns are all NOT NULL, each as column names
 */
public record TableSchema(TableName name, List<Column> columns, List<String> primaryKey,
                          List<List<String>> uniqueKeys) {
    public TableSchema {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        uniqueKeys = uniqueKeys.stream().map(List::copyOf).toList();
    }

    /** Columns that can be written: everything except generated columns. */
    public List<Column> writableColumns() {
        return columns.stream().filter(c -> !c.generated()).toList();
    }

    /** The columns an INSERT or LOAD DATA without a column list gives values for, in order: all but invisible ones. */
    public List<Column> valuesColumns() {
        return columns.stream().filter(c -> !c.invisible()).toList();
    }

    public Optional<Column> column(String columnName) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(columnName)).findFirst();
    }

    /** The primary key, else the first NOT NULL unique key, else empty: what identifies a row. */
    public List<String> identityKey() {
        if (!primaryKey.isEmpty()) {
            return primaryKey;
        }
        return uniqueKeys.isEmpty() ? List.of() : uniqueKeys.get(0);
    }

    public boolean hasIdentityKey() {
        return !identityKey().isEmpty();
    }

    /** The identity key's single integer column, if it is exactly one integer column. */
    public Optional<Column> integerKeyColumn() {
        List<String> key = identityKey();
        if (key.size() != 1) {
            return Optional.empty();
        }
        return column(key.get(0)).filter(Column::isIntegral);
    }
}
