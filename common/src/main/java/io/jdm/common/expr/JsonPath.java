package io.jdm.common.expr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON paths of {@code ->} and {@code ->>}: {@code $}, then {@code .key}, {@code ."quoted key"}
 * and {@code [n]} steps (no wildcards). A value found is a number, a string or, for an object or
 * array, its JSON text; JSON null and a path that finds nothing are NULL.
 */
final class JsonPath {
    private JsonPath() {
    }

    /** The steps of a path: {@link String} keys and {@link Integer} array indexes. */
    static List<Object> steps(String path) {
        String p = path.strip();
        if (!p.startsWith("$")) {
            throw new IllegalArgumentException("unsupported JSON path " + path + " (it must start with $)");
        }
        List<Object> out = new ArrayList<>();
        int i = 1;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '.' && i + 1 < p.length() && p.charAt(i + 1) == '"') {
                int end = p.indexOf('"', i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unsupported JSON path " + path);
                }
                out.add(p.substring(i + 2, end));
                i = end + 1;
            } else if (c == '.') {
                int end = i + 1;
                while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
                    end++;
                }
                String key = p.substring(i + 1, end);
                if (key.isEmpty() || key.contains("*")) {
                    throw new IllegalArgumentException("unsupported JSON path " + path + " (keys and [n] only)");
                }
                out.add(key);
                i = end;
            } else if (c == '[') {
                int end = p.indexOf(']', i);
                try {
                    out.add(Integer.parseInt(p.substring(i + 1, end).strip()));
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException("unsupported JSON path " + path + " (keys and [n] only)");
                }
                i = end + 1;
            } else {
                throw new IllegalArgumentException("unsupported JSON path " + path);
            }
        }
        return out;
    }

    static Object extract(ObjectMapper json, Object document, List<Object> steps, boolean unquote) {
        if (document == null) {
            return null;
        }
        JsonNode n;
        try {
            n = json.readTree(SqlValues.text(document));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON document: " + e.getOriginalMessage());
        }
        for (Object s : steps) {
            n = n == null ? null : s instanceof Integer i ? n.get(i) : n.get((String) s);
        }
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        if (n.isNumber()) {
            return unquote ? n.asText() : n.decimalValue();
        }
        if (n.isBoolean()) {
            return unquote ? n.asText() : n.asBoolean() ? 1L : 0L;
        }
        return n.isTextual() ? n.textValue() : n.toString();
    }
}
