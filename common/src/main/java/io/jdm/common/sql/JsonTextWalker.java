package io.jdm.common.sql;

/**
 * The one reader of JSON text as MySQL prints it ({@code SELECT doc}) for what that text hides:
 * it walks objects and arrays and reports each number and each string with its MySQL path
 * ({@code $}, {@code $."a"}, {@code $[0]}), for the dump's numbers ({@link JsonTextTypes}) and
 * verify's numbers and strings a temporal or opaque value prints as. Literals ({@code true},
 * {@code false}, {@code null}) and containers are what their text says and are not reported.
 *
 * <p>A member name goes into the path as printed, quotes and escapes included, which is how a
 * MySQL path quotes a key. A string runs to the next quote no backslash escapes, whatever lies
 * between: MySQL 5.7 prints an opaque value's base64 with raw line breaks inside the string.
 *
 * <p>{@link #walk} reads the text as exactly one JSON value, so that a dump writes types back only
 * for a document it has understood. {@link #walkLeniently} passes over whatever character stands
 * where a colon, a member name's opening quote or a closing bracket should, and ignores what follows
 * the first value: verify lists what it can and leaves the verdict on such a text to the
 * comparison of the texts themselves.
 */
public final class JsonTextWalker {
    /**
     * What a walk reports, in document order. {@code path} is the walker's own buffer, to read or
     * copy during the call; {@code from} and {@code to} bound the value in the walked text, so a
     * reader that has no use for strings copies none.
     */
    public interface Scalars {
        /** A number at {@code path}, printed as {@code text.substring(from, to)}. */
        void number(CharSequence path, int from, int to);

        /** A string at {@code path}: its contents, escapes as printed, are {@code text.substring(from, to)}. */
        default void string(CharSequence path, int from, int to) {
        }
    }

    private final String s;
    private final boolean strict;
    private final Scalars to;
    private int i;

    private JsonTextWalker(String s, boolean strict, Scalars to) {
        this.s = s;
        this.strict = strict;
        this.to = to;
    }

    /**
     * Reports the numbers and strings of {@code text} to {@code to}.
     *
     * @throws IllegalArgumentException when {@code text} is not one JSON value as MySQL prints it;
     *                                  what was reported before the fault stands
     */
    public static void walk(String text, Scalars to) {
        JsonTextWalker w = new JsonTextWalker(text, true, to);
        w.value(new StringBuilder("$"));
        w.blanks();
        if (w.i != text.length()) {
            throw fault("nothing may follow the value at offset " + w.i);
        }
    }

    /**
     * Reports the numbers and strings of {@code text}'s first value to {@code to}, passing over the
     * characters that stand where a colon, a member name's opening quote or a closing bracket should
     * without looking at them.
     *
     * @throws IllegalArgumentException when the text ends early; what was reported before stands
     */
    public static void walkLeniently(String text, Scalars to) {
        new JsonTextWalker(text, false, to).value(new StringBuilder("$"));
    }

    private void value(StringBuilder path) {
        blanks();
        char c = at(i);
        int mark = path.length();
        if (c == '{') {
            i++;
            blanks();
            if (at(i) == '}') {
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
            } while (at(i++) == ',');
            expectLast('}');
        } else if (c == '[') {
            i++;
            blanks();
            if (at(i) == ']') {
                i++;
                return;
            }
            int n = 0;
            do {
                path.append('[').append(n++).append(']');
                value(path);
                path.setLength(mark);
                blanks();
            } while (at(i++) == ',');
            expectLast(']');
        } else if (c == '"') {
            int start = i;
            string();
            to.string(path, start + 1, i - 1);
        } else if (c == '-' || c >= '0' && c <= '9') {
            int start = i;
            while (i < s.length() && "+-.eE0123456789".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            to.number(path, start, i);
        } else {
            while (i < s.length() && Character.isLetter(s.charAt(i))) { // true, false, null
                i++;
            }
        }
    }

    /** Past a string, its quotes included; a backslash escapes the next character. */
    private void string() {
        expect('"');
        while (at(i) != '"') {
            i += s.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
    }

    private void blanks() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private char at(int k) {
        if (k >= s.length()) {
            throw fault("it ends at offset " + k);
        }
        return s.charAt(k);
    }

    private void expect(char c) {
        if (at(i++) != c && strict) {
            throw fault("expected '" + c + "' at offset " + (i - 1));
        }
    }

    /** The character the loop over members or elements stopped at closes the container. */
    private void expectLast(char c) {
        if (strict && s.charAt(i - 1) != c) {
            throw fault("expected '" + c + "' at offset " + (i - 1));
        }
    }

    private static IllegalArgumentException fault(String what) {
        return new IllegalArgumentException("not JSON as MySQL prints it: " + what);
    }
}
