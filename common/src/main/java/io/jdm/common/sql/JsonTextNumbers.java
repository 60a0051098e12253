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
    private final String s;
    private int i;
    private final List<JsonDocument.Typed> typed = new ArrayList<>();

    private JsonTextNumbers(String s) {
        this.s = s;
    }

    /** The document with its certain DECIMALs listed; none listed when {@code text} is not JSON as MySQL prints it. */
    public static JsonDocument of(String text) {
        JsonTextNumbers r = new JsonTextNumbers(text);
        try {
            r.value(new StringBuilder("$"));
            r.blanks();
            if (r.i != text.length()) {
                return new JsonDocument(text, List.of());
            }
        } catch (RuntimeException notJson) {
            return new JsonDocument(text, List.of());
        }
        return new JsonDocument(text, r.typed);
    }

    private void value(StringBuilder path) {
        blanks();
        char c = s.charAt(i);
        int mark = path.length();
        if (c == '{') {
            i++;
            blanks();
            if (s.charAt(i) == '}') {
                i++;
                return;
            }
            do {
                blanks();
                int start = i;
                string();
                path.append('.').append(s, start, i);
                blanks();
                expect(':');
                value(path);
                path.setLength(mark);
                blanks();
            } while (s.charAt(i++) == ',');
            expectLast('}');
        } else if (c == '[') {
            i++;
            blanks();
            if (s.charAt(i) == ']') {
                i++;
                return;
            }
            int n = 0;
            do {
                path.append('[').append(n++).append(']');
                value(path);
                path.setLength(mark);
                blanks();
            } while (s.charAt(i++) == ',');
            expectLast(']');
        } else if (c == '"') {
            string();
        } else if (c == '-' || c >= '0' && c <= '9') {
            number(path);
        } else {
            while (i < s.length() && Character.isLetter(s.charAt(i))) { // true, false, null
                i++;
            }
        }
    }

    private void number(StringBuilder path) {
        int start = i;
        while (i < s.length() && "+-.eE0123456789".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        String t = s.substring(start, i);
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

    private void string() {
        expect('"');
        while (s.charAt(i) != '"') {
            i += s.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
    }

    private void blanks() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private void expect(char c) {
        if (s.charAt(i++) != c) {
            throw new IllegalArgumentException("expected " + c);
        }
    }

    private void expectLast(char c) {
        if (s.charAt(i - 1) != c) {
            throw new IllegalArgumentException("expected " + c);
        }
    }
}
