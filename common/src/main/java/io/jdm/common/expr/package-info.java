/**
 * DM's {@code expression-filter} expressions: parsed with JSqlParser ({@link io.jdm.common.expr.RowExpression})
 * and evaluated on one row's values with MySQL's comparison rules. It depends on no task-file or
 * filter code, so the config readers can check an expression and the filters can evaluate it.
 */
package io.jdm.common.expr;
