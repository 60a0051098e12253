package io.jdm.common.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The numbers in JSON text as MySQL prints it ({@code SELECT doc}) that MySQL's JSON parser would
 * read back as another value or type, so a dump writes them back with an expression (see
 * {@link JsonDocument}):
 * <ul>
 * <li>what only a DECIMAL prints: an integer beyond 64 bits, or a number with a point whose text
 * is not the double it reads as ({@code 1.50}, {@code 0.00000}, 30 digits), which the parser makes
 * a double;
 * <li>a double the parser would round to a neighbour (see {@link MySqlDoubles#jsonParserReadsExactly}).
 * </ul>
 * A DECIMAL whose text is also a double's ({@code 1.5}) or an integer's cannot be told apart from
 * the text and is read as the parser reads it: same text, same value.
 */
public final class JsonTextNumbers {
    private final List<JsonDocument.Typed> typed = new ArrayList<>();

    private JsonTextNumbers() {
    }

    /** The document with its certain DECIMALs listed; none listed when {@code text} is not JSON as MySQL prints it. */
    public static JsonDocument of(String text) {
        JsonTextNumbers r = new JsonTextNumbers();
        try {
            JsonTextWalker.walk(text, (path, from, to) -> r.number(path, text.substring(from, to)));
        } catch (RuntimeException notJson) { // or a number no MySQL type prints ({@code 1-2})
            return new JsonDocument(text, List.of());
        }
        return new JsonDocument(text, r.typed);
    }

    private void number(CharSequence path, String t) {
        boolean integer = t.indexOf('.') < 0 && t.indexOf('e') < 0 && t.indexOf('E') < 0;
        if (t.indexOf('e') >= 0 || t.indexOf('E') >= 0
                || !integer && MySqlDoubles.json(Double.parseDouble(t), true).equals(t)) {
            // a double (MySQL prints no DECIMAL with an exponent)
            if (!MySqlDoubles.jsonParserReadsExactly(t.toLowerCase(java.util.Locale.ROOT))) {
                typed.add(new JsonDocument.Typed(path.toString(), MySqlDoubles.sqlLiteral(t), null));
            }
            return;
        }
        BigDecimal d = new BigDecimal(t);
        if (integer && d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && d.compareTo(new BigDecimal("18446744073709551615")) <= 0) {
            return;
        }
        if (d.scale() > 30) {
            return; // no DECIMAL has that many decimals: not MySQL's text of one
        }
        int scale = Math.max(0, d.scale());
        int precision = Math.min(65, Math.max(1, Math.max(d.precision(), scale)));
        typed.add(new JsonDocument.Typed(path.toString(), "CAST('" + t + "' AS DECIMAL(" + precision + "," + scale
                + "))", null));
    }
}
