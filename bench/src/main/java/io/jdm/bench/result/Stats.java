package io.jdm.bench.result;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Medians and percentiles, for the sweeps (lag percentiles) and the reports (medians). */
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
}
