package io.jdm.common.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL's rules for the values an expression filter works on, as far as they decide whether an
 * expression is TRUE. Values are: {@code null} (SQL NULL); numbers ({@link Long}, {@link BigInteger},
 * {@link BigDecimal}, {@link Double}, {@link Float}); text ({@link String}, compared as the default
 * collations do: case-insensitively, trailing spaces ignored; {@link CaseText} where the column's
 * collation is {@code _bin} or {@code _cs}); binary strings ({@code byte[]}, compared byte by byte);
 * {@link Bits} (b'…', x'…' and 0x… literals: an integer against a number, bytes against a string);
 * {@link DateTime} and {@link Time}.
 *
 * <p>Comparison follows MySQL's: NULL on either side is NULL (so never TRUE); two numbers compare as
 * numbers; a number and a string compare as floating-point numbers (the string's numeric prefix, as
 * MySQL reads it); a DATE, DATETIME, TIMESTAMP or TIME and a string compare as temporal values (the
 * string read as one); two strings compare by collation, or byte by byte when either is binary.
 */
final class SqlValues {
    /** Text of a column whose collation compares case (and accent) sensitively. */
    record CaseText(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** A b'…', x'…' or 0x… literal: an unsigned integer in numeric context, bytes otherwise. */
    record Bits(byte[] bytes) {
        BigInteger number() {
            return new BigInteger(1, bytes);
        }
    }

    /**
     * A DATE, DATETIME or TIMESTAMP (TIMESTAMP in UTC, as the binlog carries it), kept as
     * {@code yyyy-MM-dd HH:mm:ss.SSSSSS}, which sorts as the values do; {@code text} as written.
     */
    record DateTime(String canonical, String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** A TIME, in microseconds (negative and past 24 hours as MySQL allows). */
    record Time(long micros, String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    private static final Pattern NUMBER_PREFIX = Pattern.compile("^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern DATE_TIME = Pattern.compile(
            "(\\d{1,4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{0,9}))?)?)?"
                    + "\\s*(Z|[+-]\\d{1,2}:\\d{2})?");
    private static final Pattern TIME = Pattern.compile("(-)?(?:(\\d+) )?(\\d+):(\\d{1,2})(?::(\\d{1,2}))?(?:\\.(\\d{0,9}))?");
    private static final DateTimeFormatter CANONICAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    /** MySQL's div_precision_increment default: a quotient has 4 more decimals than its dividend. */
    private static final int DIV_PRECISION_INCREMENT = 4;

    private SqlValues() {
    }

    /** -1, 0 or 1; null when either side is NULL. */
    static Integer compare(Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        if (a instanceof DateTime || a instanceof Time) {
            return compareTemporal(a, b);
        }
        if (b instanceof DateTime || b instanceof Time) {
            Integer r = compareTemporal(b, a);
            return r == null ? null : -r;
        }
        if (isNumeric(a) || isNumeric(b)) {
            if (isStringLike(a) || isStringLike(b)) {
                return Double.compare(toDouble(a), toDouble(b));
            }
            return compareNumbers(number(a), number(b));
        }
        if (a instanceof byte[] || b instanceof byte[] || a instanceof Bits || b instanceof Bits) {
            return Arrays.compareUnsigned(bytes(a), bytes(b)) < 0 ? -1
                    : Arrays.compareUnsigned(bytes(a), bytes(b)) > 0 ? 1 : 0;
        }
        String x = stripTrailingSpaces(a.toString());
        String y = stripTrailingSpaces(b.toString());
        int r = a instanceof CaseText || b instanceof CaseText ? x.compareTo(y) : foldCase(x).compareTo(foldCase(y));
        return Integer.signum(r);
    }

    /** A value as MySQL takes it for a truth test: nonzero is TRUE; null stays NULL. */
    static Boolean truth(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Double || v instanceof Float) {
            return ((Number) v).doubleValue() != 0;
        }
        if (isNumeric(v)) {
            return number(v).signum() != 0;
        }
        if (v instanceof DateTime d) {
            return !d.canonical().startsWith("0000-00-00 00:00:00");
        }
        if (v instanceof Time t) {
            return t.micros() != 0;
        }
        return toDouble(v) != 0;
    }

    static Object ofBoolean(Boolean b) {
        return b == null ? null : b ? 1L : 0L;
    }

    /** {@code + - * / DIV %}: NULL in, NULL out; division by zero is NULL, as MySQL's (outside strict DML). */
    static Object arithmetic(String op, Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        boolean floating = a instanceof Double || a instanceof Float || b instanceof Double || b instanceof Float
                || !isNumeric(a) || !isNumeric(b);
        if (floating && !op.equals("DIV")) {
            double x = toDouble(a);
            double y = toDouble(b);
            return switch (op) {
                case "+" -> x + y;
                case "-" -> x - y;
                case "*" -> x * y;
                case "/" -> y == 0 ? null : x / y;
                default -> y == 0 ? null : x % y;
            };
        }
        BigDecimal x = floating ? BigDecimal.valueOf(toDouble(a)) : number(a);
        BigDecimal y = floating ? BigDecimal.valueOf(toDouble(b)) : number(b);
        return switch (op) {
            case "+" -> x.add(y);
            case "-" -> x.subtract(y);
            case "*" -> x.multiply(y);
            case "/" -> y.signum() == 0 ? null
                    : x.divide(y, Math.max(x.scale(), 0) + DIV_PRECISION_INCREMENT, RoundingMode.HALF_UP);
            case "DIV" -> y.signum() == 0 ? null : x.divide(y, 0, RoundingMode.DOWN);
            default -> y.signum() == 0 ? null : x.remainder(y);
        };
    }

    static Object negate(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Double || v instanceof Float || !isNumeric(v)) {
            return -toDouble(v);
        }
        return number(v).negate();
    }

    /** {@code LIKE}: {@code %} and {@code _}, {@code escape} before a literal one; by collation, as {@link #compare}. */
    static Boolean like(Object value, Object pattern, char escape) {
        if (value == null || pattern == null) {
            return null;
        }
        boolean exact = value instanceof CaseText || pattern instanceof CaseText || value instanceof byte[]
                || pattern instanceof byte[];
        String p = text(pattern);
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == escape && i + 1 < p.length()) {
                re.append(Pattern.quote(String.valueOf(p.charAt(++i))));
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        int flags = Pattern.DOTALL | (exact ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        return Pattern.compile(re.toString(), flags).matcher(text(value)).matches();
    }

    /** A value as MySQL prints it in string context. */
    static String text(Object v) {
        if (v instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (v instanceof Bits b) {
            return new String(b.bytes(), StandardCharsets.UTF_8);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return v.toString();
    }

    /** True for a DATE or DATETIME text with a UTC offset ({@code Z}, {@code +08:00}). */
    static boolean hasOffset(String s) {
        Matcher m = DATE_TIME.matcher(s.strip());
        return m.matches() && m.group(8) != null;
    }

    /** A DATE, DATETIME or TIMESTAMP text (with an optional UTC offset, applied); null when it is not one. */
    static DateTime dateTime(String s) {
        Matcher m = DATE_TIME.matcher(s.strip());
        if (!m.matches()) {
            return null;
        }
        int year = Integer.parseInt(m.group(1));
        int month = Integer.parseInt(m.group(2));
        int day = Integer.parseInt(m.group(3));
        int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
        int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
        int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
        String frac = m.group(7) == null ? "" : m.group(7);
        int micros = Integer.parseInt((frac + "000000").substring(0, 6));
        if (m.group(8) != null && month > 0 && day > 0) {
            ZoneOffset offset = m.group(8).equals("Z") ? ZoneOffset.UTC : ZoneOffset.of(pad(m.group(8)));
            LocalDateTime utc = OffsetDateTime.of(year, month, day, hour, minute, second, micros * 1000, offset)
                    .withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            return new DateTime(utc.format(CANONICAL), s);
        }
        String c = String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d:%02d.%06d", year, month, day, hour, minute,
                second, micros);
        return new DateTime(c, s);
    }

    /** A TIME text ({@code [-][D ]H:MM[:SS[.f]]}); null when it is not one. */
    static Time time(String s) {
        Matcher m = TIME.matcher(s.strip());
        if (!m.matches()) {
            return null;
        }
        long days = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
        long seconds = (days * 24 + Long.parseLong(m.group(3))) * 3600 + Long.parseLong(m.group(4)) * 60
                + (m.group(5) == null ? 0 : Long.parseLong(m.group(5)));
        String frac = m.group(6) == null ? "" : m.group(6);
        long micros = seconds * 1_000_000 + Long.parseLong((frac + "000000").substring(0, 6));
        return new Time(m.group(1) != null ? -micros : micros, s);
    }

    static DateTime now() {
        LocalDateTime t = LocalDateTime.now(ZoneOffset.UTC);
        return new DateTime(t.format(CANONICAL), t.format(CANONICAL));
    }

    private static String pad(String offset) {
        return offset.length() == 5 ? offset.charAt(0) + "0" + offset.substring(1) : offset;
    }

    private static Integer compareTemporal(Object t, Object other) {
        if (t instanceof DateTime d) {
            DateTime o = other instanceof DateTime x ? x : isStringLike(other) ? dateTime(text(other)) : null;
            if (o != null) {
                return Integer.signum(d.canonical().compareTo(o.canonical()));
            }
            if (other instanceof Time) {
                return null;
            }
            return isNumeric(other) ? compareNumbers(new BigDecimal(d.canonical().replaceAll("[- :]", "")),
                    number(other)) : Integer.signum(d.canonical().compareTo(text(other)));
        }
        Time time = (Time) t;
        Time o = other instanceof Time x ? x : isStringLike(other) ? time(text(other)) : null;
        if (o != null) {
            return Long.compare(time.micros(), o.micros());
        }
        return isNumeric(other) ? Double.compare(time.micros() / 1e6, toDouble(other)) : null;
    }

    private static boolean isNumeric(Object v) {
        return v instanceof Number;
    }

    private static boolean isStringLike(Object v) {
        return v instanceof String || v instanceof CaseText || v instanceof byte[];
    }

    private static int compareNumbers(BigDecimal a, BigDecimal b) {
        return Integer.signum(a.compareTo(b));
    }

    private static BigDecimal number(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Bits b) {
            return new BigDecimal(b.number());
        }
        return BigDecimal.valueOf(toDouble(v));
    }

    /** A value as a double: a string's numeric prefix, as MySQL reads it (0 when it has none). */
    static double toDouble(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Bits b) {
            return b.number().doubleValue();
        }
        Matcher m = NUMBER_PREFIX.matcher(text(v));
        return m.find() ? Double.parseDouble(m.group().strip()) : 0;
    }

    private static byte[] bytes(Object v) {
        if (v instanceof byte[] b) {
            return b;
        }
        if (v instanceof Bits b) {
            return b.bytes();
        }
        return text(v).getBytes(StandardCharsets.UTF_8);
    }

    private static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private static String foldCase(String s) {
        return s.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
    }
}
