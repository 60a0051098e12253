package io.jdm.sync.validator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jdm.common.filter.ExtraColumns;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.JsonDocument;
import io.jdm.common.sql.TableName;
import io.jdm.common.sql.ValueEncoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Canonical values as JSON text and back, so a pending row outlives the process
 * ({@code {task}_validator_pending}) and a row key is one comparable string: each value is a string
 * tagged with its Java type ({@code l} long, {@code n} big integer, {@code d} decimal, {@code f}
 * float, {@code g} double, {@code s} text, {@code b} bytes as base64), SQL NULL is JSON null. A
 * MySQL JSON document is kept as its text: the validator compares JSON by value.
 */
final class RowCodec {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RowCodec() {
    }

    static ArrayNode values(Object[] values) {
        ArrayNode a = NODES.arrayNode();
        for (Object v : values) {
            a.add(v == null ? null : tag(v));
        }
        return a;
    }

    static Object[] values(JsonNode a) {
        Object[] v = new Object[a.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.get(i).isNull() ? null : untag(a.get(i).textValue());
        }
        return v;
    }

    /**
     * The key's text: equal keys (of the same Java values) give equal text, and different ones
     * different text (each value tagged with its type, values apart by a byte no tag or text holds
     * unescaped). Built for every row change the writers commit, so without a JSON tree.
     */
    static String key(Object[] key) {
        StringBuilder sb = new StringBuilder(16 * key.length);
        for (int i = 0; i < key.length; i++) {
            if (i > 0) {
                sb.append('\u0000');
            }
            if (key[i] == null) {
                sb.append('N');
            } else {
                String t = tag(key[i]);
                for (int c = 0; c < t.length(); c++) {
                    char ch = t.charAt(c);
                    if (ch == '\u0000' || ch == '\\') {
                        sb.append('\\'); // a NUL inside a text value cannot end it
                    }
                    sb.append(ch);
                }
            }
        }
        return sb.toString();
    }

    /** Values as the SQL literals a person reads in {@code jdm validation show-error}: a JSON array of strings. */
    static String shown(List<Column> columns, Object[] values) {
        ArrayNode a = NODES.arrayNode();
        for (int i = 0; i < values.length; i++) {
            a.add(values[i] == null ? null : ValueEncoder.encode(columns.get(i), values[i]));
        }
        return a.toString();
    }

    private static String tag(Object v) {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return "l" + ((Number) v).longValue();
        }
        if (v instanceof BigInteger b) {
            return "n" + b;
        }
        if (v instanceof BigDecimal d) {
            return "d" + d;
        }
        if (v instanceof Float f) {
            return "f" + f;
        }
        if (v instanceof Double d) {
            return "g" + d;
        }
        if (v instanceof byte[] b) {
            return "b" + Base64.getEncoder().encodeToString(b);
        }
        if (v instanceof JsonDocument j) {
            return "s" + j.text();
        }
        return "s" + v;
    }

    private static Object untag(String t) {
        String v = t.substring(1);
        return switch (t.charAt(0)) {
            case 'l' -> Long.parseLong(v);
            case 'n' -> new BigInteger(v);
            case 'd' -> new BigDecimal(v);
            case 'f' -> Float.parseFloat(v);
            case 'g' -> Double.parseDouble(v);
            case 'b' -> Base64.getDecoder().decode(v);
            default -> v;
        };
    }

    static ObjectNode table(ValidatedTable t) {
        ObjectNode o = NODES.objectNode();
        o.put("source", t.source().schema()).put("sourceTable", t.source().table());
        o.put("target", t.target().schema()).put("targetTable", t.target().table());
        ArrayNode cols = o.putArray("columns");
        for (Column c : t.columns()) {
            cols.addObject().put("name", c.name()).put("ordinal", c.ordinal()).put("dataType", c.dataType())
                    .put("columnType", c.columnType()).put("nullable", c.nullable()).put("charset", c.charset())
                    .put("collation", c.collation());
        }
        ArrayNode image = o.putArray("imageIndex");
        for (int i : t.imageIndex()) {
            image.add(i);
        }
        ArrayNode key = o.putArray("key");
        for (int k : t.key()) {
            key.add(k);
        }
        if (!t.extra().isEmpty()) {
            ArrayNode extra = o.putArray("extra");
            for (int i = 0; i < t.extra().size(); i++) {
                extra.addObject().put("name", t.extra().names().get(i)).put("value", t.extra().values().get(i));
            }
        }
        return o;
    }

    static ValidatedTable table(JsonNode o) {
        List<Column> cols = new ArrayList<>();
        for (JsonNode c : o.get("columns")) {
            cols.add(new Column(c.get("name").textValue(), c.get("ordinal").intValue(), c.get("dataType").textValue(),
                    c.get("columnType").textValue(), c.get("nullable").booleanValue(), false,
                    c.get("charset").textValue(), c.get("collation").textValue()));
        }
        return new ValidatedTable(new TableName(o.get("source").textValue(), o.get("sourceTable").textValue()),
                new TableName(o.get("target").textValue(), o.get("targetTable").textValue()), List.copyOf(cols),
                ints(o.get("imageIndex")), ints(o.get("key")), null, extra(o.get("extra")));
    }

    private static ExtraColumns extra(JsonNode a) {
        if (a == null) {
            return ExtraColumns.NONE;
        }
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (JsonNode e : a) {
            names.add(e.get("name").textValue());
            values.add(e.get("value").textValue());
        }
        return new ExtraColumns(names, values);
    }

    private static int[] ints(JsonNode a) {
        int[] v = new int[a.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.get(i).intValue();
        }
        return v;
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
