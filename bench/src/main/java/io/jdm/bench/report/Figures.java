package io.jdm.bench.report;

import java.util.Locale;

/** How the reports print a measured number. */
final class Figures {
    private Figures() {
    }

    /** Three significant digits or so, "-" for a missing value. */
    static String fmt(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "-";
        }
        double a = Math.abs(d);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", d);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", d);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", d);
        }
        return String.format(Locale.ROOT, "%.2f", d);
    }
}
