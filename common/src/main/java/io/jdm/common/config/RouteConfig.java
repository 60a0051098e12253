package io.jdm.common.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One rule of {@code routes:}. Without a table pattern it is a schema-level rule that renames the
 * schema and keeps table names; with one it is a table-level rule and wins over schema-level ones.
 *
 * @param extracts DM's {@code extract-table}, {@code extract-schema} and {@code extract-source}, in
 *        that order: columns of the target table filled with where each row came from
 */
public record RouteConfig(String name, String schemaPattern, Optional<String> tablePattern, String targetSchema,
                          Optional<String> targetTable, List<Extract> extracts) {
    public RouteConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schemaPattern, "schemaPattern");
        Objects.requireNonNull(tablePattern, "tablePattern");
        Objects.requireNonNull(targetSchema, "targetSchema");
        Objects.requireNonNull(targetTable, "targetTable");
        extracts = List.copyOf(extracts);
    }

    public RouteConfig(String name, String schemaPattern, Optional<String> tablePattern, String targetSchema,
                       Optional<String> targetTable) {
        this(name, schemaPattern, tablePattern, targetSchema, targetTable, List.of());
    }

    /** What part of a row's origin an extract takes its value from. */
    public enum Part {
        TABLE("extract-table", "table-regexp"),
        SCHEMA("extract-schema", "schema-regexp"),
        SOURCE("extract-source", "source-regexp");

        private final String key;
        private final String regexpKey;

        Part(String key, String regexpKey) {
            this.key = key;
            this.regexpKey = regexpKey;
        }

        /** The route's key ({@code extract-table} ...). */
        public String key() {
            return key;
        }

        /** The regular expression's key inside it ({@code table-regexp} ...). */
        public String regexpKey() {
            return regexpKey;
        }
    }

    /**
     * One extra column: {@code targetColumn} holds the capture groups of {@code regexp} (a Java
     * regular expression, searched in the shard's table name, schema name or source id) joined
     * together, as DM fills it.
     */
    public record Extract(Part part, String regexp, String targetColumn) {
        public Extract {
            Objects.requireNonNull(part, "part");
            Objects.requireNonNull(regexp, "regexp");
            Objects.requireNonNull(targetColumn, "targetColumn");
        }
    }
}
