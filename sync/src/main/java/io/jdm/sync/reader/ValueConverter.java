package io.jdm.sync.reader;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.jdm.common.schema.Column;
import io.jdm.common.sql.JsonDocument;
import io.jdm.common.sql.TypedColumn;
import java.math.BigInteger;
import io.jdm.common.sql.MysqlLatin1;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Turns what the binlog library hands over into the canonical Java values the shared value
 * encoder takes: one small function per MySQL type, chosen once per column.
 */
final class ValueConverter {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    private ValueConverter() {
    }

    /**
     * A converter for one column. {@code binlogType} is the column's type byte from TABLE_MAP;
     * {@code json57}: the source is MySQL 5.7, whose JSON text a text column takes as 5.7 prints it.
     */
    static Function<Object, Object> forColumn(Column c, int binlogType, boolean json57) {
        Function<Object, Object> f = pick(c, binlogType, json57);
        return raw -> raw == null ? null : f.apply(raw);
    }

    private static Function<Object, Object> pick(Column c, int binlogType, boolean json57) {
        String t = c.dataType();
        if (c.isIntegral()) {
            return c.unsigned() ? unsigned(t) : ValueConverter::signed;
        }
        if (binlogType == ColumnType.JSON.getCode()) {
            return "json".equals(t) ? ValueConverter::json
                    : raw -> JsonBinaryText.decode((byte[]) bytes(raw), json57).text();
        }
        return switch (t) {
            case "decimal", "float", "double" -> raw -> raw;
            case "bit" -> bit(length(c.columnType(), 1));
            case "enum" -> enumLabel(TypedColumn.labels(c.columnType()));
            case "set" -> setLabels(TypedColumn.labels(c.columnType()));
            case "binary" -> padded(length(c.columnType(), 1));
            // the binlog carries MariaDB's INET4, INET6 and UUID as their raw bytes, trailing zeros cut; as
            // bytes of their full length the target takes them raw again
            case "inet4", "inet6", "uuid" -> padded(TypedColumn.fixedBinaryLength(t));
            case "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> ValueConverter::bytes;
            case "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
                    "geometrycollection", "geomcollection" -> ValueConverter::bytes;
            case "date", "datetime", "timestamp", "time", "year" -> raw -> raw;
            default -> text(charset(c.charset()));
        };
    }

    static Object signed(Object raw) {
        return ((Number) raw).longValue();
    }

    /** The library returns unsigned integers as their signed bit pattern; widen them back. */
    static Function<Object, Object> unsigned(String dataType) {
        return switch (dataType) {
            case "tinyint" -> raw -> (long) (((Number) raw).intValue() & 0xFF);
            case "smallint" -> raw -> (long) (((Number) raw).intValue() & 0xFFFF);
            case "mediumint" -> raw -> (long) (((Number) raw).intValue() & 0xFFFFFF);
            case "int", "integer" -> raw -> ((Number) raw).longValue() & 0xFFFFFFFFL;
            default -> raw -> {
                long v = ((Number) raw).longValue();
                return v >= 0 ? (Object) v : BigInteger.valueOf(v).add(TWO_64);
            };
        };
    }

    /**
     * A MySQL JSON value (binlog type 245, whatever the target calls the column) as the document
     * and the values its text cannot carry. For a JSON column on the target every one of those must
     * be writable with its type; a text column (MariaDB's JSON) takes the text as the source prints it.
     */
    static JsonDocument json(Object raw) {
        JsonDocument doc = JsonBinaryText.decode((byte[]) bytes(raw), false);
        for (JsonDocument.Typed t : doc.typed()) {
            if (t.expression() == null) {
                throw new IllegalArgumentException(t.refusal());
            }
        }
        return doc;
    }

    /** BIT(n) as big-endian bytes, ceil(n/8) long, as MySQL stores it. */
    static Function<Object, Object> bit(int bits) {
        int n = (bits + 7) / 8;
        return raw -> {
            long v;
            if (raw instanceof BitSet bs) {
                long[] words = bs.toLongArray();
                v = words.length == 0 ? 0 : words[0];
            } else {
                v = ((Number) raw).longValue();
            }
            byte[] out = new byte[n];
            for (int i = n - 1; i >= 0; i--) {
                out[i] = (byte) v;
                v >>>= 8;
            }
            return out;
        };
    }

    static Function<Object, Object> enumLabel(List<String> labels) {
        return raw -> {
            int i = ((Number) raw).intValue();
            // 0 is the empty "error" value MySQL stores for an invalid ENUM in non-strict mode.
            return i <= 0 || i > labels.size() ? "" : labels.get(i - 1);
        };
    }

    static Function<Object, Object> setLabels(List<String> labels) {
        return raw -> {
            long bits = ((Number) raw).longValue();
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < labels.size(); i++) {
                if ((bits & (1L << i)) != 0) {
                    if (sb.length() > 0) {
                        sb.append(',');
                    }
                    sb.append(labels.get(i));
                }
            }
            return sb.toString();
        };
    }

    /** BINARY(n): the binlog drops trailing 0x00 bytes; put them back. */
    static Function<Object, Object> padded(int length) {
        return raw -> {
            byte[] b = (byte[]) bytes(raw);
            return b.length >= length ? b : Arrays.copyOf(b, length);
        };
    }

    static Object bytes(Object raw) {
        return raw instanceof String s ? s.getBytes(StandardCharsets.ISO_8859_1) : raw;
    }

    static Function<Object, Object> text(Charset cs) {
        return raw -> raw instanceof byte[] b ? new String(b, cs) : raw.toString();
    }

    /** The Java charset for a MySQL character set name. */
    static Charset charset(String mysql) {
        if (mysql == null) {
            return StandardCharsets.UTF_8;
        }
        String n = mysql.toLowerCase(Locale.ROOT);
        return switch (n) {
            case "utf8", "utf8mb3", "utf8mb4" -> StandardCharsets.UTF_8;
            case "latin1" -> MysqlLatin1.INSTANCE; // not windows-1252, which has no character for five of its bytes
            case "ascii" -> StandardCharsets.US_ASCII;
            case "binary" -> StandardCharsets.ISO_8859_1;
            case "ucs2", "utf16" -> StandardCharsets.UTF_16BE;
            case "utf16le" -> StandardCharsets.UTF_16LE;
            case "utf32" -> Charset.forName("UTF-32");
            case "sjis" -> Charset.forName("Shift_JIS");
            case "ujis" -> Charset.forName("EUC-JP");
            case "euckr" -> Charset.forName("EUC-KR");
            case "gb2312" -> Charset.forName("GB2312");
            case "koi8r" -> Charset.forName("KOI8-R");
            case "latin2" -> Charset.forName("ISO-8859-2");
            case "greek" -> Charset.forName("ISO-8859-7");
            case "hebrew" -> Charset.forName("ISO-8859-8");
            case "latin5" -> Charset.forName("ISO-8859-9");
            default -> {
                try {
                    yield Charset.forName(n.startsWith("cp") ? "windows-" + n.substring(2) : n);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("character set " + mysql + " has no Java equivalent");
                }
            }
        };
    }

    /** {@code 16} from {@code binary(16)}; {@code dflt} when there are no parentheses. */
    static int length(String columnType, int dflt) {
        int open = columnType.indexOf('(');
        int close = columnType.indexOf(')', open + 1);
        if (open < 0 || close < 0) {
            return dflt;
        }
        return Integer.parseInt(columnType.substring(open + 1, close).trim());
    }
}
