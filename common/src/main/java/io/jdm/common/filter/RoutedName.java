package io.jdm.common.filter;

import java.util.Objects;

/**
 * Where a source table goes in the target. {@code table} is empty for schema-level statements
 * (CREATE DATABASE ...).
 */
public record RoutedName(String schema, String table) {
    public RoutedName {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
    }
}
