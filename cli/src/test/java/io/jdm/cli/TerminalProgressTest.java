package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.cli.TerminalProgress.Reading;
import org.junit.jupiter.api.Test;

/** The progress bar's line: it fits the width, and its percent, amounts, rate and ETA read right. */
class TerminalProgressTest {
    @Test
    void aDumpHalfDoneFillsHalfTheBarAtEveryWidth() {
        for (int width : new int[] {70, 80, 100, 200}) {
            String line = TerminalProgress.render("dump", new Reading(1_250_000, 2_500_000, 50_000), false, width);
            assertEquals(width - 1, line.length(), line);
            assertTrue(line.endsWith("  50% 1.3M/2.5M rows, 50.0k rows/s, ETA 0:25"), line);
            String bar = line.substring(line.indexOf('[') + 1, line.indexOf(']'));
            long filled = bar.chars().filter(c -> c == '#').count();
            assertEquals(bar.length() / 2.0, filled, 0.5, line);
            assertTrue(bar.matches("#+-+"), line);
        }
    }

    @Test
    void aLoadCountsBytesAndAnHourLongEtaHasHours() {
        String line = TerminalProgress.render("load", new Reading(3_000_000_000L, 40_000_000_000L, 9_500_000), true, 100);
        assertTrue(line.startsWith("load [#"), line);
        assertTrue(line.endsWith("   7% 3.0 GB/40.0 GB, 9.5 MB/s, ETA 1:04:55"), line);
        assertEquals(99, line.length(), line);
    }

    @Test
    void aNarrowTerminalDropsTheBarAndNeverWraps() {
        String line = TerminalProgress.render("dump", new Reading(10, 1000, 3), false, 40);
        assertFalse(line.contains("["), line);
        assertTrue(line.length() < 40, line);
        assertTrue(line.startsWith("dump   1% 10/1.0k rows"), line);
    }

    @Test
    void anUnknownTotalShowsNoBarPercentOrEta() {
        String line = TerminalProgress.render("dump", new Reading(999, 0, 12.4), false, 80);
        assertEquals("dump 999 rows, 12 rows/s", line);
        assertEquals("load 0 B, 0 B/s", TerminalProgress.render("load", new Reading(0, -1, 0), true, 80));
    }

    @Test
    void moreThanTheEstimateStopsAtAFullBar() {
        String line = TerminalProgress.render("dump", new Reading(1200, 1000, 100), false, 60);
        assertTrue(line.contains("[" + "#".repeat(line.indexOf(']') - line.indexOf('[') - 1) + "] 100% "), line);
        assertTrue(line.endsWith("ETA 0:00"), line);
    }

    @Test
    void etaWithoutARateIsUnknown() {
        assertEquals("--:--", TerminalProgress.eta(new Reading(5, 10, 0)));
        assertEquals("0:01", TerminalProgress.eta(new Reading(5, 10, 10)));
        assertEquals("1:40", TerminalProgress.eta(new Reading(0, 100, 1)));
        assertEquals("--:--", TerminalProgress.eta(new Reading(0, 1_000_000, 1)));
    }

    @Test
    void amountsRoundIntoTheNextUnit() {
        assertEquals("999", TerminalProgress.amount(999, false));
        assertEquals("1.0k", TerminalProgress.amount(999.96, false));
        assertEquals("12.3 kB", TerminalProgress.amount(12_345, true));
        assertEquals("4.5M", TerminalProgress.amount(4_500_000, false));
    }
}
