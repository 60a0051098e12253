package io.jdm.common.expr;

import io.jdm.common.schema.Column;
import java.util.List;
import java.util.function.UnaryOperator;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;

/**
 * One SQL expression of DM's {@code expression-filter} (such as {@code c % 2 = 0}), parsed once
 * when the task is read and evaluated on decoded row values (see {@link SqlValues} for MySQL's
 * rules it follows). JSqlParser reads the text; what jdm cannot evaluate is refused at parse time,
 * naming the function or construct, never passed over at run time.
 */
public final class RowExpression {
    /** An expression names a column its table does not have (at this point of the binlog). */
    public static final class UnknownColumnException extends IllegalArgumentException {
        UnknownColumnException(String column) {
            super("unknown column " + column);
        }
    }

    /** The expression bound to one table definition: evaluates rows of that definition. */
    @FunctionalInterface
    public interface Bound {
        /** True only where the expression is TRUE: FALSE and NULL are not. */
        boolean isTrue(Object[] row);
    }

    private final String text;
    private final Expression parsed;
    private final String sql;

    private RowExpression(String text, Expression parsed, String sql) {
        this.text = text;
        this.parsed = parsed;
        this.sql = sql;
    }

    /** @throws IllegalArgumentException with one line saying what jdm cannot read or evaluate */
    public static RowExpression parse(String text) {
        Expression e;
        try {
            e = CCJSqlParserUtil.parseCondExpression(text, false);
        } catch (JSQLParserException | RuntimeException ex) {
            String why = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage().strip();
            throw new IllegalArgumentException("cannot parse the expression: " + why.lines().findFirst().orElse(why));
        }
        ExpressionCompiler.Node checked = new ExpressionCompiler(new ExpressionCompiler.Columns() {
            @Override
            public int index(String name) {
                return -1;
            }

            @Override
            public UnaryOperator<Object> adapter(int index) {
                return v -> v;
            }
        }).compile(e);
        return new RowExpression(text, e, checked.sql());
    }

    /** The expression as written in the task file. */
    public String text() {
        return text;
    }

    /** The expression as SQL both MySQL and MariaDB read, for a WHERE clause on the source. */
    public String sql() {
        return sql;
    }

    /**
     * The expression for rows of a table with these columns, in row order.
     *
     * @throws UnknownColumnException where it names a column the table lacks
     */
    public Bound bind(List<Column> columns) {
        UnaryOperator<Object>[] adapters = adapters(columns);
        ExpressionCompiler.Node n = new ExpressionCompiler(new ExpressionCompiler.Columns() {
            @Override
            public int index(String name) {
                for (int i = 0; i < columns.size(); i++) {
                    if (columns.get(i).name().equalsIgnoreCase(name)) {
                        return i;
                    }
                }
                throw new UnknownColumnException(name);
            }

            @Override
            public UnaryOperator<Object> adapter(int index) {
                return adapters[index];
            }
        }).compile(parsed);
        return row -> Boolean.TRUE.equals(SqlValues.truth(n.eval(row)));
    }

    @SuppressWarnings("unchecked")
    private static UnaryOperator<Object>[] adapters(List<Column> columns) {
        UnaryOperator<Object>[] out = new UnaryOperator[columns.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = RowValues.forColumn(columns.get(i));
        }
        return out;
    }

    @Override
    public String toString() {
        return text;
    }
}
