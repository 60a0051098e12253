package io.jdm.common.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML into a Jackson tree whose scalars are all {@link TextNode}s holding the text as
 * written. Types are decided later, after {@code ${VAR}} substitution, by whoever knows the key:
 * a port written as {@code ${PORT:-4000}} and a password written as {@code 0123} both survive
 * intact. Duplicate keys and aliases are reported rather than letting one silently win.
 */
final class YamlTree {
    /** {@code key:} with nothing after it is YAML's null, not {@code ""}; {@code key: ""} stays a string. */
    private static final YAMLFactory FACTORY =
            YAMLFactory.builder().enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final YAMLParser parser;
    private final ReadContext ctx;

    private YamlTree(YAMLParser parser, ReadContext ctx) {
        this.parser = parser;
        this.ctx = ctx;
    }

    /** The document's root, or null when the text is not YAML (the problem is recorded). */
    static JsonNode read(String yaml, ReadContext ctx) {
        try (YAMLParser p = (YAMLParser) FACTORY.createParser(yaml)) {
            return new YamlTree(p, ctx).document();
        } catch (JsonProcessingException e) {
            ctx.problems().add(malformed(e, ctx.sourceName()));
            return null;
        } catch (IOException e) {
            ctx.problem("", "cannot read: " + e.getMessage());
            return null;
        }
    }

    private JsonNode document() throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            ctx.problem("", "is empty");
            return null;
        }
        JsonNode root = value(first, "");
        if (parser.nextToken() != null) {
            ctx.problem("", "holds more than one YAML document; keep one task per file");
        }
        return root;
    }

    private JsonNode value(JsonToken token, String path) throws IOException {
        switch (token) {
            case START_OBJECT:
                return object(path);
            case START_ARRAY:
                return array(path);
            case VALUE_NULL:
                return NullNode.getInstance();
            default:
                if (parser.isCurrentAlias()) {
                    ctx.problem(path, "YAML aliases (*" + parser.getText() + ") are not supported; write the value out");
                }
                return TextNode.valueOf(parser.getText());
        }
    }

    private ObjectNode object(String path) throws IOException {
        ObjectNode node = NODES.objectNode();
        JsonToken t;
        while ((t = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            String child = Section.join(path, key);
            JsonNode v = value(parser.nextToken(), child);
            if (node.has(key)) {
                ctx.problem(child, "duplicate key");
            } else {
                node.set(key, v);
            }
        }
        return node;
    }

    private ArrayNode array(String path) throws IOException {
        ArrayNode node = NODES.arrayNode();
        JsonToken t;
        while ((t = parser.nextToken()) != JsonToken.END_ARRAY) {
            node.add(value(t, path + "[" + node.size() + "]"));
        }
        return node;
    }

    /** {@code task.yaml:12:5: malformed YAML: <reason>}, from SnakeYAML's mark when there is one. */
    private static String malformed(JsonProcessingException e, String source) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof MarkedYAMLException m && m.getProblemMark() != null) {
                Mark at = m.getProblemMark();
                String reason = oneLine(m.getProblem());
                if (m.getContext() != null && m.getContextMark() != null) {
                    Mark from = m.getContextMark();
                    reason += " (" + oneLine(m.getContext()) + " that starts at " + (from.getLine() + 1) + ":"
                            + (from.getColumn() + 1) + ")";
                }
                return source + ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1) + ": malformed YAML: " + reason;
            }
        }
        var loc = e.getLocation();
        String where = loc == null ? "" : ":" + loc.getLineNr() + ":" + loc.getColumnNr();
        return source + where + ": malformed YAML: " + oneLine(e.getOriginalMessage());
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
