package io.jdm.common.sql;

import java.util.Objects;

/** A schema-qualified table name; {@link #quoted()} is safe to splice into SQL. */
public record TableName(String schema, String table) implements Comparable<TableName> {
    public TableName {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
    }

    public String quoted() {
        return Identifiers.quote(schema) + "." + Identifiers.quote(table);
    }

    @Override
    public int compareTo(TableName o) {
        int c = schema.compareTo(o.schema);
        return c != 0 ? c : table.compareTo(o.table);
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
