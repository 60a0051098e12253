package io.jdm.bench.workload;

import io.jdm.common.sql.Identifiers;
import java.util.SplittableRandom;

/** The sysbench oltp_common table shape and value generators. */
public final class Sbtest {
    private Sbtest() {
    }

    public static String tableName(int i) {
        return "sbtest" + i;
    }

    public static String createTable(String db, int i) {
        return createTable(db, i, Payload.NONE);
    }

    /** sysbench's table with the wide-row columns of {@code payload}, if any. */
    public static String createTable(String db, int i, Payload payload) {
        return "CREATE TABLE IF NOT EXISTS " + Identifiers.quote(db) + "." + Identifiers.quote(tableName(i)) + " ("
                + "id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, "
                + "c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', "
                + "PRIMARY KEY (id), KEY k_" + i + " (k)" + payload.columns() + ") ENGINE=InnoDB DEFAULT CHARSET="
                + payload.charset();
    }

    /** sysbench's c: ten groups of eleven digits joined by '-' (119 characters). */
    public static String c(SplittableRandom r) {
        return digits(r, 10);
    }

    /** sysbench's pad: five groups of eleven digits joined by '-' (59 characters). */
    public static String pad(SplittableRandom r) {
        return digits(r, 5);
    }

    private static String digits(SplittableRandom r, int groups) {
        StringBuilder sb = new StringBuilder(groups * 12);
        for (int g = 0; g < groups; g++) {
            if (g > 0) {
                sb.append('-');
            }
            for (int d = 0; d < 11; d++) {
                sb.append((char) ('0' + r.nextInt(10)));
            }
        }
        return sb.toString();
    }
}
