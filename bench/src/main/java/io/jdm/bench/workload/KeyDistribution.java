package io.jdm.bench.workload;

import java.util.SplittableRandom;

/** How row ids are picked: uniformly, or zipfian (a few hot rows, as sysbench's --rand-type=zipfian). */
public enum KeyDistribution {
    UNIFORM, ZIPFIAN;

    private static final double THETA = 0.8;

    /** An id in 1..n. */
    public long next(SplittableRandom r, long n) {
        if (n <= 1) {
            return 1;
        }
        if (this == UNIFORM) {
            return 1 + r.nextLong(n);
        }
        // Gray et al.'s quick zipfian approximation (the one YCSB uses), good enough for hot keys.
        double zetan = zeta(Math.min(n, 10_000), THETA) * (n / (double) Math.min(n, 10_000));
        double alpha = 1.0 / (1.0 - THETA);
        double eta = (1 - Math.pow(2.0 / n, 1 - THETA)) / (1 - zeta(2, THETA) / zetan);
        double u = r.nextDouble();
        double uz = u * zetan;
        if (uz < 1.0) {
            return 1;
        }
        if (uz < 1.0 + Math.pow(0.5, THETA)) {
            return 2;
        }
        return 1 + (long) (n * Math.pow(eta * u - eta + 1, alpha)) % n;
    }

    private static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += 1 / Math.pow(i, theta);
        }
        return sum;
    }
}
