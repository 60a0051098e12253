package io.jdm.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Pattern;

/**
 * How a value appears in a problem: {@code 0}, {@code "abc"}, {@code a mapping}. A value that came
 * from the environment is shown as the {@code ${VAR}} text the file holds, never as the value.
 */
final class ValueText {
    private static final Pattern NUMBER_OR_BOOL = Pattern.compile("-?\\d+(\\.\\d+)?|true|false");
    private static final int MAX_SHOWN = 60;

    private ValueText() {
    }

    static String render(JsonNode v, ReadContext ctx) {
        if (v == null || v.isNull()) {
            return "nothing";
        }
        String original = ctx.envOriginal(v);
        if (original != null) {
            return quote(original) + " (value from the environment not shown)";
        }
        if (v.isObject()) {
            return "a mapping";
        }
        if (v.isArray()) {
            return "a list";
        }
        String s = v.asText();
        return NUMBER_OR_BOOL.matcher(s).matches() ? s : quote(s);
    }

    private static String quote(String s) {
        String shown = s.length() > MAX_SHOWN ? s.substring(0, MAX_SHOWN) + "..." : s;
        StringBuilder b = new StringBuilder("\"");
        for (char c : shown.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }
}
