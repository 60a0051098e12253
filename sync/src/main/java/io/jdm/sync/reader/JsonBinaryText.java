package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import io.jdm.common.sql.JsonDocument;
import io.jdm.common.sql.JsonTextTypes;
import io.jdm.common.sql.MySqlDoubles;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * MySQL's binary JSON (json_binary.cc, binlog type 245) read into the text MySQL 8.0 prints for it,
 * byte for byte, with the values that text cannot carry listed by path (see {@link JsonDocument}).
 *
 * <p>The format: a type byte, then the value. Objects and arrays come small (16-bit counts and
 * offsets) or large (32-bit): element count, byte size, for objects the key entries (offset,
 * 16-bit length), then one entry per value (type byte, then an offset from the start of the
 * object, or the value itself for literals, 16-bit integers and, when large, 32-bit ones). Strings
 * are a variable-length length (7 bits a byte, low first) and utf8mb4 bytes; opaque values a
 * MySQL field type byte, a length and the field's bytes: a DECIMAL as precision, scale and the
 * binary decimal, a DATE, TIME, DATETIME or TIMESTAMP as its packed 64-bit form, anything else
 * (BLOB, BIT, …) printed as {@code "base64:typeNN:…"}.
 *
 * <p>mysql-binlog-connector-java's {@code JsonBinary} is not used: it prints doubles with Java's
 * {@code Double.toString}, DECIMALs as doubles, negative TIMEs garbled and opaque values without
 * their type, and a formatter over it cannot restore what its reading already lost.
 */
final class JsonBinaryText {
    private static final int SMALL_OBJECT = 0x00;
    private static final int LARGE_OBJECT = 0x01;
    private static final int SMALL_ARRAY = 0x02;
    private static final int LARGE_ARRAY = 0x03;
    private static final int LITERAL = 0x04;
    private static final int INT16 = 0x05;
    private static final int UINT16 = 0x06;
    private static final int INT32 = 0x07;
    private static final int UINT32 = 0x08;
    private static final int INT64 = 0x09;
    private static final int UINT64 = 0x0a;
    private static final int DOUBLE = 0x0b;
    private static final int STRING = 0x0c;
    private static final int OPAQUE = 0x0f;
    private static final long UINT32_MAX = 0xFFFFFFFFL;

    /** MySQL field types an opaque value may name (enum_field_types). */
    private static final int FIELD_TIMESTAMP = 7;
    private static final int FIELD_DATE = 10;
    private static final int FIELD_TIME = 11;
    private static final int FIELD_DATETIME = 12;
    private static final int FIELD_VARCHAR = 15;
    private static final int FIELD_NEWDECIMAL = 246;

    private final byte[] b;
    private final boolean as57;
    private final StringBuilder out = new StringBuilder();
    private final List<JsonDocument.Typed> typed = new ArrayList<>();

    private JsonBinaryText(byte[] b, boolean as57) {
        this.b = b;
        this.as57 = as57;
    }

    /**
     * The document in {@code bytes}; empty bytes are JSON null (what MySQL logs for it).
     *
     * @param as57 print as MySQL 5.7 does: integral doubles without {@code .0} (so {@code 100} reads
     *             back as an integer: for a text column only), base64 line breaks unescaped
     */
    static JsonDocument decode(byte[] bytes, boolean as57) {
        if (bytes.length == 0) {
            return new JsonDocument("null", List.of());
        }
        JsonBinaryText r = new JsonBinaryText(bytes, as57);
        r.value(bytes[0] & 0xFF, 1, new StringBuilder("$"));
        return new JsonDocument(r.out.toString(), r.typed);
    }

    /** The value of {@code type} whose bytes start at {@code at}. */
    private void value(int type, int at, StringBuilder path) {
        switch (type) {
            case SMALL_OBJECT, LARGE_OBJECT -> container(at, type == LARGE_OBJECT, true, path);
            case SMALL_ARRAY, LARGE_ARRAY -> container(at, type == LARGE_ARRAY, false, path);
            case LITERAL -> literal(u8(at));
            case INT16 -> out.append((short) u16(at));
            case UINT16 -> unsigned(u16(at), path);
            case INT32 -> out.append((int) u32(at));
            case UINT32 -> unsigned(u32(at), path);
            case INT64 -> signed(i64(at), path);
            case UINT64 -> unsigned(i64(at), path);
            case DOUBLE -> dbl(Double.longBitsToDouble(i64(at)), path);
            case STRING -> {
                int[] len = varLength(at);
                quote(b, len[1], len[0]);
            }
            case OPAQUE -> {
                int[] len = varLength(at + 1);
                opaque(u8(at), len[1], len[0], path);
            }
            default -> throw bad("value type " + type + " at byte " + at);
        }
    }

    private void container(int start, boolean large, boolean object, StringBuilder path) {
        int width = large ? 4 : 2;
        long count = large ? u32(start) : u16(start);
        out.append(object ? '{' : '[');
        int entries = start + 2 * width + (object ? (int) count * (width + 2) : 0);
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                out.append(", ");
            }
            int mark = path.length();
            if (object) {
                int key = start + 2 * width + i * (width + 2);
                int keyAt = start + (int) (large ? u32(key) : u16(key));
                int keyLen = u16(key + width);
                quote(b, keyAt, keyLen);
                out.append(": ");
                path.append('.');
                appendQuoted(path, b, keyAt, keyLen);
            } else {
                path.append('[').append(i).append(']');
            }
            int entry = entries + i * (1 + width);
            int type = u8(entry);
            if (inlined(type, large)) {
                value(type, entry + 1, path);
            } else {
                value(type, start + (int) (large ? u32(entry + 1) : u16(entry + 1)), path);
            }
            path.setLength(mark);
        }
        out.append(object ? '}' : ']');
    }

    private static boolean inlined(int type, boolean large) {
        return type == LITERAL || type == INT16 || type == UINT16 || large && (type == INT32 || type == UINT32);
    }

    private void literal(int v) {
        out.append(switch (v) {
            case 0 -> "null";
            case 1 -> "true";
            case 2 -> "false";
            default -> throw bad("literal " + v);
        });
    }

    /**
     * MySQL's JSON parser reads a positive integer above 2^32 - 1 as an UNSIGNED INTEGER (its
     * parser hands those over as unsigned 64-bit numbers), anything else as an INTEGER; an integer
     * its text would give the other type is listed.
     */
    private void signed(long v, StringBuilder path) {
        out.append(v);
        if (v > UINT32_MAX) {
            typed.add(new JsonDocument.Typed(path.toString(), "CAST(" + v + " AS SIGNED)", null));
        }
    }

    /** An UNSIGNED INTEGER; see {@link #signed}. */
    private void unsigned(long v, StringBuilder path) {
        String text = Long.toUnsignedString(v);
        out.append(text);
        if (Long.compareUnsigned(v, UINT32_MAX) <= 0) {
            typed.add(new JsonDocument.Typed(path.toString(), "CAST(" + text + " AS UNSIGNED)", null));
        }
    }

    /** A double; listed when MySQL's JSON parser would read its text back as another double. */
    private void dbl(double d, StringBuilder path) {
        out.append(MySqlDoubles.json(d, !as57));
        String text = MySqlDoubles.json(d, true);
        if (!MySqlDoubles.jsonParserReadsExactly(text)) {
            typed.add(new JsonDocument.Typed(path.toString(), MySqlDoubles.sqlLiteral(text), null));
        }
    }

    private void opaque(int fieldType, int at, int len, StringBuilder path) {
        switch (fieldType) {
            case FIELD_NEWDECIMAL -> {
                int precision = u8(at);
                int scale = u8(at + 1);
                byte[] bin = Arrays.copyOfRange(b, at + 2, at + len);
                BigDecimal d = AbstractRowsEventDataDeserializer.asBigDecimal(precision, scale, bin);
                String text = d.toPlainString();
                out.append(text);
                int p = Math.min(65, Math.max(1, Math.max(precision, scale)));
                typed.add(new JsonDocument.Typed(path.toString(),
                        "CAST('" + text + "' AS DECIMAL(" + p + "," + scale + "))", null));
            }
            case FIELD_DATE, FIELD_DATETIME, FIELD_TIMESTAMP, FIELD_TIME -> temporal(fieldType, i64(at), path);
            default -> {
                byte[] data = Arrays.copyOfRange(b, at, at + len);
                String text = "base64:type" + fieldType + ":" + base64(data);
                if (as57) { // 5.7 prints an opaque value's text as it is, line breaks and all
                    out.append('"').append(text).append('"');
                } else {
                    byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
                    quote(ascii, 0, ascii.length);
                }
                typed.add(fieldType == FIELD_VARCHAR
                        ? new JsonDocument.Typed(path.toString(), "x'" + HexFormat.of().formatHex(data) + "'", null,
                        text)
                        : JsonTextTypes.refused(path, "binary value of MySQL field type " + fieldType + " (\"base64:type"
                        + fieldType + ":…\")", "store it as a string on the source (TO_BASE64)"));
            }
        }
    }

    private void temporal(int fieldType, long packed, StringBuilder path) {
        String text = fieldType == FIELD_TIME ? TemporalText.jsonTime(packed)
                : TemporalText.jsonDatetime(packed, fieldType == FIELD_DATE);
        out.append('"').append(text).append('"');
        String sqlType = switch (fieldType) {
            case FIELD_DATE -> "DATE";
            case FIELD_TIME -> "TIME(6)";
            case FIELD_DATETIME -> "DATETIME(6)";
            default -> null; // TIMESTAMP: no SQL expression has that type without a table's column
        };
        String written = fieldType == FIELD_TIME ? TemporalText.jsonTimeStoredAs(packed) : text;
        typed.add(sqlType == null ? JsonTextTypes.refused(path, "TIMESTAMP", "store it as a DATETIME on the source")
                : new JsonDocument.Typed(path.toString(), "CAST('" + written + "' AS " + sqlType + ")", null, text));
    }

    /** MySQL's base64_encode: a newline after every 76 characters that more follow. */
    private static String base64(byte[] data) {
        String plain = Base64.getEncoder().encodeToString(data);
        StringBuilder sb = new StringBuilder(plain.length() + plain.length() / 76);
        for (int i = 0; i < plain.length(); i += 76) {
            if (i > 0) {
                sb.append('\n');
            }
            sb.append(plain, i, Math.min(plain.length(), i + 76));
        }
        return sb.toString();
    }

    /** MySQL's JSON string quoting: {@code " \ \b \f \n \r \t} escaped, other controls as \\u00xx. */
    private void quote(byte[] src, int at, int len) {
        appendQuoted(out, src, at, len);
    }

    static void appendQuoted(StringBuilder sb, byte[] src, int at, int len) {
        String s = new String(src, at, len, StandardCharsets.UTF_8);
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append("\\u00").append(Character.forDigit(c >> 4, 16))
                                .append(Character.forDigit(c & 15, 16));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** {length, first byte after it} of a variable-length length at {@code at}. */
    private int[] varLength(int at) {
        long len = 0;
        for (int i = 0; i < 5; i++) {
            int x = u8(at + i);
            len |= (long) (x & 0x7F) << (7 * i);
            if ((x & 0x80) == 0) {
                if (len > Integer.MAX_VALUE) {
                    break;
                }
                return new int[] {(int) len, at + i + 1};
            }
        }
        throw bad("length at byte " + at);
    }

    private int u8(int at) {
        if (at < 0 || at >= b.length) {
            throw bad("offset " + at + " past the document's " + b.length + " bytes");
        }
        return b[at] & 0xFF;
    }

    private int u16(int at) {
        return u8(at) | u8(at + 1) << 8;
    }

    private long u32(int at) {
        return (u16(at) | (long) u16(at + 2) << 16) & 0xFFFFFFFFL;
    }

    private long i64(int at) {
        return u32(at) | u32(at + 4) << 32;
    }

    private static IllegalArgumentException bad(String what) {
        return new IllegalArgumentException("cannot read the binary JSON document: bad " + what);
    }
}
