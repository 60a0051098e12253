package io.jdm.sync.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Binlog temporal encodings to MySQL text, with values packed the way the server packs them. */
class TemporalTextTest {

    private static long datetime2(int y, int mo, int d, int h, int mi, int s) {
        long ym = y * 13L + mo;
        long ymd = (ym << 5) | d;
        long hms = ((long) h << 12) | ((long) mi << 6) | s;
        return ((ymd << 17) | hms) + 0x8000000000L;
    }

    @Test
    void datesIncludingZeroAndPartialZero() {
        assertEquals("2024-02-29", TemporalText.date((2024 << 9) | (2 << 5) | 29));
        assertEquals("0000-00-00", TemporalText.date(0));
        assertEquals("2024-00-00", TemporalText.date(2024 << 9));
        assertEquals("0000", TemporalText.year(0));
        assertEquals("2155", TemporalText.year(255));
    }

    @Test
    void datetimeWithFractionPerPrecision() {
        assertEquals("9999-12-31 23:59:59.999999", TemporalText.datetime2(datetime2(9999, 12, 31, 23, 59, 59), 999999, 6));
        assertEquals("2024-02-29 12:34:56.000500", TemporalText.datetime2(datetime2(2024, 2, 29, 12, 34, 56), 500, 6));
        assertEquals("2024-02-29 12:34:56.5", TemporalText.datetime2(datetime2(2024, 2, 29, 12, 34, 56), 500000, 1));
        assertEquals("0000-00-00 00:00:00", TemporalText.datetime2(datetime2(0, 0, 0, 0, 0, 0), 0, 0));
        assertEquals("2024-01-02 03:04:05", TemporalText.datetime1(20240102030405L));
    }

    @Test
    void timestampsAreUtcAndZeroStaysZero() {
        assertEquals("1970-01-01 00:00:01.000001", TemporalText.timestamp(1, 1, 6));
        assertEquals("2038-01-19 03:14:07", TemporalText.timestamp(2147483647L, 0, 0));
        assertEquals("0000-00-00 00:00:00.000", TemporalText.timestamp(0, 0, 3));
    }

    @Test
    void negativeAndLongTimes() {
        // TIME2 fsp 0: intpart offset by 0x800000
        long hms838 = (838L << 12) | (59 << 6) | 59;
        assertEquals("838:59:59", TemporalText.time2(0x800000L + hms838, 0));
        assertEquals("-838:59:59", TemporalText.time2(0x800000L - hms838, 0));
        assertEquals("-00:00:01", TemporalText.time2(0x800000L - 1, 0));
        // fsp 6: whole 6 bytes, packed = (intpart << 24) + micros, offset by 0x800000000000
        long minusOneMicro = 0x800000000000L - 1;
        assertEquals("-00:00:00.000001", TemporalText.time2(minusOneMicro, 6));
        long plus = 0x800000000000L + (((838L << 12) | (59 << 6) | 58) << 24) + 999999;
        assertEquals("838:59:58.999999", TemporalText.time2(plus, 6));
        // fsp 2 (1 fraction byte): -00:00:00.01 is intpart -1 with frac 0x100-1
        long raw = ((0x800000L - 1) << 8) | 0xFF;
        assertEquals("-00:00:00.01", TemporalText.time2(raw, 2));
        assertEquals("-12:34:56", TemporalText.time1(-123456));
    }

    @Test
    void jsonTemporalsFromTheirPacked64BitForm() {
        long hms = (1L << 12) | (2 << 6) | 3;
        assertEquals("-01:02:03.000000", TemporalText.jsonTime(-(hms << 24)));
        assertEquals("01:02:03.500000", TemporalText.jsonTime((hms << 24) + 500000));
        // 2020-01-02 03:04:05.123456: ((2020*13+1)<<5|2)<<17 | 3<<12|4<<6|5, over 24 bits of micros
        long ymd = ((2020L * 13 + 1) << 5) | 2;
        long dt = (((ymd << 17) | (3 << 12) | (4 << 6) | 5) << 24) + 123456;
        assertEquals("2020-01-02 03:04:05.123456", TemporalText.jsonDatetime(dt, false));
        assertEquals("2020-01-02", TemporalText.jsonDatetime(dt, true));
    }

    @Test
    void aJsonTimeOf24HoursOrMoreIsWrittenAsTheHoursMySqlStoresAsIt() {
        // MySQL stores CAST('838:59:59' AS TIME) in JSON as 630:59:59, and 32:00:00 as 24:00:00
        long stored630 = -((((630L << 12) | (59 << 6) | 59)) << 24);
        assertEquals("-630:59:59.000000", TemporalText.jsonTime(stored630));
        assertEquals("-838:59:59.000000", TemporalText.jsonTimeStoredAs(stored630));
        assertEquals("32:00:00.000000", TemporalText.jsonTimeStoredAs((24L << 12) << 24));
        assertEquals("23:59:59.000000", TemporalText.jsonTimeStoredAs(((23L << 12) | (59 << 6) | 59) << 24));
    }
}
