package io.jdm.common.expr;

import io.jdm.common.schema.Column;
import io.jdm.common.sql.JsonDocument;
import java.math.BigInteger;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * A decoded row value (as the sync's converters hand them over: integers as {@link Long} or
 * {@link BigInteger}, temporal values as MySQL's text, BIT and binary strings as bytes, JSON as its
 * document) as the value an expression filter compares: see {@link SqlValues}.
 */
final class RowValues {
    private RowValues() {
    }

    static UnaryOperator<Object> forColumn(Column c) {
        String t = c.dataType().toLowerCase(Locale.ROOT);
        UnaryOperator<Object> f = switch (t) {
            case "date", "datetime", "timestamp" -> v -> {
                SqlValues.DateTime d = SqlValues.dateTime(v.toString());
                return d == null ? v.toString() : d;
            };
            case "time" -> v -> {
                SqlValues.Time d = SqlValues.time(v.toString());
                return d == null ? v.toString() : d;
            };
            case "year" -> v -> v instanceof Number ? v : Long.parseLong(v.toString());
            case "bit" -> v -> v instanceof byte[] b ? (Object) new BigInteger(1, b) : v;
            case "json" -> v -> v instanceof JsonDocument d ? d.text() : v instanceof byte[] ? v : v.toString();
            default -> v -> v instanceof String s && caseSensitive(c) ? new SqlValues.CaseText(s) : v;
        };
        return v -> v == null ? null : f.apply(v);
    }

    /** {@code _bin} and {@code _cs} collations compare case; the default ones ({@code _ci}) do not. */
    private static boolean caseSensitive(Column c) {
        String coll = c.collation() == null ? "" : c.collation().toLowerCase(Locale.ROOT);
        return coll.endsWith("_bin") || coll.endsWith("_cs") || coll.contains("_as_cs");
    }
}
