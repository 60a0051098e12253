package io.jdm.cli.daemon;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request to {@link OpenApi} read as dm-master's generated handlers read theirs: the path's names
 * and the query's values percent-decoded, a repeated query name as a list ({@code source_name_list}),
 * booleans as Go's {@code strconv.ParseBool} reads them, the body as one JSON object. What cannot be
 * read is an {@link OpenApiError} 400 that names the parameter.
 */
record OpenApiRequest(HttpExchange ex, Map<String, String> path, Map<String, List<String>> query) {
    private static final ObjectMapper READER = new ObjectMapper();

    /** The last value of a query parameter, or null. */
    String param(String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? null : v.get(v.size() - 1);
    }

    /** Every value of a query parameter, or null when it is absent. */
    List<String> params(String name) {
        return query.get(name);
    }

    /** A boolean query parameter; absent is false. */
    boolean bool(String name) {
        String v = param(name);
        if (v == null) {
            return false;
        }
        return switch (v) {
            case "1", "t", "T", "true", "TRUE", "True" -> true;
            case "0", "f", "F", "false", "FALSE", "False" -> false;
            default -> throw OpenApiError.badRequest(name + ": must be true or false, got " + v);
        };
    }

    /** The body as a JSON object; no body is an empty one, as DM's start and stop need none. */
    JsonNode body() throws IOException {
        byte[] bytes = ex.getRequestBody().readAllBytes();
        if (new String(bytes, StandardCharsets.UTF_8).isBlank()) {
            return READER.createObjectNode();
        }
        JsonNode n;
        try {
            n = READER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw OpenApiError.badRequest("the request body is not JSON: " + e.getOriginalMessage());
        }
        if (n == null || !n.isObject()) {
            throw OpenApiError.badRequest("the request body must be a JSON object, got " + n);
        }
        return n;
    }

    /** The decoded segments of a raw path ({@code tasks/my%2Ftask/status}: three). */
    static List<String> segments(String rawPath) {
        List<String> out = new ArrayList<>();
        for (String s : rawPath.split("/", -1)) {
            out.add(decode(s.replace("+", "%2B"))); // a path's + is a plus, not a space
        }
        return out;
    }

    /** {@code a=1&b=2&b=3} as form values: a name given several times has several values. */
    static Map<String, List<String>> query(String raw) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return out;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw OpenApiError.badRequest("not a valid URL: " + s);
        }
    }
}
