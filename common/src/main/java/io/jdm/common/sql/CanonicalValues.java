package io.jdm.common.sql;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Java's view of canonical values ({@link ResultSetValues}, and the sync's decoded binlog rows):
 * ordering that agrees with verify's ORDER BY of key columns on the server, and equality of values
 * rather than of their text. Verify compares rows with it, and the sync's validator compares a row it
 * wrote with the row the target holds.
 */
public final class CanonicalValues {
    /** Decimals as BigDecimal (trailing zeros stripped by the node factory), so 2.50 equals 2.5 exactly. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /** Numbers equal by value, anything else by {@link JsonNode#equals}; 0 for equal, as Comparator says. */
    private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (x, y) -> {
        if (x.isNumber() && y.isNumber()) {
            return x.decimalValue().compareTo(y.decimalValue());
        }
        return x.equals(y) ? 0 : 1;
    };

    private CanonicalValues() {
    }

    /** Orders two values of one key column as the server's ORDER BY {@link verify's key order} does; NULL first. */
    public static int compare(TypedColumn c, Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if ("time".equals(c.dataType()) && a instanceof String x && b instanceof String y) {
            return Long.compare(timeMicros(x), timeMicros(y));
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.compareUnsigned(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return compareCodePoints(x, y);
        }
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        return number(a).compareTo(number(b));
    }

    /** True when both are the same value, whatever their formatting or Java type. */
    public static boolean same(TypedColumn source, Object a, Object b, boolean json) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.equals(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            if (x.equals(y)) {
                return true;
            }
            if (json) {
                return sameJson(x, y);
            }
            return TypedColumn.isTemporal(source.dataType()) && trimFraction(x).equals(trimFraction(y));
        }
        if (a instanceof Float x && b instanceof Float y) {
            return x.floatValue() == y.floatValue();
        }
        if ((a instanceof Float || a instanceof Double) && (b instanceof Float || b instanceof Double)) {
            return ((Number) a).doubleValue() == ((Number) b).doubleValue();
        }
        if (isNumeric(a) && isNumeric(b)) {
            return number(a).compareTo(number(b)) == 0;
        }
        return false;
    }

    /**
     * True when two MySQL-printed JSON texts are the same JSON value with numbers compared by value
     * ({@code 3} and {@code 3.0}, as MySQL 5.7 and 8.0 print one double, or a DECIMAL's
     * {@code 1.50} and a DOUBLE's {@code 1.5}): for columns whose types are compared apart
     * ({@link TypedJson}). Text that is not JSON is the same only as the same text.
     */
    public static boolean sameJsonValue(String a, String b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.equals(b)) {
            return true;
        }
        try {
            JsonNode x = JSON.readTree(a);
            JsonNode y = JSON.readTree(b);
            return x != null && y != null && x.equals(NUMBERS_BY_VALUE, y);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isNumeric(Object o) {
        return o instanceof Number || o instanceof byte[];
    }

    /** Any numeric canonical value (BIT may come as bytes) as an exact BigDecimal. */
    private static BigDecimal number(Object o) {
        if (o instanceof BigDecimal d) {
            return d;
        }
        if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
            return BigDecimal.valueOf(((Number) o).longValue());
        }
        if (o instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (o instanceof Float || o instanceof Double) {
            double d = ((Number) o).doubleValue();
            return d == 0 ? BigDecimal.ZERO : new BigDecimal(d);
        }
        if (o instanceof byte[] b) {
            return new BigDecimal(new BigInteger(1, b));
        }
        if (o instanceof String s) {
            return new BigDecimal(s);
        }
        throw new IllegalArgumentException("not a number: " + o.getClass().getName());
    }

    /** UTF-8 byte order, which is code point order (String.compareTo is UTF-16 order). */
    public static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** {@code -838:59:59.500000} as signed microseconds. */
    public static long timeMicros(String t) {
        boolean neg = t.startsWith("-");
        String s = neg ? t.substring(1) : t;
        int dot = s.indexOf('.');
        long frac = 0;
        if (dot >= 0) {
            String f = (s.substring(dot + 1) + "000000").substring(0, 6);
            frac = Long.parseLong(f);
            s = s.substring(0, dot);
        }
        String[] p = s.split(":");
        long secs = 0;
        for (String part : p) {
            secs = secs * 60 + Long.parseLong(part);
        }
        long micros = secs * 1_000_000 + frac;
        return neg ? -micros : micros;
    }

    private static String trimFraction(String t) {
        int dot = t.indexOf('.');
        if (dot < 0) {
            return t;
        }
        int end = t.length();
        while (end > dot + 1 && t.charAt(end - 1) == '0') {
            end--;
        }
        return t.substring(0, end == dot + 1 ? dot : end);
    }

    private static boolean sameJson(String a, String b) {
        try {
            JsonNode x = JSON.readTree(a);
            JsonNode y = JSON.readTree(b);
            return x != null && x.equals(y);
        } catch (IOException e) {
            return false;
        }
    }
}
