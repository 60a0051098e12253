package io.jdm.sync.reader;

import io.jdm.common.sql.JsonTextTypes;

/**
 * Decodes MySQL's binlog temporal encodings into MySQL's own text form. Text, not java.time: zero
 * dates ({@code 0000-00-00}), zero parts ({@code 2024-00-00}), negative and over-24h TIME and
 * TIMESTAMP in UTC all survive exactly, which no java.time type can promise.
 */
final class TemporalText {
    private static final long DATETIMEF_INT_OFS = 0x8000000000L;
    private static final long TIMEF_INT_OFS = 0x800000L;
    private static final long TIMEF_OFS = 0x800000000000L;

    private TemporalText() {
    }

    /** DATE: 3 bytes little-endian, day:5 month:4 year:15. */
    static String date(int packed) {
        return ymd(new StringBuilder(10), packed >>> 9, (packed >>> 5) & 0xF, packed & 0x1F).toString();
    }

    /** YEAR: one byte, 0 or an offset from 1900. */
    static String year(int b) {
        return b == 0 ? "0000" : String.valueOf(1900 + b);
    }

    /**
     * DATETIME2: 5 bytes big-endian, {@code intpart = yyyymm(17 bits, year*13+month) day hour min sec},
     * offset by 0x8000000000, then 0..3 bytes of fraction.
     */
    static String datetime2(long bigEndian5, int micros, int fsp) {
        long intpart = bigEndian5 - DATETIMEF_INT_OFS;
        long ymd = intpart >> 17;
        long ym = ymd >> 5;
        long hms = intpart & ((1L << 17) - 1);
        StringBuilder sb = new StringBuilder(26);
        ymd(sb, (int) (ym / 13), (int) (ym % 13), (int) (ymd & 31)).append(' ');
        hms(sb, (int) (hms >> 12), (int) ((hms >> 6) & 63), (int) (hms & 63));
        return fraction(sb, micros, fsp).toString();
    }

    /** DATETIME (old format): an 8-byte integer YYYYMMDDhhmmss. */
    static String datetime1(long v) {
        long d = v / 1_000_000;
        long t = v % 1_000_000;
        StringBuilder sb = new StringBuilder(19);
        ymd(sb, (int) (d / 10000), (int) (d / 100 % 100), (int) (d % 100)).append(' ');
        return hms(sb, (int) (t / 10000), (int) (t / 100 % 100), (int) (t % 100)).toString();
    }

    /** TIMESTAMP/TIMESTAMP2: seconds since the epoch (0 is the zero timestamp), shown in UTC. */
    static String timestamp(long epochSeconds, int micros, int fsp) {
        StringBuilder sb = new StringBuilder(26);
        if (epochSeconds == 0 && micros == 0) {
            sb.append("0000-00-00 00:00:00");
            return fraction(sb, 0, fsp).toString();
        }
        java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(epochSeconds, 0, java.time.ZoneOffset.UTC);
        ymd(sb, t.getYear(), t.getMonthValue(), t.getDayOfMonth()).append(' ');
        hms(sb, t.getHour(), t.getMinute(), t.getSecond());
        return fraction(sb, micros, fsp).toString();
    }

    /**
     * TIME2: 3 bytes big-endian {@code sign:1 unused:1 hour:10 minute:6 second:6} offset by 0x800000,
     * with a fraction stored as a signed complement for negative values (MySQL's
     * {@code my_time_packed_from_binary}).
     *
     * @param raw the 3 + fraction bytes as one big-endian unsigned number
     */
    static String time2(long raw, int fsp) {
        int fracBytes = (fsp + 1) / 2;
        long packed;
        if (fracBytes == 0) {
            packed = (raw - TIMEF_INT_OFS) << 24;
        } else if (fracBytes == 1 || fracBytes == 2) {
            int shift = 8 * fracBytes;
            long intpart = (raw >>> shift) - TIMEF_INT_OFS;
            long frac = raw & ((1L << shift) - 1);
            if (intpart < 0 && frac != 0) {
                intpart++;
                frac -= 1L << shift;
            }
            packed = (intpart << 24) + frac * (fracBytes == 1 ? 10000 : 100);
        } else {
            packed = raw - TIMEF_OFS;
        }
        StringBuilder sb = new StringBuilder(17);
        if (packed < 0) {
            sb.append('-');
            packed = -packed;
        }
        long hms = packed >> 24;
        int micros = (int) (packed & 0xFFFFFF);
        hms(sb, (int) ((hms >> 12) & 0x3FF), (int) ((hms >> 6) & 63), (int) (hms & 63));
        return fraction(sb, micros, fsp).toString();
    }

    /** TIME (old format): a signed 3-byte integer hhmmss. */
    static String time1(int v) {
        StringBuilder sb = new StringBuilder(10);
        if (v < 0) {
            sb.append('-');
            v = -v;
        }
        return hms(sb, v / 10000, v / 100 % 100, v % 100).toString();
    }

    /**
     * A DATE, DATETIME or TIMESTAMP inside binary JSON: MySQL's packed 64-bit form
     * ({@code TIME_from_longlong_datetime_packed}: {@code ((year*13+month)<<5|day)<<17|hour<<12|min<<6|sec}
     * shifted left 24 over the microseconds), printed as JSON prints it, a datetime with six digits
     * of fraction.
     */
    static String jsonDatetime(long packed, boolean dateOnly) {
        long tmp = Math.abs(packed);
        long ymdhms = tmp >> 24;
        long ymd = ymdhms >> 17;
        long ym = ymd >> 5;
        long hms = ymdhms & ((1L << 17) - 1);
        StringBuilder sb = new StringBuilder(26);
        ymd(sb, (int) (ym / 13), (int) (ym % 13), (int) (ymd & 31));
        if (dateOnly) {
            return sb.toString();
        }
        sb.append(' ');
        hms(sb, (int) (hms >> 12), (int) ((hms >> 6) & 63), (int) (hms & 63));
        return fraction(sb, (int) (tmp & 0xFFFFFF), 6).toString();
    }

    /**
     * A TIME inside binary JSON: MySQL's packed 64-bit form ({@code TIME_from_longlong_time_packed}:
     * the absolute value's {@code hour<<12|min<<6|sec} shifted left 24 over the microseconds,
     * negated when negative), with six digits of fraction.
     */
    static String jsonTime(long packed) {
        return jsonTime(packed, false);
    }

    /**
     * The TIME that MySQL stores in JSON as {@code packed}: the hours written back are the ones
     * that store to the same value ({@link JsonTextTypes#timeHoursWritten}).
     */
    static String jsonTimeStoredAs(long packed) {
        return jsonTime(packed, true);
    }

    private static String jsonTime(long packed, boolean asStored) {
        StringBuilder sb = new StringBuilder(17);
        if (packed < 0) {
            sb.append('-');
        }
        long tmp = Math.abs(packed);
        long hms = tmp >> 24;
        int hours = (int) ((hms >> 12) & 0x3FF);
        hms(sb, asStored ? JsonTextTypes.timeHoursWritten(hours) : hours, (int) ((hms >> 6) & 63), (int) (hms & 63));
        return fraction(sb, (int) (tmp & 0xFFFFFF), 6).toString();
    }

    private static StringBuilder ymd(StringBuilder sb, int y, int m, int d) {
        pad(sb, y, 4).append('-');
        pad(sb, m, 2).append('-');
        return pad(sb, d, 2);
    }

    private static StringBuilder hms(StringBuilder sb, int h, int m, int s) {
        pad(sb, h, 2).append(':');
        pad(sb, m, 2).append(':');
        return pad(sb, s, 2);
    }

    private static StringBuilder fraction(StringBuilder sb, int micros, int fsp) {
        if (fsp <= 0) {
            return sb;
        }
        String six = String.valueOf(1_000_000 + micros).substring(1);
        return sb.append('.').append(six, 0, Math.min(fsp, 6));
    }

    private static StringBuilder pad(StringBuilder sb, long v, int width) {
        String s = Long.toString(v);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(s);
    }
}
