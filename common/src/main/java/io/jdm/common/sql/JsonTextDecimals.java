package io.jdm.common.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The numbers in JSON text as MySQL prints it ({@code SELECT doc}) that only a DECIMAL prints: an
 * integer beyond 64 bits, or a number with a point whose text is not the double it reads as
 * ({@code 1.50}, {@code 0.00000}, {@code 123456789012345678901234567890}). MySQL reads those as
 * doubles, which changes their value or their text, so a dump writes them back as DECIMALs (see
 * {@link JsonDocument}). A DECIMAL whose text is also a double's ({@code 1.5}) or an integer's
 * cannot be told apart from the text and is read as the parser reads it: same text, same value.
 */
public final class JsonTextDecimals {
    private final String s;
    private int i;
    private final List<JsonDocument.Typed> typed = new ArrayList<>();

    private JsonTextDecimals(String s) {
        this.s = s;
    }

    /** The document with its certain DECIMALs listed; none listed when {@code text} is not JSON as MySQL prints it. */
    public static JsonDocument of(String text) {
        JsonTextDecimals r = new JsonTextDecimals(text);
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
        if (t.indexOf('e') >= 0 || t.indexOf('E') >= 0) {
            return; // MySQL prints no DECIMAL with an exponent
        }
        BigDecimal d = new BigDecimal(t);
        boolean integer = t.indexOf('.') < 0;
        if (d.scale() > 30) {
            return; // no DECIMAL has that many decimals: not MySQL's text of one
        }
        if (integer && d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && d.compareTo(new BigDecimal("18446744073709551615")) <= 0) {
            return;
        }
        if (!integer && MySqlDoubles.json(Double.parseDouble(t), true).equals(t)) {
            return;
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
