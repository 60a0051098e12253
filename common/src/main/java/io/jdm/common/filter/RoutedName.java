package io.jdm.common.filter;

import java.util.Objects;

/**
 * Where a source table goes in the target. {@code table} is empty for schema-level statements
 * (CREATE DATABASE ...); {@code extra} the columns its route adds there.
 */
public record RoutedName(String schema, String table, ExtraColumns extra) {
    public RoutedName {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(extra, "extra");
    }

    public RoutedName(String schema, String table) {
        this(schema, table, ExtraColumns.NONE);
    }
}
