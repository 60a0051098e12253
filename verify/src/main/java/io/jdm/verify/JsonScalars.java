package io.jdm.verify;

import io.jdm.common.sql.JsonTextWalker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a JSON document, as MySQL prints it, whose JSON type its text does not show: every
 * number (an INTEGER, UNSIGNED INTEGER, DOUBLE or DECIMAL may print alike: {@code 3}, {@code 1.5})
 * and every string that a DATE, TIME, DATETIME, TIMESTAMP or opaque value would print as
 * ({@code "2020-01-02"}, {@code "12:00:00.000000"}, {@code "base64:type15:AQI="}). Any other
 * string, literal or container is what its text says. Each comes with its MySQL path, so the
 * server can be asked its {@code JSON_TYPE} there, and its text, so an expression of that type can
 * be written back ({@link TypedJson}).
 *
 * <p>The text is read leniently ({@link JsonTextWalker#walkLeniently}): text that is not JSON
 * yields the scalars read up to the fault; the comparison of the texts has already told such a
 * document apart.
 */
final class JsonScalars implements JsonTextWalker.Scalars {
    /** A scalar at {@code path}; {@code text} is a number's text or a string's contents, escapes as printed. */
    record Scalar(String path, boolean number, String text) {
    }

    private final String s;
    private final List<Scalar> out = new ArrayList<>();

    private JsonScalars(String s) {
        this.s = s;
    }

    /** The scalars of {@code text} whose type the text does not show, in document order. */
    static List<Scalar> of(String text) {
        JsonScalars r = new JsonScalars(text);
        try {
            JsonTextWalker.walkLeniently(text, r);
        } catch (RuntimeException notJson) {
            // what was read stands; the texts' own comparison decides the rest
        }
        return r.out;
    }

    @Override
    public void number(CharSequence path, int from, int to) {
        out.add(new Scalar(path.toString(), true, s.substring(from, to)));
    }

    @Override
    public void string(CharSequence path, int from, int to) {
        String contents = s.substring(from, to);
        if (mayBeTyped(contents)) {
            out.add(new Scalar(path.toString(), false, contents));
        }
    }

    /**
     * The paths of such scalars in {@code documents}, the most frequent first, at most {@code max}:
     * what a table's documents commonly hold, for the checksum to ask the types of.
     */
    static List<String> commonPaths(List<String> documents, int max) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (String d : documents) {
            for (Scalar s : of(d)) {
                seen.merge(s.path(), 1, Integer::sum);
            }
        }
        return seen.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(max).map(Map.Entry::getKey).toList();
    }

    /**
     * What a DATE ({@code 2020-01-02}), DATETIME or TIMESTAMP ({@code 2020-01-02 03:04:05.000000}),
     * TIME ({@code -838:59:59.000000}) or opaque value ({@code base64:typeNN:…}) prints as.
     */
    static boolean mayBeTyped(String t) {
        if (t.startsWith("base64:type")) {
            return true;
        }
        if (t.length() >= 10 && digits(t, 0, 4) && t.charAt(4) == '-' && digits(t, 5, 7) && t.charAt(7) == '-'
                && digits(t, 8, 10)) {
            return t.length() == 10 || t.charAt(10) == ' ' && isTime(t, 11);
        }
        return isTime(t, t.startsWith("-") ? 1 : 0);
    }

    /** {@code h+:mm:ss[.ffffff]} from {@code at} to the end. */
    private static boolean isTime(String t, int at) {
        int colon = t.indexOf(':', at);
        if (colon <= at || !digits(t, at, colon) || t.length() < colon + 6 || t.charAt(colon + 3) != ':'
                || !digits(t, colon + 1, colon + 3) || !digits(t, colon + 4, colon + 6)) {
            return false;
        }
        int end = colon + 6;
        return end == t.length() || t.charAt(end) == '.' && end + 1 < t.length() && digits(t, end + 1, t.length());
    }

    private static boolean digits(String t, int from, int to) {
        if (to > t.length() || from >= to) {
            return false;
        }
        for (int k = from; k < to; k++) {
            if (t.charAt(k) < '0' || t.charAt(k) > '9') {
                return false;
            }
        }
        return true;
    }

}
