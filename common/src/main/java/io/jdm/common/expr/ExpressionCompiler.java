package io.jdm.common.expr;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.JsonExpression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.CosineSimilarity;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;

/**
 * Turns JSqlParser's tree of one expression into {@link Node}s that evaluate it on a row (with
 * {@link SqlValues}' rules) and print it back as SQL that MySQL and MariaDB both read (the dump's
 * WHERE). Anything outside the supported subset is refused with the construct named, so that an
 * expression is never half understood.
 */
final class ExpressionCompiler {
    /** One compiled piece of an expression. */
    interface Node {
        Object eval(Object[] row);

        String sql();
    }

    private record Compiled(Function<Object[], Object> f, String sql) implements Node {
        @Override
        public Object eval(Object[] row) {
            return f.apply(row);
        }
    }

    /** The functions jdm evaluates, by name, with how many arguments (-1: one or more). */
    static final Map<String, Integer> FUNCTIONS = Map.ofEntries(Map.entry("NOW", 0), Map.entry("CURRENT_TIMESTAMP", 0),
            Map.entry("CURDATE", 0), Map.entry("CURRENT_DATE", 0), Map.entry("LOWER", 1), Map.entry("LCASE", 1),
            Map.entry("UPPER", 1), Map.entry("UCASE", 1), Map.entry("LENGTH", 1), Map.entry("CHAR_LENGTH", 1),
            Map.entry("CHARACTER_LENGTH", 1), Map.entry("ABS", 1), Map.entry("CONCAT", -1),
            Map.entry("COALESCE", -1), Map.entry("IFNULL", 2), Map.entry("IF", 3));

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Column name → index in the row and its value adapter; index -1 when only checking. */
    interface Columns {
        int index(String name);

        UnaryOperator<Object> adapter(int index);
    }

    private final Columns columns;

    ExpressionCompiler(Columns columns) {
        this.columns = columns;
    }

    Node compile(Expression e) {
        if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
            return compile((Expression) p.get(0));
        }
        if (e instanceof AndExpression || e instanceof OrExpression || e instanceof XorExpression) {
            return logical((BinaryExpression) e);
        }
        if (e instanceof EqualsTo || e instanceof NotEqualsTo || e instanceof GreaterThan
                || e instanceof GreaterThanEquals || e instanceof MinorThan || e instanceof MinorThanEquals
                || e instanceof CosineSimilarity) {
            return comparison((BinaryExpression) e);
        }
        if (e instanceof Addition || e instanceof Subtraction || e instanceof Multiplication
                || e instanceof Division || e instanceof IntegerDivision || e instanceof Modulo) {
            BinaryExpression b = (BinaryExpression) e;
            String op = e instanceof IntegerDivision ? "DIV" : b.getStringExpression().strip();
            Node l = compile(b.getLeftExpression());
            Node r = compile(b.getRightExpression());
            return node(row -> SqlValues.arithmetic(op, l.eval(row), r.eval(row)), "(" + l.sql() + " " + op + " "
                    + r.sql() + ")");
        }
        if (e instanceof NotExpression n) {
            Node x = compile(n.getExpression());
            return node(row -> not(SqlValues.truth(x.eval(row))), "(NOT " + x.sql() + ")");
        }
        if (e instanceof SignedExpression s) {
            Node x = compile(s.getExpression());
            return s.getSign() == '-' ? node(row -> SqlValues.negate(x.eval(row)), "(-" + x.sql() + ")") : x;
        }
        if (e instanceof IsNullExpression n) {
            Node x = compile(n.getLeftExpression());
            boolean not = n.isNot();
            return node(row -> (x.eval(row) == null) != not ? 1L : 0L,
                    "(" + x.sql() + (not ? " IS NOT NULL)" : " IS NULL)"));
        }
        if (e instanceof IsBooleanExpression b) {
            Node x = compile(b.getLeftExpression());
            return node(row -> (Boolean.valueOf(b.isTrue()).equals(SqlValues.truth(x.eval(row)))) != b.isNot()
                    ? 1L : 0L, "(" + x.sql() + " IS " + (b.isNot() ? "NOT " : "") + (b.isTrue() ? "TRUE)" : "FALSE)"));
        }
        if (e instanceof InExpression in) {
            return in(in);
        }
        if (e instanceof Between b) {
            return between(b);
        }
        if (e instanceof LikeExpression l) {
            return like(l);
        }
        if (e instanceof Column c) {
            return column(c);
        }
        if (e instanceof JsonExpression j) {
            return json(j);
        }
        if (e instanceof net.sf.jsqlparser.expression.Function f) {
            return function(f.getName(), f.getParameters() == null ? List.of() : f.getParameters());
        }
        if (e instanceof TimeKeyExpression t) {
            return function(t.getStringValue().replace("()", ""), List.of());
        }
        if (e instanceof CastExpression c) {
            return cast(c);
        }
        return literal(e);
    }

    private Node literal(Expression e) {
        if (e instanceof NullValue) {
            return constant(null, "NULL");
        }
        if (e instanceof BooleanValue b) {
            return constant(b.getValue() ? 1L : 0L, b.getValue() ? "TRUE" : "FALSE");
        }
        if (e instanceof LongValue l) {
            BigInteger v = new BigInteger(l.getStringValue());
            return constant(v.bitLength() < 64 ? (Object) v.longValue() : v, l.getStringValue());
        }
        if (e instanceof DoubleValue d) {
            String text = d.toString();
            boolean exact = !text.toLowerCase(Locale.ROOT).contains("e");
            return constant(exact ? new BigDecimal(text) : Double.parseDouble(text), text);
        }
        if (e instanceof HexValue h) {
            String v = h.getValue();
            String hex = v.startsWith("0x") || v.startsWith("0X") ? v.substring(2) : v.substring(2, v.length() - 1);
            return constant(new SqlValues.Bits(HexFormat.of().parseHex(hex.length() % 2 == 0 ? hex : "0" + hex)),
                    "X'" + hex + "'");
        }
        if (e instanceof StringValue s) {
            String prefix = s.getPrefix() == null ? "" : s.getPrefix().toUpperCase(Locale.ROOT);
            if (prefix.equals("B")) {
                BigInteger bits = new BigInteger(s.getValue().isEmpty() ? "0" : s.getValue(), 2);
                byte[] bytes = bits.toByteArray();
                int n = Math.max(1, (s.getValue().length() + 7) / 8);
                byte[] out = new byte[n];
                System.arraycopy(bytes, Math.max(0, bytes.length - n), out, Math.max(0, n - bytes.length),
                        Math.min(n, bytes.length));
                return constant(new SqlValues.Bits(out), "b'" + s.getValue() + "'");
            }
            if (!prefix.isEmpty() && !prefix.equals("N")) {
                throw new IllegalArgumentException("unsupported literal " + e);
            }
            return string(unescape(s.getValue()));
        }
        throw new IllegalArgumentException("unsupported SQL " + e + " (" + e.getClass().getSimpleName() + ")");
    }

    private Node logical(BinaryExpression b) {
        Node l = compile(b.getLeftExpression());
        Node r = compile(b.getRightExpression());
        if (b instanceof AndExpression) {
            return node(row -> {
                Boolean x = SqlValues.truth(l.eval(row));
                if (Boolean.FALSE.equals(x)) {
                    return 0L;
                }
                Boolean y = SqlValues.truth(r.eval(row));
                return Boolean.FALSE.equals(y) ? 0L : x == null || y == null ? null : 1L;
            }, "(" + l.sql() + " AND " + r.sql() + ")");
        }
        if (b instanceof OrExpression) {
            return node(row -> {
                Boolean x = SqlValues.truth(l.eval(row));
                if (Boolean.TRUE.equals(x)) {
                    return 1L;
                }
                Boolean y = SqlValues.truth(r.eval(row));
                return Boolean.TRUE.equals(y) ? 1L : x == null || y == null ? null : 0L;
            }, "(" + l.sql() + " OR " + r.sql() + ")");
        }
        return node(row -> {
            Boolean x = SqlValues.truth(l.eval(row));
            Boolean y = SqlValues.truth(r.eval(row));
            return x == null || y == null ? null : x ^ y ? 1L : 0L;
        }, "(" + l.sql() + " XOR " + r.sql() + ")");
    }

    private Node comparison(BinaryExpression b) {
        Node l = compile(b.getLeftExpression());
        Node r = compile(b.getRightExpression());
        if (b instanceof CosineSimilarity) { // JSqlParser's name for <=>, MySQL's NULL-safe equality
            return node(row -> {
                Object x = l.eval(row);
                Object y = r.eval(row);
                return x == null || y == null ? (x == y ? 1L : 0L) : SqlValues.compare(x, y) == 0 ? 1L : 0L;
            }, "(" + l.sql() + " <=> " + r.sql() + ")");
        }
        String op = b.getStringExpression().strip();
        return node(row -> {
            Integer c = SqlValues.compare(l.eval(row), r.eval(row));
            if (c == null) {
                return null;
            }
            boolean t = switch (op) {
                case "=" -> c == 0;
                case "!=", "<>" -> c != 0;
                case ">" -> c > 0;
                case ">=" -> c >= 0;
                case "<" -> c < 0;
                default -> c <= 0;
            };
            return t ? 1L : 0L;
        }, "(" + l.sql() + " " + (op.equals("!=") ? "<>" : op) + " " + r.sql() + ")");
    }

    private Node in(InExpression in) {
        Node x = compile(in.getLeftExpression());
        if (!(in.getRightExpression() instanceof ExpressionList<?> list)) {
            throw new IllegalArgumentException("unsupported IN " + in.getRightExpression() + " (a list of values "
                    + "only)");
        }
        List<Node> values = new ArrayList<>();
        for (Object v : list) {
            values.add(compile((Expression) v));
        }
        boolean not = in.isNot();
        StringBuilder sql = new StringBuilder("(").append(x.sql()).append(not ? " NOT IN (" : " IN (");
        for (int i = 0; i < values.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(values.get(i).sql());
        }
        return node(row -> {
            Object v = x.eval(row);
            boolean unknown = v == null;
            for (Node n : values) {
                Integer c = v == null ? null : SqlValues.compare(v, n.eval(row));
                if (c != null && c == 0) {
                    return not ? 0L : 1L;
                }
                unknown |= c == null;
            }
            return unknown ? null : not ? 1L : 0L;
        }, sql.append("))").toString());
    }

    private Node between(Between b) {
        Node x = compile(b.getLeftExpression());
        Node lo = compile(b.getBetweenExpressionStart());
        Node hi = compile(b.getBetweenExpressionEnd());
        boolean not = b.isNot();
        return node(row -> {
            Object v = x.eval(row);
            Integer a = SqlValues.compare(v, lo.eval(row));
            Integer z = SqlValues.compare(v, hi.eval(row));
            Boolean ge = a == null ? null : a >= 0;
            Boolean le = z == null ? null : z <= 0;
            Boolean in = Boolean.FALSE.equals(ge) || Boolean.FALSE.equals(le) ? Boolean.FALSE
                    : ge == null || le == null ? null : Boolean.TRUE;
            return not ? not(in) : SqlValues.ofBoolean(in);
        }, "(" + x.sql() + (not ? " NOT BETWEEN " : " BETWEEN ") + lo.sql() + " AND " + hi.sql() + ")");
    }

    private Node like(LikeExpression l) {
        if (l.getLikeKeyWord() != LikeExpression.KeyWord.LIKE || l.isUseBinary()) {
            throw new IllegalArgumentException("unsupported operator " + l.getLikeKeyWord() + " (jdm evaluates LIKE)");
        }
        Node x = compile(l.getLeftExpression());
        Node p = compile(l.getRightExpression());
        char escape = '\\';
        String escapeSql = "";
        if (l.getEscape() != null) {
            Object esc = compile(l.getEscape()).eval(new Object[0]);
            if (esc == null || SqlValues.text(esc).length() != 1) {
                throw new IllegalArgumentException("ESCAPE takes one character, got " + l.getEscape());
            }
            escape = SqlValues.text(esc).charAt(0);
            escapeSql = " ESCAPE " + quote(String.valueOf(escape));
        }
        char e = escape;
        boolean not = l.isNot();
        return node(row -> {
            Boolean m = SqlValues.like(x.eval(row), p.eval(row), e);
            return not ? not(m) : SqlValues.ofBoolean(m);
        }, "(" + x.sql() + (not ? " NOT LIKE " : " LIKE ") + p.sql() + escapeSql + ")");
    }

    private Node column(Column c) {
        String name = c.getColumnName();
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"") && c.getTable() == null) {
            return string(unescape(name.substring(1, name.length() - 1))); // a string outside ANSI_QUOTES
        }
        if (name.length() >= 2 && name.startsWith("`") && name.endsWith("`")) {
            name = name.substring(1, name.length() - 1).replace("``", "`");
        }
        int i = columns.index(name);
        UnaryOperator<Object> adapt = i < 0 ? v -> v : columns.adapter(i);
        return node(row -> adapt.apply(row[i]), "`" + name.replace("`", "``") + "`");
    }

    /** {@code col->'$.path'} and {@code col->>'$.path'}; printed as JSON_EXTRACT, which MariaDB reads too. */
    private Node json(JsonExpression j) {
        Node doc = compile(j.getExpression());
        if (j.getIdentList().size() != 1) {
            throw new IllegalArgumentException("unsupported JSON path " + j + " (one -> or ->> only)");
        }
        Map.Entry<Expression, String> ident = j.getIdentList().get(0);
        Object pathValue = compile(ident.getKey()).eval(new Object[0]);
        if (pathValue == null) {
            throw new IllegalArgumentException("unsupported JSON path " + ident.getKey());
        }
        String path = SqlValues.text(pathValue);
        List<Object> steps = JsonPath.steps(path);
        boolean unquote = ident.getValue().equals("->>");
        String extract = "JSON_EXTRACT(" + doc.sql() + ", " + quote(path) + ")";
        return node(row -> JsonPath.extract(JSON, doc.eval(row), steps, unquote),
                unquote ? "JSON_UNQUOTE(" + extract + ")" : extract);
    }

    private Node function(String rawName, List<?> params) {
        String name = rawName.toUpperCase(Locale.ROOT);
        Integer arity = FUNCTIONS.get(name);
        if (arity == null) {
            throw new IllegalArgumentException("unsupported function " + rawName + "(): jdm evaluates "
                    + String.join(", ", FUNCTIONS.keySet().stream().sorted().toList()));
        }
        List<Node> args = new ArrayList<>();
        for (Object p : params) {
            args.add(compile((Expression) p));
        }
        if (arity >= 0 ? args.size() != arity : args.isEmpty()) {
            throw new IllegalArgumentException(name + "() takes " + (arity >= 0 ? arity : "one or more")
                    + " arguments, got " + args.size());
        }
        StringBuilder sql = new StringBuilder(name).append('(');
        for (int i = 0; i < args.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(args.get(i).sql());
        }
        return node(row -> Functions.call(name, args, row), sql.append(')').toString());
    }

    private Node cast(CastExpression c) {
        Node x = compile(c.getLeftExpression());
        String type = c.getColDataType().getDataType().toUpperCase(Locale.ROOT);
        String sql = "CAST(" + x.sql() + " AS " + type + ")";
        return switch (type) {
            case "DATE", "DATETIME", "TIMESTAMP" -> node(row -> {
                Object v = x.eval(row);
                SqlValues.DateTime d = v == null ? null : v instanceof SqlValues.DateTime t ? t
                        : SqlValues.dateTime(SqlValues.text(v));
                return d == null || !type.equals("DATE") ? d
                        : new SqlValues.DateTime(d.canonical().substring(0, 10) + " 00:00:00.000000", d.text());
            }, sql);
            case "TIME" -> node(row -> {
                Object v = x.eval(row);
                return v == null ? null : v instanceof SqlValues.Time t ? t : SqlValues.time(SqlValues.text(v));
            }, sql);
            case "CHAR" -> node(row -> {
                Object v = x.eval(row);
                return v == null ? null : SqlValues.text(v);
            }, sql);
            case "SIGNED", "UNSIGNED", "DECIMAL" -> node(row -> {
                Object v = x.eval(row);
                return v == null ? null : SqlValues.arithmetic("+", v, 0L);
            }, sql);
            default -> throw new IllegalArgumentException("unsupported CAST to " + type);
        };
    }

    /**
     * A string constant. One that is a date-time with a UTC offset ({@code '2021-01-01 12:34:56+08:00'},
     * DM's way of naming an instant) is evaluated at its UTC time, and its SQL is that UTC text: the
     * source then compares it in the {@code +00:00} session every jdm connection uses, as jdm does,
     * where MySQL before 8.0.19 and MariaDB would otherwise read the offset another way or not at all.
     */
    private static Node string(String s) {
        SqlValues.DateTime utc = SqlValues.hasOffset(s) ? SqlValues.dateTime(s) : null;
        return constant(s, quote(utc != null ? utc.canonical() : s));
    }

    private static Node constant(Object v, String sql) {
        return node(row -> v, sql);
    }

    private static Node node(Function<Object[], Object> f, String sql) {
        return new Compiled(f, sql);
    }

    private static Long not(Boolean b) {
        return b == null ? null : b ? 0L : 1L;
    }

    /**
     * A string literal that reads the same with and without NO_BACKSLASH_ESCAPES: one with a
     * backslash is written as its UTF-8 bytes with an introducer.
     */
    static String quote(String s) {
        if (s.indexOf('\\') >= 0) {
            return "_utf8mb4 X'" + HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8)) + "'";
        }
        return "'" + s.replace("'", "''") + "'";
    }

    /** MySQL's string literal escapes (without NO_BACKSLASH_ESCAPES); {@code \%} and {@code \_} keep their backslash. */
    static String unescape(String raw) {
        StringBuilder sb = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\'' && i + 1 < raw.length() && raw.charAt(i + 1) == '\'') {
                sb.append('\'');
                i++;
            } else if (c == '\\' && i + 1 < raw.length()) {
                char n = raw.charAt(++i);
                switch (n) {
                    case '0' -> sb.append('\0');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'Z' -> sb.append((char) 26);
                    case '%', '_' -> sb.append('\\').append(n);
                    default -> sb.append(n);
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
