package io.jdm.common.expr;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The functions an expression filter evaluates ({@link ExpressionCompiler#FUNCTIONS}), with
 * MySQL's NULL rules: NULL in, NULL out, except COALESCE, IFNULL and IF. NOW() and
 * CURRENT_TIMESTAMP are the current time in UTC, as the binlog carries TIMESTAMP values.
 */
final class Functions {
    private Functions() {
    }

    static Object call(String name, List<ExpressionCompiler.Node> args, Object[] row) {
        switch (name) {
            case "NOW", "CURRENT_TIMESTAMP":
                return SqlValues.now();
            case "CURDATE", "CURRENT_DATE":
                SqlValues.DateTime now = SqlValues.now();
                return new SqlValues.DateTime(now.canonical().substring(0, 10) + " 00:00:00.000000",
                        now.canonical().substring(0, 10));
            case "COALESCE", "IFNULL":
                for (ExpressionCompiler.Node a : args) {
                    Object v = a.eval(row);
                    if (v != null) {
                        return v;
                    }
                }
                return null;
            case "IF":
                return Boolean.TRUE.equals(SqlValues.truth(args.get(0).eval(row))) ? args.get(1).eval(row)
                        : args.get(2).eval(row);
            case "CONCAT":
                StringBuilder sb = new StringBuilder();
                for (ExpressionCompiler.Node a : args) {
                    Object v = a.eval(row);
                    if (v == null) {
                        return null;
                    }
                    sb.append(SqlValues.text(v));
                }
                return sb.toString();
            default:
                return single(name, args.get(0).eval(row));
        }
    }

    private static Object single(String name, Object v) {
        if (v == null) {
            return null;
        }
        return switch (name) {
            case "LOWER", "LCASE" -> v instanceof byte[] ? v : SqlValues.text(v).toLowerCase(java.util.Locale.ROOT);
            case "UPPER", "UCASE" -> v instanceof byte[] ? v : SqlValues.text(v).toUpperCase(java.util.Locale.ROOT);
            case "LENGTH" -> (long) (v instanceof byte[] b ? b.length
                    : SqlValues.text(v).getBytes(StandardCharsets.UTF_8).length);
            case "CHAR_LENGTH", "CHARACTER_LENGTH" -> (long) SqlValues.text(v).codePointCount(0,
                    SqlValues.text(v).length());
            case "ABS" -> v instanceof Number n && SqlValues.compare(n, 0L) < 0 ? SqlValues.negate(v)
                    : v instanceof Number ? v : Math.abs(SqlValues.toDouble(v));
            default -> throw new IllegalStateException("no function " + name);
        };
    }
}
