package io.jdm.common.sql;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * A double as MySQL prints it inside JSON: the shortest digits that read back as the same
 * double (dtoa mode 0), laid out as {@code my_gcvt} does in a 34-character field (plain notation
 * for decimal exponents -14 to 15, else {@code 1.5e300} with no {@code +} and no zero padding),
 * with {@code .0} appended (by 8.0, not 5.7) when neither a point nor an exponent shows. Java's
 * {@code Double.toString} differs (it writes {@code 1.5E300}, {@code 4.9E-324} for 5e-324, and in
 * Java 17 not always the shortest digits), so the digits are found here with exact arithmetic.
 */
public final class MySqlDoubles {
    /** my_gcvt keeps plain notation from 0.00000000000001 up to 15 integral digits (MAX_DECPT_FOR_F_FORMAT). */
    private static final int MAX_DECPT_FOR_F_FORMAT = 15;

    private MySqlDoubles() {
    }

    /** The text MySQL gives for {@code d} as a JSON double; {@code pointZero}: 8.0's {@code .0} on integral values. */
    public static String json(double d, boolean pointZero) {
        StringBuilder sb = new StringBuilder(24);
        if (Double.doubleToRawLongBits(d) < 0) {
            sb.append('-');
        }
        double a = Math.abs(d);
        String digits;
        int decpt;
        if (a == 0) {
            digits = "0";
            decpt = 1;
        } else {
            BigDecimal r = shortest(a).stripTrailingZeros();
            digits = r.unscaledValue().toString();
            decpt = digits.length() - r.scale();
        }
        int len = digits.length();
        if (decpt >= 1 - MAX_DECPT_FOR_F_FORMAT && (decpt <= MAX_DECPT_FOR_F_FORMAT || decpt < len)) {
            plain(sb, digits, decpt);
        } else {
            sb.append(digits.charAt(0));
            if (len > 1) {
                sb.append('.').append(digits, 1, len);
            }
            sb.append('e').append(decpt - 1);
        }
        if (pointZero && sb.indexOf(".") < 0 && sb.indexOf("e") < 0) {
            sb.append(".0");
        }
        return sb.toString();
    }

    /**
     * True when MySQL's JSON parser reads {@code text} (a double as {@link #json} prints it) back as
     * that double. It does not round correctly (rapidjson without full precision: the significand,
     * as a double, times or divided by a power of ten): 0.00000009126590312330531 comes back as
     * ...532. The result is exact only when the significand is an integer below 2^53 and the power
     * of ten at most 10^22, both exact doubles and one rounding.
     */
    public static boolean jsonParserReadsExactly(String text) {
        int e = text.indexOf('e');
        String mantissa = e < 0 ? text : text.substring(0, e);
        int exponent = e < 0 ? 0 : Integer.parseInt(text.substring(e + 1));
        if (mantissa.startsWith("-")) {
            mantissa = mantissa.substring(1);
        }
        int dot = mantissa.indexOf('.');
        String digits = dot < 0 ? mantissa : mantissa.substring(0, dot) + mantissa.substring(dot + 1);
        int fraction = dot < 0 ? 0 : mantissa.length() - dot - 1;
        int first = 0;
        while (first < digits.length() && digits.charAt(first) == '0') {
            first++;
        }
        int last = digits.length();
        while (last > first && digits.charAt(last - 1) == '0') {
            last--;
        }
        if (last == first) {
            return true;
        }
        int power = exponent - fraction + digits.length() - last;
        digits = digits.substring(first, last);
        boolean exactSignificand = digits.length() < 16
                || digits.length() == 16 && Long.parseLong(digits) <= 1L << 53;
        return exactSignificand && Math.abs(power) <= 22;
    }

    /** {@code text} (a double as {@link #json} prints it) as an SQL literal of type DOUBLE. */
    public static String sqlLiteral(String text) {
        return text.indexOf('e') < 0 ? text + "e0" : text;
    }

    private static void plain(StringBuilder sb, String digits, int decpt) {
        if (decpt <= 0) {
            sb.append("0.");
            sb.append("0".repeat(-decpt));
            sb.append(digits);
        } else if (decpt < digits.length()) {
            sb.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
        } else {
            sb.append(digits).append("0".repeat(decpt - digits.length()));
        }
    }

    /**
     * The shortest decimal that reads back as {@code a} (positive, finite), the nearest of that
     * length; at a power of two the gap below is half the gap above, so the nearest may miss where
     * its neighbour of the same length does not.
     */
    private static BigDecimal shortest(double a) {
        BigDecimal exact = new BigDecimal(a);
        for (int p = 1; p < 17; p++) {
            BigDecimal near = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (near.doubleValue() == a) {
                return near;
            }
            for (RoundingMode m : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
                BigDecimal other = exact.round(new MathContext(p, m));
                if (other.doubleValue() == a) {
                    return other;
                }
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
    }
}
