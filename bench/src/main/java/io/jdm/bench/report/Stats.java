package io.jdm.bench.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** Medians, percentiles and number formatting shared by the reports. */
public final class Stats {
    private Stats() {
    }

    /** The median (mean of the middle two for an even count); NaN when empty. */
    public static double median(Collection<Double> values) {
        return percentile(values, 50);
    }

    /** Nearest-rank percentile; NaN when empty. */
    public static double percentile(Collection<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> v = new ArrayList<>(values);
        v.sort(Double::compare);
        if (p == 50) {
            int n = v.size();
            return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
        }
        int rank = (int) Math.ceil(p / 100.0 * v.size());
        return v.get(Math.max(0, Math.min(v.size() - 1, rank - 1)));
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
