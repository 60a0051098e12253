package io.jdm.common.config;

import java.util.Objects;
import java.util.Optional;

/**
 * One rule of {@code routes:}. Without a table pattern it is a schema-level rule that renames the
 * schema and keeps table names; with one it is a table-level rule and wins over schema-level ones.
 */
public record RouteConfig(String name, String schemaPattern, Optional<String> tablePattern, String targetSchema,
                          Optional<String> targetTable) {
    public RouteConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schemaPattern, "schemaPattern");
        Objects.requireNonNull(tablePattern, "tablePattern");
        Objects.requireNonNull(targetSchema, "targetSchema");
        Objects.requireNonNull(targetTable, "targetTable");
    }
}
