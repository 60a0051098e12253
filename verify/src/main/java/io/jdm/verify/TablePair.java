package io.jdm.verify;

import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.sql.TableName;
import java.util.Objects;

/**
 * One source table and the target table its rows were routed to.
 *
 * @param extra the columns its route adds to its rows in the target (extract-table, extract-schema,
 *     extract-source), with this table's values: the target's rows that are this table's are those
 *     that hold them. Such a pair is compared on its own against those rows, even when other tables
 *     are merged into the same target, and the columns are compared by that filter, not as data.
 */
public record TablePair(TableName source, TableName target, ExtraColumns extra) {
    public TablePair {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        extra = extra == null ? ExtraColumns.NONE : extra;
    }

    public TablePair(TableName source, TableName target) {
        this(source, target, ExtraColumns.NONE);
    }

    /** The same name on both sides. */
    public static TablePair same(TableName table) {
        return new TablePair(table, table);
    }

    /**
     * True when its rows are told apart in the target by {@link #extra()}: compared alone, never as a
     * shard of a merged table (whose shards' keys must not collide, where these may).
     */
    public boolean filtered() {
        return !extra.isEmpty();
    }

    /** The target table, and for a filtered pair the values that select its rows: {@code db.t (c_table = '1')}. */
    public String targetRows() {
        if (!filtered()) {
            return target.toString();
        }
        StringBuilder sb = new StringBuilder(target.toString()).append(" (");
        for (int i = 0; i < extra.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(extra.names().get(i)).append(" = '").append(extra.values().get(i))
                    .append('\'');
        }
        return sb.append(')').toString();
    }

    @Override
    public String toString() {
        return source.equals(target) && !filtered() ? source.toString() : source + " -> " + targetRows();
    }
}
