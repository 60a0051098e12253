package io.jdm.verify;

import io.jdm.common.sql.JsonDocument;
import io.jdm.common.sql.MySqlDoubles;
import io.jdm.verify.JsonScalars.Scalar;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A MySQL JSON value as one server holds it: its text and the {@code JSON_TYPE} the server gives at
 * each scalar whose type the text does not show ({@link JsonScalars}). Two of them, on two MySQL
 * servers, are the same value of the same types when their texts are the same JSON value and the
 * types at those paths are equal: the text fixes every other value's type.
 *
 * <p>For the fix SQL it becomes the {@link JsonDocument} the sync writes: the text, with each value
 * the text would give another type (or, for a double, a neighbour) set back by an expression of
 * its type ({@code CAST('2020-01-02' AS DATE)}, {@code CAST('1.50' AS DECIMAL(3,2))},
 * {@code CAST(5 AS UNSIGNED)}, {@code 3e0}, {@code _binary x'0102'}). A TIMESTAMP, or an opaque
 * value of another MySQL field type than VARCHAR's 15, has no such expression: its document carries
 * the reason instead, and the fix says it cannot repair the row.
 *
 * @param types the server's {@code JSON_TYPE} at each of {@code scalars}, empty where it gave none
 */
record TypedJson(String text, List<Scalar> scalars, List<String> types) {
    private static final BigInteger UINT32_MAX = BigInteger.valueOf(0xFFFFFFFFL);
    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger UINT64_MAX = new BigInteger("18446744073709551615");

    TypedJson {
        Objects.requireNonNull(text, "text");
        scalars = List.copyOf(scalars);
        types = List.copyOf(types);
        if (scalars.size() != types.size()) {
            throw new IllegalArgumentException(scalars.size() + " scalars but " + types.size() + " types");
        }
    }

    /** The type MySQL's JSON parser gives {@code s}'s text, which a document written as text gets. */
    static String textType(Scalar s) {
        if (!s.number()) {
            return "STRING";
        }
        String t = s.text();
        if (t.indexOf('.') >= 0 || t.indexOf('e') >= 0 || t.indexOf('E') >= 0) {
            return "DOUBLE";
        }
        BigInteger v = new BigInteger(t);
        if (v.signum() < 0) {
            return v.compareTo(INT64_MIN) >= 0 ? "INTEGER" : "DOUBLE";
        }
        // the parser hands positive integers above 32 bits over as unsigned 64-bit numbers
        return v.compareTo(UINT32_MAX) <= 0 ? "INTEGER" : v.compareTo(UINT64_MAX) <= 0 ? "UNSIGNED INTEGER" : "DOUBLE";
    }

    /** The document the fix writes for this value: its text, with what the text would not give set by path. */
    JsonDocument document() {
        List<JsonDocument.Typed> typed = new ArrayList<>();
        for (int k = 0; k < scalars.size(); k++) {
            JsonDocument.Typed t = typed(scalars.get(k), types.get(k));
            if (t != null) {
                typed.add(t);
            }
        }
        return new JsonDocument(text, typed);
    }

    private static JsonDocument.Typed typed(Scalar s, String type) {
        String p = s.path();
        String t = s.text();
        String textType = textType(s);
        String expr = switch (type) {
            case "STRING", "" -> null;
            case "INTEGER" -> textType.equals(type) ? null : "CAST(" + t + " AS SIGNED)";
            case "UNSIGNED INTEGER" -> textType.equals(type) ? null : "CAST(" + t + " AS UNSIGNED)";
            case "DOUBLE" -> textType.equals(type) && MySqlDoubles.jsonParserReadsExactly(t.toLowerCase(java.util.Locale.ROOT))
                    ? null : MySqlDoubles.sqlLiteral(t);
            case "DECIMAL" -> decimal(t);
            case "DATE" -> "CAST('" + t + "' AS DATE)";
            case "DATETIME" -> "CAST('" + t + "' AS DATETIME(6))";
            case "TIME" -> "CAST('" + timeStoredAs(t) + "' AS TIME(6))";
            case "TIMESTAMP" -> refusal(p, "TIMESTAMP", "store it as a DATETIME on the source");
            default -> opaque(p, type, t);
        };
        if (expr == null) {
            return null;
        }
        return expr.startsWith("!") ? new JsonDocument.Typed(p, null, expr.substring(1)) : new JsonDocument.Typed(p, expr, null);
    }

    /** {@code CAST('1.50' AS DECIMAL(3,2))}: the digits and the scale the text shows. */
    private static String decimal(String t) {
        BigDecimal d = new BigDecimal(t);
        int scale = Math.max(0, d.scale());
        int precision = Math.min(65, Math.max(1, Math.max(d.precision(), scale)));
        return "CAST('" + t + "' AS DECIMAL(" + precision + "," + scale + "))";
    }

    /**
     * MySQL stores a TIME of 32 hours or more inside JSON as {@code (h / 32) * 24 + h % 32} hours;
     * the hours written back are ones that store as the printed ones (630 is written as 838).
     */
    static String timeStoredAs(String t) {
        boolean negative = t.startsWith("-");
        String abs = negative ? t.substring(1) : t;
        int colon = abs.indexOf(':');
        long hours = Long.parseLong(abs.substring(0, colon));
        long written = hours / 24 * 32 + hours % 24;
        return (negative ? "-" : "") + (written < 10 ? "0" : "") + written + abs.substring(colon);
    }

    /**
     * An opaque value: one MySQL made of a binary string (field type 15, VARCHAR) is written as one;
     * the others (BLOB 252, BIT 16, …) come only from a table's column of that type.
     */
    private static String opaque(String path, String type, String t) {
        String prefix = "base64:type15:";
        if (t.startsWith(prefix)) {
            String b64 = t.substring(prefix.length()).replace("\\n", "").replace("\n", "");
            try {
                return "_binary x'" + HexFormat.of().formatHex(Base64.getDecoder().decode(b64)) + "'";
            } catch (IllegalArgumentException notBase64) {
                return refusal(path, type + " value", "store it as a string on the source (TO_BASE64)");
            }
        }
        int colon = t.indexOf(':', "base64:type".length());
        String field = colon < 0 ? type : "binary value of MySQL field type " + t.substring("base64:type".length(), colon);
        return refusal(path, field + " (\"" + (colon < 0 ? t : t.substring(0, colon + 1)) + "…\")",
                "store it as a string on the source (TO_BASE64)");
    }

    /** A reason, marked with a leading {@code !}; see {@link JsonDocument.Typed#refusal}. */
    private static String refusal(String path, String what, String remedy) {
        return "!the JSON value at " + path + " is a " + what + ", which no SQL expression writes into a JSON column "
                + "with that type; " + remedy + " or leave the table out of the task";
    }

    /** True when both hold the same type at every listed scalar (their texts being the same JSON value). */
    boolean sameTypes(TypedJson other) {
        return types.equals(other.types);
    }

    /**
     * For the report: the text, and the scalars whose type is not the one their text reads as,
     * e.g. {@code '{"d": "2020-01-02"}' ($."d" DATE)}; shortened.
     */
    String show() {
        return show(null);
    }

    /** {@link #show()}, naming the scalars whose type differs from {@code other}'s (a type its text reads as too). */
    String showAgainst(TypedJson other) {
        return show(other);
    }

    private String show(TypedJson other) {
        StringBuilder typedAt = new StringBuilder();
        for (int k = 0; k < scalars.size() && typedAt.length() < 60; k++) {
            String type = types.get(k);
            boolean differs = other == null ? !type.equals(textType(scalars.get(k)))
                    : k < other.types.size() && !type.equals(other.types.get(k));
            if (differs) {
                typedAt.append(typedAt.length() == 0 ? "" : ", ").append(scalars.get(k).path()).append(' ')
                        .append(type.isEmpty() ? "absent" : type);
            }
        }
        String shown = text.length() > 40 ? text.substring(0, 37) + "..." : text;
        return "'" + shown + "'" + (typedAt.length() == 0 ? "" : " (" + typedAt + ")");
    }

    @Override
    public String toString() {
        return show();
    }
}
