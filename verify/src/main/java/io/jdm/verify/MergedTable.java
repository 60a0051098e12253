package io.jdm.verify;

import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.schema.TableSchema;
import io.jdm.common.sql.TableName;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A target table that routes fill from several source tables, DM's shard merge ({@code db_1.t},
 * {@code db_2.t}, ... into one {@code t}), possibly from several sources. It is compared as the
 * union of its shards: every shard row must be in the target with equal values, the target must
 * hold no row that no shard has, and no key may be held by two shards.
 */
public record MergedTable(TableName target, List<Shard> shards) {
    public MergedTable {
        Objects.requireNonNull(target, "target");
        shards = List.copyOf(shards);
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("merged table " + target + ": no shards");
        }
    }

    /**
     * One source table of a merge.
     *
     * @param source the source's name in reports (its source-id); null when the comparison has one source
     * @param spec where the shard is read
     * @param where its source's condition for the rows the task copies ({@link VerifyConfig#tableWhere})
     */
    public record Shard(String source, ConnectionSpec spec, TableName table, Function<TableSchema, String> where) {
        public Shard {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(table, "table");
            where = where == null ? VerifyConfig.ALL_ROWS : where;
        }

        /** A shard whose rows are all copied. */
        public Shard(String source, ConnectionSpec spec, TableName table) {
            this(source, spec, table, VerifyConfig.ALL_ROWS);
        }

        /** {@code db_1.t}, or {@code mysql-01 db_1.t} when the source is named. */
        public String label() {
            return source == null ? table.toString() : source + " " + table;
        }
    }
}
