package io.jdm.verify;

import io.jdm.common.sql.TableName;
import java.util.Objects;

/** One source table and the target table its rows were routed to. */
public record TablePair(TableName source, TableName target) {
    public TablePair {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
    }

    /** The same name on both sides. */
    public static TablePair same(TableName table) {
        return new TablePair(table, table);
    }

    @Override
    public String toString() {
        return source.equals(target) ? source.toString() : source + " -> " + target;
    }
}
