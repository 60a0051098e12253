package io.jdm.common.filter;

import io.jdm.common.config.ExpressionFilterConfig;
import io.jdm.common.config.MySqlInstance;
import io.jdm.common.config.TaskConfig;
import io.jdm.common.expr.RowExpression;
import io.jdm.common.schema.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DM's {@code expression-filter}: which row changes of a table are not replicated. The sync asks
 * {@link #forTable} once per table definition and then per row; the dump asks
 * {@link #dumpCondition} for the rows to keep, so that a row the sync would not insert is not
 * dumped either, and verify compares only those rows of the source.
 *
 * <p>As DM: a row is skipped when any rule of its table is TRUE on it (an UPDATE when both of a
 * rule's expressions are TRUE, the old one on the row before, the new one on the row after; a
 * missing one counts as TRUE); FALSE and NULL replicate it. An expression that names a column the
 * table lacks (at that point of the binlog) is logged once per table definition and filters
 * nothing until a definition has the column again.
 */
public final class ExpressionFilter {
    private static final Logger LOG = LoggerFactory.getLogger(ExpressionFilter.class);
    public static final ExpressionFilter NONE = new ExpressionFilter(List.of(), false);

    /** The rules of one table, bound to one definition of it. */
    public interface TableRows {
        boolean skipInsert(Object[] row);

        boolean skipUpdate(Object[] before, Object[] after);

        boolean skipDelete(Object[] row);
    }

    private final List<ExpressionFilterConfig> rules;
    private final boolean caseSensitive;

    private ExpressionFilter(List<ExpressionFilterConfig> rules, boolean caseSensitive) {
        this.rules = List.copyOf(rules);
        this.caseSensitive = caseSensitive;
    }

    public static ExpressionFilter of(List<ExpressionFilterConfig> rules, boolean caseSensitive) {
        return new ExpressionFilter(rules, caseSensitive);
    }

    public static ExpressionFilter forInstance(TaskConfig task, MySqlInstance instance) {
        return of(task.expressionFilters(instance), task.caseSensitive());
    }

    /** The rules of this table bound to these columns (row order); null when no rule names the table. */
    public TableRows forTable(String schema, String table, List<Column> columns) {
        List<ExpressionFilterConfig> here = rulesOf(schema, table);
        if (here.isEmpty()) {
            return null;
        }
        String where = schema + "." + table;
        List<RowExpression.Bound> insert = new ArrayList<>();
        List<RowExpression.Bound[]> update = new ArrayList<>();
        List<RowExpression.Bound> delete = new ArrayList<>();
        for (ExpressionFilterConfig r : here) {
            r.insert().map(e -> bind(r, e, columns, where)).ifPresent(insert::add);
            r.delete().map(e -> bind(r, e, columns, where)).ifPresent(delete::add);
            if (r.filtersUpdate()) {
                update.add(new RowExpression.Bound[] {
                    r.updateOld().map(e -> bind(r, e, columns, where)).orElse(row -> true),
                    r.updateNew().map(e -> bind(r, e, columns, where)).orElse(row -> true)});
            }
        }
        return new TableRows() {
            @Override
            public boolean skipInsert(Object[] row) {
                return any(insert, row);
            }

            @Override
            public boolean skipUpdate(Object[] before, Object[] after) {
                for (RowExpression.Bound[] pair : update) {
                    if (pair[0].isTrue(before) && pair[1].isTrue(after)) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public boolean skipDelete(Object[] row) {
                return any(delete, row);
            }
        };
    }

    /**
     * The condition a dumped row of this table meets: none of its insert expressions is TRUE on it
     * ({@code (e) IS NOT TRUE}, so that FALSE and NULL keep the row); empty when none applies.
     */
    public Optional<String> dumpCondition(String schema, String table, List<Column> columns) {
        List<String> keep = new ArrayList<>();
        for (ExpressionFilterConfig r : rulesOf(schema, table)) {
            if (r.insert().isPresent() && bindable(r, r.insert().get(), columns, schema + "." + table)) {
                keep.add("(" + r.insert().get().sql() + ") IS NOT TRUE");
            }
        }
        return keep.isEmpty() ? Optional.empty() : Optional.of(String.join(" AND ", keep));
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    private List<ExpressionFilterConfig> rulesOf(String schema, String table) {
        Function<String, String> fold = caseSensitive ? s -> s : s -> s.toLowerCase(Locale.ROOT);
        return rules.stream().filter(r -> fold.apply(r.schema()).equals(fold.apply(schema))
                && fold.apply(r.table()).equals(fold.apply(table))).toList();
    }

    private static boolean any(List<RowExpression.Bound> exprs, Object[] row) {
        for (RowExpression.Bound b : exprs) {
            if (b.isTrue(row)) {
                return true;
            }
        }
        return false;
    }

    private static boolean bindable(ExpressionFilterConfig r, RowExpression e, List<Column> columns, String table) {
        return bind(r, e, columns, table) != NOTHING;
    }

    private static final RowExpression.Bound NOTHING = row -> false;

    private static RowExpression.Bound bind(ExpressionFilterConfig r, RowExpression e, List<Column> columns,
                                            String table) {
        try {
            return e.bind(columns);
        } catch (RowExpression.UnknownColumnException ex) {
            LOG.warn("expression-filter.{}: {} in \"{}\": table {} has no such column now; the expression "
                    + "filters nothing until it has (as DM)", r.name(), ex.getMessage(), e.text(), table);
            return NOTHING;
        }
    }
}
