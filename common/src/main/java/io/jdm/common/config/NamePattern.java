package io.jdm.common.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A schema or table name pattern as DM writes them. {@code ~} starts a Java regular expression
 * that may match anywhere in the name (anchor it with {@code ^...$}, as DM's docs do); anything
 * else is a wildcard over the whole name: {@code *} any run of characters, {@code ?} one
 * character, {@code [abc]}, {@code [a-z]}, {@code [!a-z]} one character of (not of) a set. DM
 * allows {@code *} only at the end; here it may stand anywhere, which accepts every DM pattern.
 */
public final class NamePattern {
    private final String source;
    private final Pattern regex;
    private final boolean anywhere;

    private NamePattern(String source, Pattern regex, boolean anywhere) {
        this.source = source;
        this.regex = regex;
        this.anywhere = anywhere;
    }

    /**
     * @throws IllegalArgumentException with a short reason when the pattern is empty or its regular
     *     expression does not compile
     */
    public static NamePattern compile(String pattern, boolean caseSensitive) {
        if (pattern == null || pattern.isEmpty() || pattern.equals("~")) {
            throw new IllegalArgumentException("empty pattern");
        }
        int flags = caseSensitive ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        boolean isRegex = pattern.startsWith("~");
        String regex = isRegex ? pattern.substring(1) : wildcardToRegex(pattern);
        try {
            return new NamePattern(pattern, Pattern.compile(regex, flags), isRegex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(e.getDescription(), e);
        }
    }

    public boolean matches(String name) {
        Matcher m = regex.matcher(name);
        return anywhere ? m.find() : m.matches();
    }

    /** The pattern as written. */
    public String source() {
        return source;
    }

    @Override
    public String toString() {
        return source;
    }

    static String wildcardToRegex(String w) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            int close = c == '[' ? w.indexOf(']', i + 2) : -1;
            if (c == '*') {
                b.append(".*");
            } else if (c == '?') {
                b.append('.');
            } else if (close > 0) {
                b.append(charClass(w.substring(i + 1, close)));
                i = close;
            } else {
                b.append(literal(c));
            }
        }
        return b.toString();
    }

    /** {@code [!a-c_]} → {@code [^a-c_]}; every member is escaped so only {@code -} keeps a meaning. */
    private static String charClass(String body) {
        StringBuilder b = new StringBuilder("[");
        int i = 0;
        if (body.startsWith("!") && body.length() > 1) {
            b.append('^');
            i = 1;
        }
        for (; i < body.length(); i++) {
            char c = body.charAt(i);
            boolean range = c != '-' && i + 2 < body.length() && body.charAt(i + 1) == '-';
            if (range) {
                b.append(literal(c)).append('-').append(literal(body.charAt(i + 2)));
                i += 2;
            } else {
                b.append(literal(c));
            }
        }
        return b.append(']').toString();
    }

    private static String literal(char c) {
        // Escaping is only safe (and only needed) for ASCII punctuation.
        return c < 128 && !Character.isLetterOrDigit(c) ? "\\" + c : String.valueOf(c);
    }
}
