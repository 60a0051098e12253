package io.jdm.common.config;

import io.jdm.common.expr.RowExpression;
import java.util.Objects;
import java.util.Optional;

/**
 * One rule of {@code expression-filter:} (DM's filter of row changes by SQL expressions): a row
 * change of {@code schema.table} (exact names) whose expression is TRUE is not replicated. As in
 * DM, a rule filters one kind of change; for UPDATE both expressions must be TRUE, the old one on
 * the row before and the new one on the row after (a missing one counts as TRUE).
 */
public record ExpressionFilterConfig(String name, String schema, String table, Optional<RowExpression> insert,
                                     Optional<RowExpression> updateOld, Optional<RowExpression> updateNew,
                                     Optional<RowExpression> delete) {
    public ExpressionFilterConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(insert, "insert");
        Objects.requireNonNull(updateOld, "updateOld");
        Objects.requireNonNull(updateNew, "updateNew");
        Objects.requireNonNull(delete, "delete");
    }

    public boolean filtersUpdate() {
        return updateOld.isPresent() || updateNew.isPresent();
    }
}
