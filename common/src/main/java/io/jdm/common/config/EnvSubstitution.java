package io.jdm.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${VAR}} and {@code ${VAR:-default}} in scalar values (never in keys or comments), done on
 * the tree before any value is typed, so a port or a thread count can come from the environment.
 * {@code ${VAR:-default}} uses the default when VAR is unset or empty, like a shell;
 * {@code $${} writes a literal {@code ${}. A substituted node is remembered so that no message
 * ever prints what the environment supplied.
 */
final class EnvSubstitution {
    private static final Pattern REF =
            Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    private final ReadContext ctx;

    private EnvSubstitution(ReadContext ctx) {
        this.ctx = ctx;
    }

    static void apply(JsonNode root, ReadContext ctx) {
        new EnvSubstitution(ctx).walk(root, "");
    }

    private void walk(JsonNode node, String path) {
        if (node instanceof ObjectNode o) {
            for (Map.Entry<String, JsonNode> e : new ArrayList<>(o.properties())) {
                String child = Section.join(path, e.getKey());
                JsonNode replaced = replace(e.getValue(), child);
                if (replaced != null) {
                    o.set(e.getKey(), replaced);
                } else {
                    walk(e.getValue(), child);
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                String child = path + "[" + i + "]";
                JsonNode replaced = replace(a.get(i), child);
                if (replaced != null) {
                    a.set(i, replaced);
                } else {
                    walk(a.get(i), child);
                }
            }
        }
    }

    /** The substituted node, or null when the node has nothing to substitute. */
    private JsonNode replace(JsonNode node, String path) {
        if (!node.isTextual() || !node.textValue().contains("${")) {
            return null;
        }
        String original = node.textValue();
        Matcher m = REF.matcher(original);
        StringBuilder out = new StringBuilder();
        boolean usedEnv = false;
        while (m.find()) {
            String name = m.group(1);
            String text;
            if (name == null) {
                text = "${";
            } else {
                usedEnv = true;
                text = lookup(name, m.group(2), path);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(text));
        }
        m.appendTail(out);
        TextNode result = TextNode.valueOf(out.toString());
        if (usedEnv) {
            ctx.markFromEnv(result, original);
        }
        return result;
    }

    private String lookup(String name, String fallback, String path) {
        String value = ctx.env().apply(name);
        if (fallback != null && (value == null || value.isEmpty())) {
            return fallback;
        }
        if (value == null) {
            ctx.problem(path, "environment variable " + name + " is not set");
            return "";
        }
        return value;
    }
}
